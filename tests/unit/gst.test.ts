import { describe, expect, it } from 'vitest'
import { checkoutDescription } from '~/domain/gateway-checkout'
import {
  formatGstRate,
  gstContainedPaise,
  gstIncludedText,
  gstShareOfRefundPaise,
  intraStateSplit,
  placeOfSupplyText,
} from '~/domain/gst'
import { documentNumber, financialYearOf, seriesOf } from '~/domain/tax-documents'

describe('gstContainedPaise', () => {
  it.each([
    [118_000, 1800, 18_000],
    [299_900, 1800, 45_747], // 299900 * 18 / 118 = 45747.46
    [100, 1800, 15], // 15.25
    [1, 1800, 0],
    [-118_000, 1800, -18_000],
    [299_900, 0, 0],
    [112_500, 1250, 12_500],
  ])('%i paise at %i basis points contains %i paise of GST', (amount, rate, gst) => {
    expect(gstContainedPaise(amount, rate)).toBe(gst)
  })

  it('refuses an amount that is not whole paise', () => {
    expect(() => gstContainedPaise(10.5, 1800)).toThrow(TypeError)
  })
})

describe('gstShareOfRefundPaise', () => {
  const payment = { amountPaise: 299_900, gstPaise: 45_747, gstAlreadyRefundedPaise: 0 }

  it("returns the payment's own GST on a full refund", () => {
    expect(gstShareOfRefundPaise(299_900, payment)).toBe(45_747)
  })

  it('is proportionate on a partial refund', () => {
    expect(gstShareOfRefundPaise(149_950, payment)).toBe(22_874) // 22873.5 rounded
  })

  it('never returns more GST than is left to refund, whatever the rounding of earlier refunds', () => {
    expect(gstShareOfRefundPaise(149_950, { ...payment, gstAlreadyRefundedPaise: 22_874 })).toBe(22_873)
  })
})

describe('intraStateSplit and formatGstRate', () => {
  it('splits GST into equal central and state halves, the odd paisa to the state', () => {
    expect(intraStateSplit(45_747)).toEqual({ cgstPaise: 22_873, sgstPaise: 22_874 })
    expect(intraStateSplit(-45_747)).toEqual({ cgstPaise: -22_873, sgstPaise: -22_874 })
  })

  it('writes the rate as a percentage', () => {
    expect(formatGstRate(1800)).toBe('18%')
    expect(formatGstRate(1250)).toBe('12.5%')
  })
})

describe('financialYearOf and documentNumber', () => {
  it('starts the financial year on 1 April, India time', () => {
    expect(financialYearOf(new Date('2027-03-31T23:59:59.999+05:30'))).toEqual({ label: '2026-27', code: '2627' })
    expect(financialYearOf(new Date('2027-04-01T00:00:00.000+05:30'))).toEqual({ label: '2027-28', code: '2728' })
    // 31 March 19:00 UTC is already 1 April in India.
    expect(financialYearOf(new Date('2027-03-31T19:00:00Z')).label).toBe('2027-28')
    expect(financialYearOf(new Date('2099-06-01T00:00:00Z'))).toEqual({ label: '2099-00', code: '9900' })
  })

  it('numbers documents within a series and year, in at most 16 characters', () => {
    const number = documentNumber('INV', { label: '2026-27', code: '2627' }, 42)
    expect(number).toBe('INV/2627/000042')
    expect(number.length).toBeLessThanOrEqual(16)
    expect(seriesOf(number)).toBe('INV')
    expect(seriesOf('X/2627/000001')).toBeNull()
    expect(() => documentNumber('CN', { label: '2026-27', code: '2627' }, 0)).toThrow(RangeError)
  })
})

describe('the GST line', () => {
  it('says how much of a GST-inclusive total is GST', () => {
    expect(gstIncludedText(449_800, 1800)).toBe('Includes GST of Rs. 686.14 (18%)')
  })

  it("ends the gateway's description, which a long list of services never cuts off", () => {
    expect(checkoutDescription(['a', 'b'])).toBe('Services: a, b')
    expect(checkoutDescription(['a', 'b'], gstIncludedText(449_800, 1800))).toBe(
      'Services: a, b. Includes GST of Rs. 686.14 (18%)',
    )
    const many = Array.from({ length: 20 }, (_, index) => `00000000-0000-4000-8000-0000000000${index}`)
    const described = checkoutDescription(many, gstIncludedText(449_800, 1800))
    expect(described.length).toBe(255)
    expect(described).toMatch(/…\. Includes GST of Rs\. 686\.14 \(18%\)$/)
  })
})

describe('placeOfSupplyText', () => {
  it.each([
    ['27ABCDE1234F1Z5', 'Maharashtra (27)'],
    ['32ABCDE1234F1Z5', 'Kerala (32)'],
    ['07ABCDE1234F1Z5', 'Delhi (07)'],
    ['00AAAAA0000A1Z5', 'State code 00 (no such state: a demo GSTIN)'],
  ])("names the state of the GSTIN %s, the supplier's, with its GST code: %s", (gstin, text) => {
    expect(placeOfSupplyText(gstin)).toBe(text)
  })
})
