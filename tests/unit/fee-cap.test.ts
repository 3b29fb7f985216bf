import { describe, expect, it } from 'vitest'
import { FeeCapExemptionSchema } from '~/domain/admin'
import {
  feeCapRefusal,
  feeCapRefusalMessage,
  feeCapWindowStart,
  SEBI_FEE_CAP_PAISE,
  stopsCountingAt,
  taxableValuePaise,
  type FeeCapWindow,
} from '~/domain/fee-cap'
import { parseEnv } from '~/server/env.server'

describe('parseEnv: the family fee cap', () => {
  it("defaults to SEBI's Rs 1,51,000 over the 12 months before now", () => {
    const env = parseEnv({})
    expect(env.FEE_CAP_PAISE).toBe(15_100_000)
    expect(env.FEE_CAP_PAISE).toBe(SEBI_FEE_CAP_PAISE)
    expect(env.FEE_CAP_WINDOW).toBe('rolling-12-months')
  })

  it('takes another cap in paise and the financial year as the window', () => {
    const env = parseEnv({ FEE_CAP_PAISE: '20000000', FEE_CAP_WINDOW: 'financial-year' })
    expect(env.FEE_CAP_PAISE).toBe(20_000_000)
    expect(env.FEE_CAP_WINDOW).toBe('financial-year')
  })

  it('refuses a cap that is not a whole positive number of paise, in one line naming the variable', () => {
    for (const value of ['0', '-1', '151000.50', 'Rs 1,51,000']) {
      expect(() => parseEnv({ FEE_CAP_PAISE: value })).toThrow(
        'Invalid environment variable FEE_CAP_PAISE: must be a whole number of paise, such as 15100000 for Rs 1,51,000',
      )
    }
  })

  it('refuses a window it does not know', () => {
    expect(() => parseEnv({ FEE_CAP_WINDOW: 'calendar-year' })).toThrow(
      'Invalid environment variable FEE_CAP_WINDOW: must be rolling-12-months or financial-year',
    )
  })
})

describe('FeeCapExemptionSchema', () => {
  it('needs a kind and a reason to mark a customer exempt', () => {
    expect(
      FeeCapExemptionSchema.parse({
        intent: 'fee-cap-exempt',
        exemption: 'NON_INDIVIDUAL',
        reason: '  A trust, PAN AAATT1234Q  ',
      }),
    ).toEqual({ intent: 'fee-cap-exempt', exemption: 'NON_INDIVIDUAL', reason: 'A trust, PAN AAATT1234Q' })
    const refused = FeeCapExemptionSchema.safeParse({ intent: 'fee-cap-exempt', exemption: 'RICH', reason: '' })
    expect(refused.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['exemption', 'reason'])
  })

  it('removes the mark without a reason', () => {
    expect(FeeCapExemptionSchema.parse({ intent: 'fee-cap-unexempt' })).toEqual({ intent: 'fee-cap-unexempt' })
  })
})

const ist = (local: string) => new Date(`${local}+05:30`)

describe('feeCapWindowStart', () => {
  it.each<[string, FeeCapWindow, string, string]>([
    ['a weekday', 'rolling-12-months', '2026-11-26T10:00:00', '2025-11-26T00:00:00'],
    [
      'just after midnight IST (still the previous day in UTC)',
      'rolling-12-months',
      '2026-11-26T00:10:00',
      '2025-11-26T00:00:00',
    ],
    ['29 February: 28 February a year back', 'rolling-12-months', '2028-02-29T12:00:00', '2027-02-28T00:00:00'],
    ['1 March after a leap day', 'rolling-12-months', '2029-03-01T00:00:00', '2028-03-01T00:00:00'],
    ['November: this April', 'financial-year', '2026-11-26T10:00:00', '2026-04-01T00:00:00'],
    ['31 March 23:59 IST: last April', 'financial-year', '2027-03-31T23:59:59', '2026-04-01T00:00:00'],
    ['1 April 00:00 IST: this April', 'financial-year', '2027-04-01T00:00:00', '2027-04-01T00:00:00'],
    ['1 April 00:00 IST is 31 March in UTC', 'financial-year', '2027-04-01T00:30:00', '2027-04-01T00:00:00'],
  ])('%s (%s)', (_, window, now, start) => {
    expect(feeCapWindowStart(ist(now), window)).toEqual(ist(start))
  })
})

describe('stopsCountingAt', () => {
  it.each<[FeeCapWindow, string, string]>([
    ['rolling-12-months', '2025-11-26T15:00:00', '2026-11-27T00:00:00'],
    ['rolling-12-months', '2025-11-26T00:00:00', '2026-11-27T00:00:00'],
    ['rolling-12-months', '2028-02-29T10:00:00', '2029-03-01T00:00:00'],
    ['rolling-12-months', '2027-02-28T10:00:00', '2028-03-01T00:00:00'],
    ['financial-year', '2026-04-01T00:00:00', '2027-04-01T00:00:00'],
    ['financial-year', '2027-03-31T23:59:59', '2027-04-01T00:00:00'],
  ])('%s: paid %s, counted until just before %s', (window, paidAt, stops) => {
    const stopsAt = stopsCountingAt(ist(paidAt), window)
    expect(stopsAt).toEqual(ist(stops))
    expect(feeCapWindowStart(new Date(stopsAt.getTime() - 1), window) <= ist(paidAt)).toBe(true)
    expect(feeCapWindowStart(stopsAt, window) > ist(paidAt)).toBe(true)
  })
})

