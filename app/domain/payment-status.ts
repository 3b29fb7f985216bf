// The life of a payment: which status can become which, from which source, and when a manual claim
// is still open. Pure rules; app/server/payments/ applies them to the rows (docs/payments.md).

/**
 * The original store's promise (docs/product.md section 9): a manual payment claim the team has not confirmed within
 * this many days is dismissed. The job enforces it and every text that states it reads it.
 */
export const MANUAL_PAYMENT_EXPIRY_DAYS = 7
/** A rejected claim stays on the customer's /subscriptions, with its reason, for this long after it was made. */
export const REJECTED_CLAIM_SHOWN_DAYS = 30

export type PaymentMethod = 'GATEWAY' | 'MANUAL'
export type PaymentStatus =
  'CREATED' | 'PAID' | 'FAILED' | 'CANCELLED' | 'PENDING_VERIFICATION' | 'REJECTED' | 'EXPIRED'

/** Which path learnt that the payment is paid; recorded on the payment for the audit trail. */
export type PaidSource = 'checkout' | 'reverify' | 'callback' | 'webhook' | 'reconciliation' | 'admin'

/**
 * What moves a payment on: a source that found it paid, a failure the checkout or a webhook
 * reported, the customer closing the checkout, the reconciliation job giving an order up, the admin
 * rejecting a claim, or the job expiring one.
 */
export type PaymentEvent =
  | { type: 'paid'; source: PaidSource }
  | { type: 'failed' }
  | { type: 'closed' }
  | { type: 'abandoned' }
  | { type: 'rejected' }
  | { type: 'expired' }
  | { type: 'account-closed' }

export const GATEWAY_PAID_SOURCES: readonly PaidSource[] = [
  'checkout',
  'reverify',
  'callback',
  'webhook',
  'reconciliation',
]

/**
 * A gateway order that got no captured payment is given up after this long: Razorpay keeps
 * polling the bank for late authorisation for 3 days (some pages say 5), so we wait 5.
 */
export const GATEWAY_LATE_AUTHORISATION_WINDOW_MS = 5 * 24 * 60 * 60_000

type Transition = {
  method: PaymentMethod
  from: readonly PaymentStatus[]
  event: PaymentEvent['type']
  to: PaymentStatus
}

/**
 * Every change of status there is. Gateway payments in CREATED, FAILED and CANCELLED can become
 * PAID: FAILED is not final (late authorisation), and CANCELLED only means the customer closed the
 * checkout, so a capture that still arrives was money taken and must be honoured. A manual claim is
 * decided once, while it is pending: PAID, REJECTED, EXPIRED and CANCELLED are final. Closing the
 * account cancels both kinds (docs/payments.md, "Closing an account and late money").
 */
export const PAYMENT_TRANSITIONS: readonly Transition[] = [
  { method: 'GATEWAY', from: ['CREATED', 'FAILED', 'CANCELLED'], event: 'paid', to: 'PAID' },
  { method: 'GATEWAY', from: ['CREATED'], event: 'failed', to: 'FAILED' },
  // Closing the checkout after a failed attempt keeps FAILED: the failure is what happened.
  { method: 'GATEWAY', from: ['CREATED'], event: 'closed', to: 'CANCELLED' },
  { method: 'GATEWAY', from: ['CREATED'], event: 'abandoned', to: 'CANCELLED' },
  { method: 'MANUAL', from: ['PENDING_VERIFICATION'], event: 'paid', to: 'PAID' },
  { method: 'MANUAL', from: ['PENDING_VERIFICATION'], event: 'rejected', to: 'REJECTED' },
  { method: 'MANUAL', from: ['PENDING_VERIFICATION'], event: 'expired', to: 'EXPIRED' },
  // Closing the account: an open order is cancelled (a capture that still arrives is refunded in
  // full, closedAccountCapture), an open claim is cancelled for good.
  { method: 'GATEWAY', from: ['CREATED'], event: 'account-closed', to: 'CANCELLED' },
  { method: 'MANUAL', from: ['PENDING_VERIFICATION'], event: 'account-closed', to: 'CANCELLED' },
]

