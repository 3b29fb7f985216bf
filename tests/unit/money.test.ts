import { describe, expect, it } from 'vitest'
import { formatPriceLine, formatRupees, PAISE_PER_RUPEE, rupeesToPaise } from '~/domain/money'

describe('formatRupees', () => {
  it('shows whole rupees without decimals', () => {
    expect(formatRupees(149_900)).toBe('1,499')
  })

  it('groups digits the Indian way', () => {
    expect(formatRupees(12_345_678_00)).toBe('1,23,45,678')
  })

  it('shows paise when the amount is not whole rupees', () => {
    expect(formatRupees(149_950)).toBe('1,499.50')
    expect(formatRupees(5)).toBe('0.05')
  })

  it('refuses amounts that are not whole paise', () => {
    expect(() => formatRupees(10.5)).toThrow(TypeError)
  })

  it('has 100 paise to the rupee', () => {
    expect(PAISE_PER_RUPEE).toBe(100)
  })
})

describe('formatPriceLine', () => {
  it("is 'Rs. {price} for {duration} Days' (docs/product.md section 2)", () => {
    expect(formatPriceLine(299_900, 30)).toBe('Rs. 2,999 for 30 Days')
    expect(formatPriceLine(999_900, 365)).toBe('Rs. 9,999 for 365 Days')
  })
})

describe('rupeesToPaise', () => {
  it('turns rupees with paise into whole paise without float drift', () => {
    expect(rupeesToPaise(2999)).toBe(299_900)
    expect(rupeesToPaise(1499.5)).toBe(149_950)
    expect(rupeesToPaise(4498.5)).toBe(449_850)
    expect(rupeesToPaise(0.29)).toBe(29)
    expect(() => rupeesToPaise(Number.NaN)).toThrow(TypeError)
  })
})
