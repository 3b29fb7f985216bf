import { describe, expect, it } from 'vitest'
import { parseServiceForm, priceForForm } from '~/domain/service-form'

const valid = {
  name: '  Equity Premium ',
  description: 'Daily ideas\r\n\r\n  Weekly call  \n',
  price: '2,999.50',
  durationDays: '30',
  riskLevel: 'HIGH',
  delivery: '  Two to four ideas a week on the website and by e-mail ',
}

describe('parseServiceForm', () => {
  it('trims the name, keeps non-blank description lines, and turns rupees into paise', () => {
    expect(parseServiceForm(valid)).toEqual({
      ok: true,
      service: {
        name: 'Equity Premium',
        description: ['Daily ideas', 'Weekly call'],
        pricePaise: 299_950,
        durationDays: 30,
        riskLevel: 'HIGH',
        delivery: 'Two to four ideas a week on the website and by e-mail',
      },
    })
    expect(parseServiceForm({ ...valid, price: '1,51,000' })).toMatchObject({
      ok: true,
      service: { pricePaise: 15_100_000 },
    })
    expect(parseServiceForm({ ...valid, price: '2999' })).toMatchObject({ ok: true, service: { pricePaise: 299_900 } })
  })

  it('refuses a zero, negative, malformed or over-the-cap price', () => {
    for (const price of ['0', '-5', '12.345', 'abc', '', '151000.01', '1e5']) {
      const result = parseServiceForm({ ...valid, price })
      expect(result.ok, price).toBe(false)
      if (!result.ok) expect(result.errors.price?.[0]).toMatch(/price/i)
    }
  })

  it('requires one of the four risk levels, low to very high', () => {
    for (const riskLevel of ['LOW', 'MODERATE', 'HIGH', 'VERY_HIGH']) {
      expect(parseServiceForm({ ...valid, riskLevel }), riskLevel).toMatchObject({ ok: true, service: { riskLevel } })
    }
    const { riskLevel: _omitted, ...withoutRiskLevel } = valid
    for (const fields of [withoutRiskLevel, ...['', 'EXTREME', 'high'].map((riskLevel) => ({ ...valid, riskLevel }))]) {
      expect(parseServiceForm(fields), JSON.stringify(fields)).toMatchObject({
        ok: false,
        errors: { riskLevel: ['Choose the risk level of this research.'] },
      })
    }
  })

  it('requires how and how often the research is delivered, in 10 to 300 characters without control characters', () => {
    const { delivery: _omitted, ...withoutDelivery } = valid
    const invalid = ['', '   ', 'Weekly', 'x'.repeat(301), 'Daily notes\u0000 by e-mail'].map((delivery) => ({
      ...valid,
      delivery,
    }))
    for (const fields of [withoutDelivery, ...invalid]) {
      const result = parseServiceForm(fields)
      expect(result.ok, JSON.stringify(fields)).toBe(false)
      if (!result.ok) expect(result.errors.delivery, JSON.stringify(fields)).toHaveLength(1)
    }
    expect(parseServiceForm({ ...valid, delivery: 'x'.repeat(300) })).toMatchObject({ ok: true })
  })

  it('refuses durations that are not whole days from 1 to 365', () => {
    for (const durationDays of ['0', '366', '1.5', 'x', '']) {
      const result = parseServiceForm({ ...valid, durationDays })
      expect(result.ok, durationDays).toBe(false)
      if (!result.ok) expect(result.errors.durationDays?.[0]).toMatch(/duration/i)
    }
  })

  it('refuses a short or long name and too many description lines or too long a description', () => {
    expect(parseServiceForm({ ...valid, name: 'ab' })).toMatchObject({
      ok: false,
      errors: { name: [expect.stringMatching(/at least 3/)] },
    })
    expect(parseServiceForm({ ...valid, name: 'x'.repeat(81) })).toMatchObject({
      ok: false,
      errors: { name: [expect.stringMatching(/at most 80/)] },
    })
    expect(parseServiceForm({ ...valid, description: Array(11).fill('line').join('\n') })).toMatchObject({
      ok: false,
      errors: { description: [expect.any(String)] },
    })
    expect(parseServiceForm({ ...valid, description: 'x'.repeat(500) })).toMatchObject({ ok: true })
    expect(parseServiceForm({ ...valid, description: `${'x'.repeat(1_500)}\n${'y'.repeat(501)}` })).toMatchObject({
      ok: false,
      errors: { description: ['The description can have at most 2,000 characters.'] },
    })
  })
})

describe("the advertisement code's forbidden wordings", () => {
  const ADVERTISING_CODE = /^SEBI's advertisement code forbids "/

  it('refuses "guaranteed 30% returns" in the description, naming the wording, on the description field', () => {
    const result = parseServiceForm({ ...valid, description: 'Momentum ideas\nguaranteed 30% returns' })
    expect(result).toEqual({
      ok: false,
      errors: {
        description: [
          'SEBI\'s advertisement code forbids "guaranteed": no promise of returns or accuracy, and no claim to be the best or first.',
        ],
      },
    })
  })

  it.each([
    'Best Equity Picks',
    'No. 1 Options Desk',
    'Number one swing trades',
    'Top Midcap Ideas',
    'Assured Income Calls',
    'High accuracy intraday',
    'Sure-shot futures',
    'Risk-free arbitrage',
    '30% returns desk',
    'Returns of 25% a year',
    '90 percent hit rate',
  ])('refuses the name %j on the name field', (name) => {
    const result = parseServiceForm({ ...valid, name })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.errors.name?.[0], name).toMatch(ADVERTISING_CODE)
  })

  it('refuses the wording in how the research is delivered too', () => {
    const result = parseServiceForm({ ...valid, delivery: 'Two accurate ideas a week by e-mail' })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.errors.delivery?.[0]).toMatch(ADVERTISING_CODE)
  })

  it.each([
    'Stop-loss discipline for swing trades',
    'Desktop and phone alerts',
    'Ideas with 18% GST included',
    'Topical sector notes',
  ])('accepts ordinary wording: %j', (description) => {
    expect(parseServiceForm({ ...valid, description })).toMatchObject({ ok: true })
  })
})

describe('priceForForm', () => {
  it('shows whole rupees plainly and paise with two digits', () => {
    expect(priceForForm(299_900)).toBe('2999')
    expect(priceForForm(299_905)).toBe('2999.05')
  })
})