describe('taxableValuePaise', () => {
  it('is the price less the GST it contains', () => {
    expect(taxableValuePaise(118_000, 1800)).toBe(100_000)
    expect(taxableValuePaise(299_900, 1800)).toBe(254_153)
    expect(taxableValuePaise(299_900, 0)).toBe(299_900)
  })
})

describe('feeCapRefusal', () => {
  const cap = 15_100_000
  const now = ist('2026-11-26T10:00:00')
  const base = { now, window: 'rolling-12-months' as const, capPaise: cap, committedPaise: 0 }
  const paid = (local: string, taxablePaise: number) => ({ paidAt: ist(local), taxablePaise })

  it.each([
    ['nothing paid, a purchase under the cap', [], 0, 2_000_000, null],
    ['a purchase that reaches the cap exactly', [paid('2026-06-01T10:00:00', 13_100_000)], 0, 2_000_000, null],
    [
      'one paisa over, freed when the payment stops counting',
      [paid('2026-06-01T10:00:00', 13_100_001)],
      0,
      2_000_000,
      { leftPaise: 1_999_999, fitsFrom: ist('2027-06-02T00:00:00') },
    ],
    ['payments before the window do not count', [paid('2025-11-25T23:59:59', 15_000_000)], 0, 2_000_000, null],
    [
      'a payment on the first day of the window counts',
      [paid('2025-11-26T00:00:00', 15_000_000)],
      0,
      2_000_000,
      { leftPaise: 100_000, fitsFrom: ist('2026-11-27T00:00:00') },
    ],
    [
      'the earliest payments free the room first, as many as needed',
      [
        paid('2026-08-01T10:00:00', 5_000_000),
        paid('2026-01-10T10:00:00', 1_000_000),
        paid('2026-03-05T10:00:00', 8_000_000),
      ],
      0,
      2_000_000,
      { leftPaise: 1_100_000, fitsFrom: ist('2027-01-11T00:00:00') },
    ],
    [
      'open orders and claims count and never free room',
      [paid('2026-01-10T10:00:00', 1_000_000)],
      12_500_000,
      2_000_000,
      { leftPaise: 1_600_000, fitsFrom: ist('2027-01-11T00:00:00') },
    ],
    ['committed alone leaves no way to fit', [], 14_000_000, 2_000_000, { leftPaise: 1_100_000, fitsFrom: null }],
    ['a purchase over the cap by itself', [], 0, 15_100_001, { leftPaise: cap, fitsFrom: null }],
    [
      'a family over the cap (a capture that raced) has nothing left',
      [paid('2026-10-01T10:00:00', 15_200_000)],
      0,
      100,
      { leftPaise: 0, fitsFrom: ist('2027-10-02T00:00:00') },
    ],
  ] as const)('%s', (_, payments, committedPaise, purchasePaise, expected) => {
    const refusal = feeCapRefusal({ ...base, paid: payments, committedPaise, purchasePaise })
    expect(refusal).toEqual(expected && { capPaise: cap, purchasePaise, ...expected })
  })

  it('in the financial year, everything paid frees room on 1 April; 31 March 23:59 IST still counts', () => {
    const window = 'financial-year' as const
    const payments = [paid('2026-04-01T00:00:00', 14_000_000)]
    const lastMinute = ist('2027-03-31T23:59:00')
    expect(feeCapRefusal({ ...base, window, now: lastMinute, paid: payments, purchasePaise: 2_000_000 })).toEqual({
      capPaise: cap,
      leftPaise: 1_100_000,
      purchasePaise: 2_000_000,
      fitsFrom: ist('2027-04-01T00:00:00'),
    })
    const april = ist('2027-04-01T00:00:00')
    expect(feeCapRefusal({ ...base, window, now: april, paid: payments, purchasePaise: 2_000_000 })).toBeNull()
    // A payment made before this financial year does not count even if less than 12 months old.
    expect(
      feeCapRefusal({
        ...base,
        window,
        now,
        paid: [paid('2026-03-31T23:59:59', 14_000_000)],
        purchasePaise: 2_000_000,
      }),
    ).toBeNull()
  })
})

describe('feeCapRefusalMessage', () => {
  it('names the cap, what is left, the purchase, and when it fits', () => {
    expect(
      feeCapRefusalMessage({
        capPaise: 15_100_000,
        leftPaise: 1_234_550,
        purchasePaise: 2_000_000,
        fitsFrom: ist('2027-06-02T00:00:00'),
      }),
    ).toBe(
      'SEBI caps the fees one family pays a research analyst at Rs 1,51,000 a year, before GST. Your family has Rs 12,345.50 of it left; this purchase is Rs 20,000 before GST. It fits from 02-06-2027, when earlier payments stop counting.',
    )
    expect(feeCapRefusalMessage({ capPaise: 15_100_000, leftPaise: 0, purchasePaise: 100, fitsFrom: null })).toBe(
      'SEBI caps the fees one family pays a research analyst at Rs 1,51,000 a year, before GST. Your family has reached it; this purchase is Rs 1 before GST.',
    )
  })
})
