import { formatIndiaDate } from './dates'
import { formatRupees } from './money'

// Automatic renewal by a Razorpay Subscriptions mandate (UPI AutoPay, card or e-mandate): the pure
// rules (docs/payments.md, "Renewals and mandates"). The server side is
// app/server/payments/mandates.server.ts.

const MS_PER_HOUR = 3_600_000

/** Razorpay's daily plans take an interval of at least 7 days: shorter services cannot renew automatically. */
export const MANDATE_MIN_PERIOD_DAYS = 7
/**
 * The first charge is at the current end, but never sooner than this after the mandate is turned
 * on: RBI's e-mandate rules want a pre-debit notice at least 24 hours before each charge, and the
 * notice job (every 15 minutes) needs time to send it.
 */
export const MANDATE_FIRST_CHARGE_LEAD_HOURS = 48
/** RBI's minimum between the pre-debit notice and the charge. */
export const PRE_DEBIT_NOTICE_MIN_HOURS = 24
/** The notice job sends the notice of a charge due within this many hours (so at least 47 h before, with the lead above). */
export const PRE_DEBIT_NOTICE_WINDOW_HOURS = 72
/** About ten years of charges, at most Razorpay's usual cap of 100: the customer stops it when they like. */
export function mandateTotalCount(periodDays: number): number {
  return Math.max(1, Math.min(100, Math.floor(3650 / periodDays)))
}

/** When the first charge is taken: the current paid-up end, or the lead after now if that is sooner. */
export function firstChargeAt(paidUpTo: Date, now: Date): Date {
  const earliest = now.getTime() + MANDATE_FIRST_CHARGE_LEAD_HOURS * MS_PER_HOUR
  return new Date(Math.max(paidUpTo.getTime(), earliest))
}

export type MandateTerms = {
  serviceName: string
  amountPaise: number
  periodDays: number
  maxAmountPaise: number
  firstChargeAt: Date
}

/** "every 30 days" */
export function frequencyText(periodDays: number): string {
  return periodDays === 1 ? 'every day' : `every ${periodDays} days`
}

/**
 * The separate consent the customer gives to turn automatic renewal on: amount, frequency, the most
 * one charge can take, when the first is taken, the notice before each, and how to stop it. Its
 * SHA-256 is recorded as an acceptance (kind AUTOPAY_MANDATE).
 */
export function mandateConsentText(terms: MandateTerms): string {
  return [
    `I authorise the automatic renewal of ${terms.serviceName} through Razorpay (UPI AutoPay, card or e-mandate).`,
    `Amount: Rs. ${formatRupees(terms.amountPaise)} (GST included), charged ${frequencyText(terms.periodDays)}, each charge paying the next ${terms.periodDays} days from the end of the period already paid.`,
    `The most any one charge can take is Rs. ${formatRupees(terms.maxAmountPaise)}.`,
    `The first charge is on or after ${formatIndiaDate(terms.firstChargeAt)}. Each charge is announced by e-mail at least ${PRE_DEBIT_NOTICE_MIN_HOURS} hours before.`,
    "A charge is not applied, and is refunded in full, when it would break SEBI's one-year advance limit or the family fee cap; automatic renewal then stops.",
    'I can stop automatic renewal at any time on the Subscriptions page ("Stop automatic renewal"): nothing more is charged and the period already paid runs to its end.',
  ].join('\n')
}

/** The acceptance's version: the consent's kind and the first 12 hex digits of its text's hash. */
export function mandateConsentVersion(textSha256: string): string {
  return `autopay-${textSha256.slice(0, 12)}`
}

/** True while the pre-debit notice of a charge at `chargeAt` is due at `now`. */
export function preDebitNoticeDue(chargeAt: Date, now: Date): boolean {
  return chargeAt.getTime() - now.getTime() <= PRE_DEBIT_NOTICE_WINDOW_HOURS * MS_PER_HOUR
}
