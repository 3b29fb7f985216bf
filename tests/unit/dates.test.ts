import { describe, expect, it } from 'vitest'
import { formatIndiaDate, formatIsoDate, latestAdultBirthDate, MINIMUM_AGE_YEARS, MS_PER_DAY } from '~/domain/dates'

describe('MS_PER_DAY', () => {
  it('has 86 400 000 ms in a day', () => {
    expect(MS_PER_DAY).toBe(86_400_000)
  })
})

describe('formatIndiaDate', () => {
  it("shows the instant's date in India as DD-MM-YYYY", () => {
    expect(formatIndiaDate(new Date('2026-02-09T18:45:00Z'))).toBe('10-02-2026')
    expect(formatIndiaDate(new Date('2026-02-09T18:29:59Z'))).toBe('09-02-2026')
  })
})

describe('latestAdultBirthDate', () => {
  it('is today minus 18 years in India', () => {
    expect(MINIMUM_AGE_YEARS).toBe(18)
    expect(latestAdultBirthDate(new Date('2026-11-22T06:00:00Z'))).toBe('2008-11-22')
  })

  it("uses India's calendar date, not UTC's", () => {
    // 20:00 UTC on 21 November is already 22 November in India.
    expect(latestAdultBirthDate(new Date('2026-11-21T20:00:00Z'))).toBe('2008-11-22')
  })

  it('falls back to 28 February when today is 29 February', () => {
    expect(latestAdultBirthDate(new Date('2028-02-29T06:00:00Z'))).toBe('2010-02-28')
  })
})

describe('formatIndiaDateTime', () => {
  it('shows the instant in India time with the zone named', async () => {
    const { formatIndiaDateTime } = await import('~/domain/dates')
    expect(formatIndiaDateTime(new Date('2026-11-20T18:45:00Z'))).toBe('21-11-2026 00:15 IST')
    expect(formatIndiaDateTime(new Date('2026-11-20T05:00:00Z'))).toBe('20-11-2026 10:30 IST')
  })
})

describe('formatIsoDate', () => {
  it('writes a YYYY-MM-DD date as DD-MM-YYYY, like formatIndiaDate', () => {
    expect(formatIsoDate('2026-06-05')).toBe('05-06-2026')
    expect(formatIsoDate('2026-06-05')).toBe(formatIndiaDate(new Date('2026-06-05T00:00:00+05:30')))
  })
})
