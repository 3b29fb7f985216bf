import { INDIA_TIME_ZONE } from './dates'

/** INV: a tax invoice (GST-registered); RCT: a receipt (not registered); CN: a credit note for a refund. */
export type DocumentSeries = 'INV' | 'RCT' | 'CN'

export type FinancialYear = {
  /** "2026-27": 1 April 2026 to 31 March 2027, India time. */
  label: string
  /** "2627", as it appears in document numbers. */
  code: string
}

const indiaYearMonth = new Intl.DateTimeFormat('en-CA', {
  timeZone: INDIA_TIME_ZONE,
  year: 'numeric',
  month: 'numeric',
})

/** The Indian financial year (April to March, India time) an instant falls in. */
export function financialYearOf(instant: Date): FinancialYear {
  const parts = Object.fromEntries(indiaYearMonth.formatToParts(instant).map((part) => [part.type, part.value]))
  const year = Number(parts.year)
  const startYear = Number(parts.month) >= 4 ? year : year - 1
  const first = String(startYear % 100).padStart(2, '0')
  const second = String((startYear + 1) % 100).padStart(2, '0')
  return { label: `${startYear}-${second}`, code: `${first}${second}` }
}

/** Numbers run from 1 within each series and financial year: INV/2627/000001 (15 characters, GST allows 16). */
export function documentNumber(series: DocumentSeries, year: FinancialYear, sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1)
    throw new RangeError(`sequence must be a positive integer, got ${sequence}`)
  return `${series}/${year.code}/${String(sequence).padStart(6, '0')}`
}

export const DOCUMENT_TITLES: Record<DocumentSeries, string> = {
  INV: 'Tax invoice',
  RCT: 'Receipt',
  CN: 'Credit note',
}

/** The series a document number belongs to (INV/2627/000001 -> INV). */
export function seriesOf(number: string): DocumentSeries | null {
  const prefix = number.split('/')[0]
  return prefix === 'INV' || prefix === 'RCT' || prefix === 'CN' ? prefix : null
}

/** An invoice, receipt or credit note as its printable page shows it (app/server/payments/tax-documents.server.ts builds it). */
export type TaxDocumentView = {
  number: string
  customerId: string
  title: string
  /** DD-MM-YYYY, India time. */
  issuedOn: string
  /** A credit note's invoice. */
  againstNumber: string | null
  seller: {
    name: string
    legalName: string
    address: string
    /** Null on a receipt: the business was not GST-registered. */
    gstin: string | null
    sacCode: string | null
    sebiRegistrationNumber: string
    supportEmail: string
    supportPhone: string
  }
  buyer: { name: string | null; phone: string; email: string | null; pan: string | null }
  /** A GST document's place of supply, "Maharashtra (27)"; null on a receipt (no GST charged). */
  placeOfSupply: string | null
  lines: { description: string; period: string | null; amountPaise: number }[]
  /** GST-inclusive; negative on a credit note. */
  totalPaise: number
  gstPaise: number
  cgstPaise: number
  sgstPaise: number
  gstRateBasisPoints: number
  paidBy: string
}

/** The page of a document number: INV/2627/000001 -> /invoices/INV/2627/000001 (its slashes are path segments). */
export function taxDocumentHref(number: string): string {
  return `/invoices/${number}`
}
