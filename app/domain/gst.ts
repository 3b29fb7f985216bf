import { formatRupees } from './money'

/**
 * GST on the store's fees. Prices are GST-inclusive: what a card shows is what the customer pays,
 * and when the business is GST-registered the GST contained in that total is shown and invoiced
 * as its own line.
 */
export type GstRegistration = {
  gstin: string
  /** The legal name registered for GST, printed on invoices. */
  legalName: string
  /** The service accounting code printed on invoices. */
  sacCode: string
  /** 1800 = 18%. */
  rateBasisPoints: number
}

export const BASIS_POINTS_PER_PERCENT = 100
const BASIS_POINTS_WHOLE = 100 * BASIS_POINTS_PER_PERCENT

/** 15 characters: state code, the holder's PAN, entity number, Z, check character. */
export const GSTIN_PATTERN = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/

/**
 * The GST contained in a GST-inclusive amount, rounded to the nearest paisa: 118000 at 18% -> 18000.
 * Same sign as the amount (a refund's GST is negative like the refund).
 */
export function gstContainedPaise(inclusivePaise: number, rateBasisPoints: number): number {
  if (!Number.isSafeInteger(inclusivePaise)) throw new TypeError(`paise must be an integer, got ${inclusivePaise}`)
  if (rateBasisPoints === 0) return 0
  const magnitude = Math.round((Math.abs(inclusivePaise) * rateBasisPoints) / (BASIS_POINTS_WHOLE + rateBasisPoints))
  return inclusivePaise < 0 ? -magnitude : magnitude
}

/**
 * The GST part of a partial refund of a payment: the payment's own GST share, so a full refund
 * returns exactly the GST invoiced, and several partial ones never return more than it.
 */
export function gstShareOfRefundPaise(
  refundPaise: number,
  payment: { amountPaise: number; gstPaise: number; gstAlreadyRefundedPaise: number },
): number {
  const share = Math.round((refundPaise * payment.gstPaise) / payment.amountPaise)
  return Math.min(share, payment.gstPaise - payment.gstAlreadyRefundedPaise)
}

/**
 * The states and union territories by their GST state code, the first two digits of a GSTIN
 * (CBIC's list; 25 and 28 are the codes of Daman and Diu and undivided Andhra Pradesh, still on
 * older GSTINs).
 */
export const GST_STATES: Readonly<Record<string, string>> = {
  '01': 'Jammu and Kashmir',
  '02': 'Himachal Pradesh',
  '03': 'Punjab',
  '04': 'Chandigarh',
  '05': 'Uttarakhand',
  '06': 'Haryana',
  '07': 'Delhi',
  '08': 'Rajasthan',
  '09': 'Uttar Pradesh',
  '10': 'Bihar',
  '11': 'Sikkim',
  '12': 'Arunachal Pradesh',
  '13': 'Nagaland',
  '14': 'Manipur',
  '15': 'Mizoram',
  '16': 'Tripura',
  '17': 'Meghalaya',
  '18': 'Assam',
  '19': 'West Bengal',
  '20': 'Jharkhand',
  '21': 'Odisha',
  '22': 'Chhattisgarh',
  '23': 'Madhya Pradesh',
  '24': 'Gujarat',
  '25': 'Daman and Diu',
  '26': 'Dadra and Nagar Haveli and Daman and Diu',
  '27': 'Maharashtra',
  '28': 'Andhra Pradesh (before 2014)',
  '29': 'Karnataka',
  '30': 'Goa',
  '31': 'Lakshadweep',
  '32': 'Kerala',
  '33': 'Tamil Nadu',
  '34': 'Puducherry',
  '35': 'Andaman and Nicobar Islands',
  '36': 'Telangana',
  '37': 'Andhra Pradesh',
  '38': 'Ladakh',
  '97': 'Other Territory',
}

/** The state a GSTIN is registered in ("27ABCDE1234F1Z5" -> Maharashtra), null for a code no state has (the demo's 00). */
export function gstStateOf(gstin: string): { code: string; name: string | null } {
  const code = gstin.slice(0, 2)
  return { code, name: GST_STATES[code] ?? null }
}

/**
 * The place of supply a tax invoice or credit note prints: "Maharashtra (27)". The store records no
 * address of its customers, so for these unregistered recipients it is the supplier's location (IGST
 * Act s.12(2)(b)): the state of the GSTIN the document was issued under.
 */
export function placeOfSupplyText(sellerGstin: string): string {
  const { code, name } = gstStateOf(sellerGstin)
  return name ? `${name} (${code})` : `State code ${code} (no such state: a demo GSTIN)`
}

/**
 * With no customer address on record, the place of supply is the business's own state: the GST is
 * charged as central and state tax in equal halves (the odd paisa to the state tax).
 */
export function intraStateSplit(gstPaise: number): { cgstPaise: number; sgstPaise: number } {
  const cgstPaise = Math.trunc(gstPaise / 2)
  return { cgstPaise, sgstPaise: gstPaise - cgstPaise }
}

/** "18%", "12.5%". */
export function formatGstRate(rateBasisPoints: number): string {
  return `${rateBasisPoints / BASIS_POINTS_PER_PERCENT}%`
}

/** The line /pay, the bank-transfer dialog and the gateway's checkout show under a total: "Includes GST of Rs. 457.47 (18%)". */
export function gstIncludedText(totalPaise: number, rateBasisPoints: number): string {
  return `Includes GST of Rs. ${formatRupees(gstContainedPaise(totalPaise, rateBasisPoints))} (${formatGstRate(rateBasisPoints)})`
}
