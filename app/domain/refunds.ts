import { z } from 'zod'
import { formatIndiaDate, MS_PER_DAY } from './dates'
import { UtrSchema } from './bank-reference'
import { readCartSnapshot } from './cart'
import { formatRupees } from './money'
import { REFUND_PAYMENT_DAYS, refundRouteText } from './refund-times'

// What ending a subscription gives back (docs/payments.md, "Refunds"). Pure: the server module
// (app/server/payments/refunds/) reads the rows and writes the refund.

/** Why a refund was made; stored on the refund row. */
export type RefundReason =
  | 'CUSTOMER_ENDED'
  | 'ADMIN_ENDED'
  | 'SERVICES_STOPPED'
  | 'ADVANCE_LIMIT'
  | 'ACCOUNT_CLOSED'
  | 'MANDATE_CHARGE_REFUSED'
  | 'GATEWAY_METHOD_REFUSED'

/** The period a subscription row covers and what its cart line cost. */
export type RefundablePeriod = {
  startsAt: Date
  endsAt: Date
  /** The cart line's price (GST included) of the payment that bought it; null for a granted subscription. */
  feePaise: number | null
  /** The days the cart line bought (its durationDays). */
  daysBought: number
  /** What was already refunded of this subscription (an advance-limit excess), never refunded twice. */
  alreadyRefundedPaise?: number
}

/**
 * The whole days of a period still to come at `now`: floor((endsAt - max(now, startsAt)) / 24 h),
 * never below 0. A period not yet started has all its days unexpired; a part of a day left is not
 * counted (the last day is not refunded, the first day is: ending one second after buying a
 * 30-day period leaves 29 whole days).
 */
export function wholeUnexpiredDays(
  { startsAt, endsAt }: Pick<RefundablePeriod, 'startsAt' | 'endsAt'>,
  now: Date,
): number {
  const from = Math.max(now.getTime(), startsAt.getTime())
  return Math.max(0, Math.floor((endsAt.getTime() - from) / MS_PER_DAY))
}

/**
 * The refund for ending a period at `now`: fee x whole unexpired days / days bought, rounded down
 * to the paisa; the fee in full for a period not yet started, 0 for one that has ended or was
 * granted without payment. Never more than what is left of the fee after earlier refunds.
 */
export function endingRefundPaise(period: RefundablePeriod, now: Date): number {
  if (period.feePaise === null) return 0
  if (!Number.isInteger(period.daysBought) || period.daysBought <= 0)
    throw new RangeError(`daysBought must be a positive whole number, got ${period.daysBought}`)
  const unexpired = Math.min(wholeUnexpiredDays(period, now), period.daysBought)
  const proportionate = Math.floor((period.feePaise * unexpired) / period.daysBought)
  const left = period.feePaise - (period.alreadyRefundedPaise ?? 0)
  return Math.max(0, Math.min(proportionate, left))
}

/** The refund for the `excessDays` of a period bought beyond the one-year advance limit. */
export function excessRefundPaise(
  { feePaise, daysBought }: { feePaise: number; daysBought: number },
  excessDays: number,
): number {
  if (!Number.isInteger(excessDays) || excessDays < 0)
    throw new RangeError(`excessDays must be a whole number, got ${excessDays}`)
  return Math.floor((feePaise * Math.min(excessDays, daysBought)) / daysBought)
}

/** How a refund reaches the customer: back to the card/UPI on the gateway, or by bank transfer. */
export type RefundRoute = 'GATEWAY' | 'BANK_TRANSFER'

const IFSC_MESSAGE = 'Enter the IFSC as printed on your cheque book: 11 characters, like SBIN0001234.'
const ACCOUNT_NUMBER_MESSAGE = 'Enter the account number: 9 to 18 digits.'
const ACCOUNT_NAME_MESSAGE = 'Enter the account holder name as the bank has it.'

/** The account a bank-transfer refund is paid to. */
export const RefundBankAccountSchema = z.object({
  accountName: z
    .string({ error: ACCOUNT_NAME_MESSAGE })
    .trim()
    .min(2, ACCOUNT_NAME_MESSAGE)
    .max(100, ACCOUNT_NAME_MESSAGE),
  accountNumber: z
    .string({ error: ACCOUNT_NUMBER_MESSAGE })
    .transform((value) => value.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{9,18}$/, ACCOUNT_NUMBER_MESSAGE)),
  ifsc: z
    .string({ error: IFSC_MESSAGE })
    .transform((value) => value.replace(/\s+/g, '').toUpperCase())
    .pipe(z.string().regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, IFSC_MESSAGE)),
})
export type RefundBankAccount = z.infer<typeof RefundBankAccountSchema>

/** /subscriptions/:serviceId/end without a bank transfer to pay. */
export const EndSubscriptionFormSchema = z.object({ intent: z.literal('end') })

/** /subscriptions/:serviceId/end when part of the refund is a bank transfer. */
export const EndSubscriptionWithAccountFormSchema = RefundBankAccountSchema.extend({ intent: z.literal('end') })

/** The box the customer ticks: the bank transfer's refund goes back to the account it came from. */
export const PAYING_ACCOUNT_FIELD = 'payingAccount'
const PAYING_ACCOUNT_MESSAGE = 'Confirm the account your transfer came from: the refund is paid back to it.'
export const PayingAccountConfirmationSchema = z.object({
  [PAYING_ACCOUNT_FIELD]: z.literal('confirmed', { error: PAYING_ACCOUNT_MESSAGE }),
})

