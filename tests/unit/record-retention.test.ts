import { describe, expect, it } from 'vitest'
import { indiaMidnight } from '~/domain/dates'
import {
  complaintCutoff,
  complaintErasableFrom,
  GST_RECORDS_KEPT_MONTHS,
  gstAnnualReturnDueOn,
  gstRecordsKeptThrough,
  paymentRecordsCutoffs,
  paymentRecordsErasableFrom,
} from '~/domain/record-retention'

const MS = 1
const lastMomentOfFy2020 = new Date(indiaMidnight('2021-04-01').getTime() - MS) // 31-03-2021 23:59:59.999 IST
const firstMomentOfFy2021 = indiaMidnight('2021-04-01')

describe('the GST period (CGST Act s.36)', () => {
  it('keeps 72 months from the annual return due 31 December after the financial year', () => {
    expect(GST_RECORDS_KEPT_MONTHS).toBe(72)
    expect(gstAnnualReturnDueOn(2020)).toBe('2021-12-31')
    expect(gstRecordsKeptThrough(2020)).toBe('2027-12-31')
    expect(gstRecordsKeptThrough(2023)).toBe('2030-12-31')
  })
})

describe('paymentRecordsErasableFrom', () => {
  it('puts 31 March 23:59 India time in the earlier financial year and 1 April 00:00 in the next', () => {
    // 31-03-2021 18:29:59.999 UTC is still 31 March in India; 18:30 UTC is 1 April.
    expect(lastMomentOfFy2020.toISOString()).toBe('2021-03-31T18:29:59.999Z')
    const early = { lastTaxRecordAt: lastMomentOfFy2020, lastRecordAt: lastMomentOfFy2020 }
    const late = { lastTaxRecordAt: firstMomentOfFy2021, lastRecordAt: firstMomentOfFy2021 }
    expect(paymentRecordsErasableFrom(early)).toEqual(indiaMidnight('2028-01-01'))
    expect(paymentRecordsErasableFrom(late)).toEqual(indiaMidnight('2029-01-01'))
  })

  it('keeps SEBI’s 5 years after the last record when they end later than the GST period', () => {
    const serviceEnd = new Date('2024-06-10T10:00:00Z')
    expect(
      paymentRecordsErasableFrom({ lastTaxRecordAt: new Date('2018-05-01T00:00:00Z'), lastRecordAt: serviceEnd }),
    ).toEqual(new Date('2029-06-10T10:00:00Z'))
  })
})

describe('paymentRecordsCutoffs', () => {
  it('agrees with paymentRecordsErasableFrom a millisecond either side of the period’s end', () => {
    const erasableFrom = indiaMidnight('2028-01-01')
    const justBefore = paymentRecordsCutoffs(new Date(erasableFrom.getTime() - MS))
    const atTheEnd = paymentRecordsCutoffs(erasableFrom)
    // Before 01-01-2028 no financial year up to 2020-21 is over; from then FY 2020-21 is.
    expect(justBefore.taxRecords).toEqual(indiaMidnight('2020-04-01'))
    expect(atTheEnd.taxRecords).toEqual(indiaMidnight('2021-04-01'))
    expect(lastMomentOfFy2020 < atTheEnd.taxRecords).toBe(true)
    expect(firstMomentOfFy2021 < atTheEnd.taxRecords).toBe(false)
    expect(atTheEnd.records).toEqual(new Date('2022-12-31T18:30:00Z'))
  })

  it('moves the tax cut-off only on 1 January, India time', () => {
    const lateIn2028 = paymentRecordsCutoffs(new Date('2028-12-31T18:29:59.999Z')) // 31-12-2028 23:59 IST
    expect(lateIn2028.taxRecords).toEqual(indiaMidnight('2021-04-01'))
    expect(paymentRecordsCutoffs(indiaMidnight('2029-01-01')).taxRecords).toEqual(indiaMidnight('2022-04-01'))
  })
})

describe('complaints', () => {
  it('are kept 5 years after their last step', () => {
    const closed = new Date('2021-03-15T06:00:00Z')
    expect(complaintErasableFrom(closed)).toEqual(new Date('2026-03-15T06:00:00Z'))
    expect(complaintCutoff(new Date('2026-03-15T06:00:00Z'))).toEqual(closed)
  })
})