/** The statuses a payment of this method can be in for `event` to apply (the `WHERE status IN` of the update). */
export function statusesFor(method: PaymentMethod, event: PaymentEvent['type']): PaymentStatus[] {
  return PAYMENT_TRANSITIONS.filter((rule) => rule.method === method && rule.event === event).flatMap((rule) => [
    ...rule.from,
  ])
}

/** Only the gateway's own word pays a gateway payment; only the team pays a bank transfer claim. */
export function canSourcePay(method: PaymentMethod, source: PaidSource): boolean {
  return method === 'GATEWAY' ? GATEWAY_PAID_SOURCES.includes(source) : source === 'admin'
}

/** A manual claim the team can still decide: pending and inside its days (even before the expiry job has run). */
export function isOpenManualClaim(
  payment: { method: PaymentMethod; status: PaymentStatus; expiresAt: Date | null },
  now: Date,
): boolean {
  return (
    payment.method === 'MANUAL' &&
    payment.status === 'PENDING_VERIFICATION' &&
    payment.expiresAt !== null &&
    payment.expiresAt > now
  )
}

/** The same rule as a database condition, for the queries that count, change or list open claims. */
export const openManualClaimWhere = (now: Date) =>
  ({ method: 'MANUAL', status: 'PENDING_VERIFICATION', expiresAt: { gt: now } }) as const

/** Claims still pending whose days are over: the expiry job's work. */
export const overdueManualClaimWhere = (now: Date) =>
  ({ method: 'MANUAL', status: 'PENDING_VERIFICATION', expiresAt: { lte: now } }) as const

/** Why a payment cannot be paid now, or null when it can (the checks markPaymentPaid makes under the row lock). */
export type PayRefusal = 'final' | 'expired' | 'wrong-source' | 'missing-gateway-payment-id' | 'account-closed'

/**
 * What a payment of a closed account becomes when a source would pay it: the team cannot confirm a
 * bank transfer claim ('refuse'); money the gateway took is honoured by giving all of it back, with
 * no subscription ('refund-in-full').
 */
export function closedAccountPayment(method: PaymentMethod): 'refuse' | 'refund-in-full' {
  return method === 'MANUAL' ? 'refuse' : 'refund-in-full'
}

export function payRefusal(
  payment: { method: PaymentMethod; status: PaymentStatus; expiresAt: Date | null },
  {
    source,
    paidAt,
    gatewayPaymentId,
    accountClosed = false,
  }: { source: PaidSource; paidAt: Date; gatewayPaymentId?: string; accountClosed?: boolean },
): PayRefusal | null {
  if (!canSourcePay(payment.method, source)) return 'wrong-source'
  if (accountClosed && closedAccountPayment(payment.method) === 'refuse') return 'account-closed'
  if (!statusesFor(payment.method, 'paid').includes(payment.status)) return 'final'
  if (payment.method === 'GATEWAY') return gatewayPaymentId ? null : 'missing-gateway-payment-id'
  // Past its days a claim is expired even before the settle-payments job has marked it so.
  return isOpenManualClaim(payment, paidAt) ? null : 'expired'
}

/**
 * "Pending for verification" as the customer sees it: manual claims the team can still decide, and
 * gateway orders still open inside the late-authorisation window (the gateway may still report them
 * paid). FAILED and CANCELLED are not shown: the customer saw the failure or closed the checkout.
 */
export function isPendingForCustomer(
  payment: { method: PaymentMethod; status: PaymentStatus; expiresAt: Date | null; createdAt: Date },
  now: Date,
): boolean {
  if (payment.method === 'MANUAL') return isOpenManualClaim(payment, now)
  return (
    payment.status === 'CREATED' && now.getTime() - payment.createdAt.getTime() < GATEWAY_LATE_AUTHORISATION_WINDOW_MS
  )
}
