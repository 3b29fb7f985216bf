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
