import { RECORDS_KEPT_YEARS } from './account-closing'
import { indiaMidnight } from './dates'
import { financialYearOf } from './tax-documents'

// How long the records the law keeps longer than the account (payments, tax documents, refunds,
// subscriptions, complaints) are kept: the retention job (app/server/account/retention.server.ts) erases
// them when the longest period that applies to them has ended.

/** CGST Act, 2017 s.36: accounts and records are kept 72 months from the due date of the year's annual return. */
export const GST_RECORDS_KEPT_MONTHS = 72

/** CGST Rules r.80: the annual return (GSTR-9) of a financial year is due on 31 December after the year ends. */
export function gstAnnualReturnDueOn(financialYearStart: number): string {
  return `${financialYearStart + 1}-12-31`
}

/** `months` calendar months after an ISO date; a day the month lacks becomes its last day. */
function addMonths(isoDate: string, months: number): string {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number]
  const firstOfMonth = new Date(Date.UTC(year, month - 1 + months, 1))
  const lastDay = new Date(Date.UTC(firstOfMonth.getUTCFullYear(), firstOfMonth.getUTCMonth() + 1, 0)).getUTCDate()
  firstOfMonth.setUTCDate(Math.min(day, lastDay))
  return firstOfMonth.toISOString().slice(0, 10)
}

const dayAfter = (isoDate: string) =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)

const financialYearStartOf = (instant: Date) => Number(financialYearOf(instant).label.slice(0, 4))

/** The last India date on which the tax records of a financial year (April to March) must still be kept. */
export function gstRecordsKeptThrough(financialYearStart: number): string {
  return addMonths(gstAnnualReturnDueOn(financialYearStart), GST_RECORDS_KEPT_MONTHS)
}

/** The instant a financial year's tax records may go: midnight India time after their last day. */
const gstRecordsErasableFrom = (financialYearStart: number) =>
  indiaMidnight(dayAfter(gstRecordsKeptThrough(financialYearStart)))

const yearsAfter = (instant: Date, years: number) => {
  const later = new Date(instant)
  later.setUTCFullYear(later.getUTCFullYear() + years)
  return later
}

export type PaymentRecordDates = {
  /** The latest tax document date of the payment (its invoice, credit notes), or the payment's own date without one. */
  lastTaxRecordAt: Date
  /** The latest of everything about it: payment, refunds, ledger entries, and the end of the services it bought. */
  lastRecordAt: Date
}

/**
 * When a payment's records (the payment, its subscriptions, refunds, ledger entries, invoice and
 * credit notes) may be erased: the later of SEBI's 5 years after its last record and the end of the
 * GST period of the financial year of its last tax document (FY 2020-21: GSTR-9 due 31-12-2021,
 * kept until 31-12-2027, erasable from 01-01-2028 India time).
 */
export function paymentRecordsErasableFrom({ lastTaxRecordAt, lastRecordAt }: PaymentRecordDates): Date {
  const sebi = yearsAfter(lastRecordAt, RECORDS_KEPT_YEARS)
  const gst = gstRecordsErasableFrom(financialYearStartOf(lastTaxRecordAt))
  return sebi > gst ? sebi : gst
}

/**
 * The same rule as cut-offs for a query at `now`: a payment whose last tax record is before
 * `taxRecords` and whose last record of any kind is before `records` may be erased.
 */
export function paymentRecordsCutoffs(now: Date): { taxRecords: Date; records: Date } {
  let financialYear = financialYearStartOf(now)
  while (gstRecordsErasableFrom(financialYear) > now) financialYear -= 1
  // Every financial year up to `financialYear` has ended its period: the cut-off is the next one's 1 April.
  return {
    taxRecords: indiaMidnight(`${financialYear + 1}-04-01`),
    records: yearsAfter(now, -RECORDS_KEPT_YEARS),
  }
}

/** When a complaint (its steps, messages and attachment) may be erased: 5 years after its last step (resolved, then closed). */
export function complaintErasableFrom(lastStepAt: Date): Date {
  return yearsAfter(lastStepAt, RECORDS_KEPT_YEARS)
}

/** The same rule as a cut-off: a resolved or closed complaint whose last step is before it may be erased at `now`. */
export function complaintCutoff(now: Date): Date {
  return yearsAfter(now, -RECORDS_KEPT_YEARS)
}