/**
 * The end page's form for what the refund needs: the paying account confirmed (a transfer whose
 * confirmation recorded it), an account typed (one confirmed before that was recorded), both, or neither.
 */
export function endSubscriptionFormSchema({
  payingAccount,
  typedAccount,
}: {
  payingAccount: boolean
  typedAccount: boolean
}) {
  const base = typedAccount ? EndSubscriptionWithAccountFormSchema : EndSubscriptionFormSchema
  return payingAccount ? base.extend(PayingAccountConfirmationSchema.shape) : base
}

/** The admin ends a customer's subscription: a reason is required (it goes to the audit log). */
export const AdminEndSubscriptionFormSchema = z.object({
  intent: z.literal('end-subscription'),
  serviceId: z.string({ error: 'Choose a subscription' }).uuid('Choose a subscription'),
  reason: z.string({ error: 'Give a reason' }).trim().min(3, 'Give a reason').max(500, 'At most 500 characters'),
})

/** The admin marks a bank-transfer refund paid. */
export const MarkRefundPaidFormSchema = z.object({
  intent: z.literal('mark-paid'),
  refundId: z.string({ error: 'Choose a refund' }).uuid('Choose a refund'),
  bankReference: z.string({ error: 'Enter the bank reference (UTR) of the transfer.' }).trim().pipe(UtrSchema),
})

/** "Stop all services": the effective date (India calendar) and why. */
export const StopAllServicesFormSchema = z.object({
  effectiveFrom: z.string({ error: 'Choose the date' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose the date'),
  reason: z.string({ error: 'Give a reason' }).trim().min(3, 'Give a reason').max(500, 'At most 500 characters'),
})

/** The flash after ending: what ended and how much comes back, and how. */
export function subscriptionEndedFlash(ended: {
  serviceName: string
  refunds: { amountPaise: number; status: 'DUE' | 'PENDING' }[]
}): { tone: 'success'; message: string; details?: string[] } {
  const total = ended.refunds.reduce((sum, refund) => sum + refund.amountPaise, 0)
  if (total === 0)
    return { tone: 'success', message: `Your subscription to ${ended.serviceName} has ended. No refund is due.` }
  const details = ended.refunds.map(
    (refund) => `Rs. ${formatRupees(refund.amountPaise)} ${refundRouteText(refund.status !== 'PENDING')}`,
  )
  return {
    tone: 'success',
    message: `Your subscription to ${ended.serviceName} has ended. We are refunding Rs. ${formatRupees(total)}.`,
    details,
  }
}

/** A refund row's status (prisma's RefundStatus): DUE a bank transfer to make, PENDING asked of the gateway. */
export type RefundStatus = 'DUE' | 'PENDING' | 'PROCESSED' | 'FAILED'

/** What the customer is told of one refund: requested, paid on a date, or failed and being retried. */
export type RefundState = {
  state: 'REQUESTED' | 'PAID' | 'RETRYING'
  /** The state in words: "Requested on 01-12-2026", "Paid on 03-12-2026", "Failed, being retried". */
  label: string
  /** What happens next and by when, in the refund policy's words (REFUND_PAYMENT_DAYS and the gateway's days). */
  next: string
}

/** The date a refund requested at `requestedAt` is paid by at the latest: REFUND_PAYMENT_DAYS later. */
export function refundDueBy(requestedAt: Date): Date {
  return new Date(requestedAt.getTime() + REFUND_PAYMENT_DAYS * MS_PER_DAY)
}

/**
 * A refund's state for /subscriptions and "Your data". A gateway refund with an error is being
 * retried: by the job while PENDING, by the team once FAILED; either way the outer promise holds.
 */
export function refundState(refund: {
  status: RefundStatus
  createdAt: Date
  processedAt: Date | null
  lastError: string | null
  /** A bank transfer (status DUE, or paid with a bank reference) rather than a gateway refund. */
  byBankTransfer: boolean
}): RefundState {
  if (refund.status === 'PROCESSED')
    return {
      state: 'PAID',
      label: `Paid on ${formatIndiaDate(refund.processedAt ?? refund.createdAt)}`,
      next: refund.byBankTransfer
        ? 'Sent by bank transfer to the account you gave.'
        : 'Sent back to the card or UPI account you paid with; your bank shows it once it credits it.',
    }
  const dueBy = formatIndiaDate(refundDueBy(refund.createdAt))
  if (refund.status === 'FAILED' || (refund.status === 'PENDING' && refund.lastError !== null))
    return {
      state: 'RETRYING',
      label: 'Failed, being retried',
      next: `The payment gateway did not take the refund, so we are trying again. We still pay the refund within ${REFUND_PAYMENT_DAYS} days, by ${dueBy}.`,
    }
  return {
    state: 'REQUESTED',
    label: `Requested on ${formatIndiaDate(refund.createdAt)}`,
    next: refund.byBankTransfer
      ? `We pay it ${refundRouteText(true)}: by ${dueBy}.`
      : `It goes ${refundRouteText(false)}.`,
  }
}

/** What a refund is for: its subscription's service, or for a whole-payment refund every service its payment bought. */
export function refundedServiceName(refund: {
  subscription: { service: { name: string } } | null
  payment: { cart: unknown }
}): string {
  return (
    refund.subscription?.service.name ??
    readCartSnapshot(refund.payment.cart)
      .map((item) => item.name)
      .join(', ')
  )
}
