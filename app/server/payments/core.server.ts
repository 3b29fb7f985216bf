import { cartTotalPaise, readCartSnapshot, type CartItem } from '~/domain/cart'
import { formatIndiaDate } from '~/domain/dates'
import { isGatewayMethodAllowed } from '~/domain/gateway-checkout'
import { formatRupees } from '~/domain/money'
import {
  isPendingForCustomer,
  payRefusal,
  type PaidSource,
  type PaymentMethod,
  type PaymentStatus,
  type PayRefusal,
} from '~/domain/payment-status'
import type { Prisma } from '~/generated/prisma/client'
import { cached, forget, invalidate } from '../cache.server'
import { pricedCart } from './cart.server'
import { prisma } from '../db.server'
import {
  notifyAdvanceExcessRefund,
  notifyClosedAccountRefund,
  notifyGatewayMethodRefund,
  notifyMandateChargeRefunded,
  notifyPaymentConfirmed,
} from '../messaging/customer-notices.server'
import { loggerFor } from '../operations/logger.server'
import { metrics } from '../operations/metrics.server'
import { createPaidSubscriptions, subscriptionsCacheKey } from './subscriptions.server'
import { recordPaymentInLedger } from './ledger.server'
import { afterExcessRefund, refundAdvanceExcess, type AdvanceExcessRefund } from './refunds/advance-excess.server'
import { lockFamilyPurchases } from './purchase-lock.server'
import { cancelAtGateway, cancelMandateInTransaction, mandateChargeRefusal } from './mandate-charges.server'
import {
  afterWholePaymentRefund,
  refundWholePayment,
  type WholePaymentRefund,
  type WholePaymentRefundCause,
} from './refunds/whole-payment.server'
import type { GatewayPayment } from './gateway/razorpay.server'

// The core of payments: the one path to "paid", the customer's pending list, and what every kind
// of payment shares (the priced cart, the refusals). Gateway payments, webhooks, reconciliation
// and manual claims are the modules beside this one; the state rules are app/domain/payment-status.ts.

const log = loggerFor('payments')

export const CURRENCY = 'INR'
/** Stored failure and rejection texts come from the browser, the gateway or the admin: keep them short. */
export const FAILURE_REASON_MAX_LENGTH = 500

/** Interactive transactions wait this long for the payment row lock held by a racing path. */
const MARK_PAID_TRANSACTION_TIMEOUT_MS = 15_000

/**
 * Razorpay gives a webhook 5 s to be answered. A webhook that cannot have the payment row (or a
 * connection) within this time gives up and is answered 500; Razorpay's retry finds it paid or pays it.
 */
export const WEBHOOK_PAY_WAIT_MS = 3_000

export { PaymentError, type PaymentErrorCode } from './payment-error.server'
import { PaymentError } from './payment-error.server'

/**
 * What a page tells the customer when paying was refused: a PaymentError's own message and status.
 * Anything else is logged here and gives null: the page says its own "something went wrong" with 500.
 * The JSON API's counterpart is paymentErrorResponse.
 */
export function paymentRefusal(error: unknown): { message: string; status: number } | null {
  if (error instanceof PaymentError) return { message: error.message, status: error.status }
  log.error({ err: error }, 'A payment failed unexpectedly')
  return null
}

/** markPaymentPaid's refusal: the payment is not one this source may pay now. */
export class PaymentStateError extends Error {
  override name = 'PaymentStateError'
  constructor(
    message: string,
    readonly reason: 'not-found' | PayRefusal,
    /** For 'account-closed': when the customer closed the account. */
    readonly closedAt: Date | null = null,
  ) {
    super(message)
  }
}

export const pendingPaymentsCacheKey = (userId: string) => `pending-payments:${userId}`

/** Every write to a user's payments or subscriptions calls this after it commits. */
export function invalidateUserPayments(userId: string): Promise<void> {
  return invalidateUsersPayments([userId])
}

/** invalidateUserPayments for the users a batch wrote to: one announcement to the other instances. */
export async function invalidateUsersPayments(userIds: Iterable<string>): Promise<void> {
  const keys = [...new Set(userIds)].flatMap((userId) => [
    subscriptionsCacheKey(userId),
    pendingPaymentsCacheKey(userId),
  ])
  if (keys.length) await invalidate(...keys)
}

/**
 * Prices the cart from current prices; refuses an empty cart or one holding services no longer on
 * sale. The client states the total it showed (`expectedAmountPaise`): when that is not the
 * server's total the claim or order is refused, so the customer never pays an amount they were
 * not shown. Undefined only where no total was shown (an old form or client that sends none).
 */
export async function checkoutCart(
  cartIds: readonly string[],
  expectedAmountPaise: number | undefined,
): Promise<{ items: CartItem[]; amountPaise: number }> {
  const { items, droppedIds, droppedNames } = await pricedCart(cartIds)
  if (droppedIds.length > 0) {
    const which = droppedNames.length ? `: ${droppedNames.join(', ')}` : ''
    throw new PaymentError(
      'services-unavailable',
      `Some services in your cart are no longer available${which}. They have been removed from your cart; please review it and try again.`,
      409,
      droppedIds,
    )
  }
  if (items.length === 0) throw new PaymentError('empty-cart', 'Your cart is empty. Choose at least one service.', 400)
  const amountPaise = cartTotalPaise(items)
  if (expectedAmountPaise !== undefined && expectedAmountPaise !== amountPaise) {
    throw new PaymentError(
      'amount-mismatch',
      `The prices in your cart have changed: the total is now Rs. ${formatRupees(amountPaise)}. Please review your cart and try again.`,
      409,
      [],
      amountPaise,
    )
  }
  return { items, amountPaise }
}

export type MarkPaidResult = { alreadyPaid: boolean; paymentId: string; userId: string }

/** A mandate's charge markPaymentPaid refunded instead of applying (mandateChargeRefusal). */
type RefusedCharge = { why: string; gatewaySubscriptionId: string | null }

type LockedPayment = {
  id: string
  user_id: string
  method: PaymentMethod
  status: PaymentStatus
  amount_paise: number
  cart: unknown
  expires_at: Date | null
  mandate_id: string | null
}

/** What the transaction that paid a payment made, for a caller's own writes in that transaction (the audit log). */
export type PaidPayment = { paymentId: string; userId: string; status: PaymentStatus; subscriptionIds: string[] }

function refusalMessage(
  refusal: PayRefusal,
  payment: LockedPayment & { closedAt?: Date | null },
  source: PaidSource,
): string {
  const kind = payment.method === 'GATEWAY' ? 'Gateway payment' : 'Manual payment'
  switch (refusal) {
    case 'wrong-source':
      return payment.method === 'GATEWAY'
        ? `Gateway payment ${payment.id} is confirmed by the gateway, not by ${source}`
        : `Manual payment ${payment.id} is confirmed only by an admin`
    case 'final':
      return `${kind} ${payment.id} is ${payment.status} and cannot be paid`
    case 'missing-gateway-payment-id':
      return `Gateway payment ${payment.id} needs the gateway payment id`
    case 'expired':
      return `Manual payment ${payment.id} expired and cannot be paid`
    case 'account-closed':
      return `${kind} ${payment.id} belongs to an account closed on ${payment.closedAt ? formatIndiaDate(payment.closedAt) : 'an earlier day'}`
  }
}

/**
 * THE one path from a payment to subscriptions. Checkout verify, re-verify, the hosted-checkout
 * callback, webhooks, the reconciliation job and the admin console all call this. In one
 * transaction it locks the payment row, marks it PAID, creates one subscription per cart item and
 * writes the ledger row with its invoice number, so whatever order or concurrency those paths run
 * in, a payment pays (and is invoiced) exactly once. It takes the customer's purchase lock first
 * (the one purchases and closing the account take), so a payment and a closing are one after the
 * other: a gateway capture for a closed account is paid and refunded in full, with no subscription;
 * the team's confirmation of a closed account's claim is refused (closedAccountPayment). A gateway
 * capture by a method the store does not take (`gatewayMethod`, isGatewayMethodAllowed) is paid
 * and refunded in full the same way, whichever path reports it first.
 */
export async function markPaymentPaid(
  paymentId: string,
  {
    gatewayPaymentId,
    gatewayMethod = null,
    paidAt,
    source,
    beforePaid,
    onPaid,
  }: {
    gatewayPaymentId?: string
    /** How the customer paid at the gateway, as the gateway reports it (card, upi, wallet, ...). */
    gatewayMethod?: string | null
    paidAt: Date
    source: PaidSource
    /** Runs inside the paying transaction before anything is written; throwing refuses the payment (the admin's limit check). */
    beforePaid?: (tx: Prisma.TransactionClient, payment: { userId: string; items: CartItem[] }) => Promise<void>
    /** Runs inside the paying transaction, only when this call is the one that paid. */
    onPaid?: (tx: Prisma.TransactionClient, paid: PaidPayment) => Promise<void>
  },
): Promise<MarkPaidResult> {
  const waitMs = source === 'webhook' ? WEBHOOK_PAY_WAIT_MS : MARK_PAID_TRANSACTION_TIMEOUT_MS
  const result = await prisma.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT set_config('lock_timeout', ${`${waitMs}ms`}, true)`
      // The owner never changes: read without a lock, to take the owner's purchase lock before the row's.
      const [owner] = await tx.$queryRaw<{ user_id: string }[]>`
        SELECT user_id::text FROM payments WHERE id = ${paymentId}::uuid`
      if (!owner) throw new PaymentStateError(`Payment ${paymentId} does not exist`, 'not-found')
      const familyIds = await lockFamilyPurchases(tx, owner.user_id)
      const [payment] = await tx.$queryRaw<LockedPayment[]>`
        SELECT id::text, user_id::text, method, status, amount_paise, cart, expires_at, mandate_id::text
          FROM payments WHERE id = ${paymentId}::uuid FOR UPDATE`
      if (!payment) throw new PaymentStateError(`Payment ${paymentId} does not exist`, 'not-found')
      const noRefunds = {
        excessRefunds: [] as AdvanceExcessRefund[],
        wholeRefund: null as WholePaymentRefund | null,
        refundCause: null as WholePaymentRefundCause | null,
        refusedCharge: null as RefusedCharge | null,
      }
      if (payment.status === 'PAID') return { alreadyPaid: true, paymentId, userId: payment.user_id, ...noRefunds }
      const owned = await tx.user.findUnique({ where: { id: payment.user_id }, select: { closedAt: true } })
      const closedAt = owned?.closedAt ?? null
      const refusal = payRefusal(
        { method: payment.method, status: payment.status, expiresAt: payment.expires_at },
        { source, paidAt, gatewayPaymentId, accountClosed: closedAt !== null },
      )
      if (refusal)
        throw new PaymentStateError(refusalMessage(refusal, { ...payment, closedAt }, source), refusal, closedAt)
      // A mandate's charge: applied only if the mandate still runs and the purchase limits allow it.
      const chargeRefusal =
        payment.mandate_id && !closedAt
          ? await mandateChargeRefusal(tx, {
              paymentId,
              mandateId: payment.mandate_id,
              userId: payment.user_id,
              familyIds,
              amountPaise: payment.amount_paise,
              cart: payment.cart,
              paidAt,
            })
          : null
      // A checkout's capture by a method the store does not take (docs/payments.md, "Gateway payment methods").
      const refusedMethod =
        payment.method === 'GATEWAY' && !payment.mandate_id && !isGatewayMethodAllowed(gatewayMethod)
          ? gatewayMethod
          : null
      const refundCause: WholePaymentRefundCause | null = closedAt
        ? { kind: 'account-closed', closedAt }
        : chargeRefusal && payment.mandate_id
          ? { kind: 'mandate-charge-refused', mandateId: payment.mandate_id, why: chargeRefusal }
          : refusedMethod !== null
            ? { kind: 'gateway-method-refused', method: refusedMethod }
            : null
      if (refundCause) {
        // Money the gateway took for a closed account, a mandate charge that cannot be applied, or
        // a capture by a refused method: honoured (PAID, invoiced), no subscription, all refunded.
        await tx.payment.update({
          where: { id: paymentId },
          data: { status: 'PAID', paidAt, paidVia: source, ...(gatewayPaymentId ? { gatewayPaymentId } : {}) },
        })
        await recordPaymentInLedger(tx, {
          paymentId,
          userId: payment.user_id,
          amountPaise: payment.amount_paise,
          paidAt,
        })
        const wholeRefund = await refundWholePayment(tx, {
          paymentId,
          userId: payment.user_id,
          amountPaise: payment.amount_paise,
          because: refundCause,
          via: source,
          now: paidAt,
        })
        // The mandate stops here too (a closed account's as well): nothing more is to be charged.
        const gatewaySubscriptionId = payment.mandate_id
          ? await cancelMandateInTransaction(tx, payment.mandate_id, chargeRefusal ?? 'The account was closed', paidAt)
          : null
        const refusedCharge = chargeRefusal ? { why: chargeRefusal, gatewaySubscriptionId } : null
        return {
          alreadyPaid: false,
          paymentId,
          userId: payment.user_id,
          excessRefunds: [],
          wholeRefund,
          refundCause,
          refusedCharge,
        }
      }
      const items = readCartSnapshot(payment.cart)
      await beforePaid?.(tx, { userId: payment.user_id, items })

      await tx.payment.update({
        where: { id: paymentId },
        data: { status: 'PAID', paidAt, paidVia: source, ...(gatewayPaymentId ? { gatewayPaymentId } : {}) },
      })
      const subscriptionIds = await createPaidSubscriptions(tx, {
        userId: payment.user_id,
        paymentId,
        items,
        paidAt,
      })
      await recordPaymentInLedger(tx, { paymentId, userId: payment.user_id, amountPaise: payment.amount_paise, paidAt })
      const excessRefunds = await refundAdvanceExcess(tx, { subscriptionIds, paidAt })
      await onPaid?.(tx, { paymentId, userId: payment.user_id, status: payment.status, subscriptionIds })
      return {
        alreadyPaid: false,
        paymentId,
        userId: payment.user_id,
        excessRefunds,
        wholeRefund: null,
        refundCause: null,
        refusedCharge: null,
      }
    },
    { timeout: MARK_PAID_TRANSACTION_TIMEOUT_MS, maxWait: waitMs },
  )
  await invalidateUserPayments(result.userId)
  for (const refund of result.excessRefunds) {
    log.warn(
      { paymentId, refundId: refund.id, amountPaise: refund.amountPaise },
      `Payment ${paymentId}: ${refund.serviceName} was ${refund.excessDays} days beyond the advance limit; refund ${refund.id} of ${refund.amountPaise} paise`,
    )
    await afterExcessRefund(refund, result.userId)
    await notifyAdvanceExcessRefund(result.userId, refund).catch((error: unknown) =>
      log.error(
        { err: error, paymentId, refundId: refund.id },
        `The advance-limit refund e-mail for ${refund.id} was not queued`,
      ),
    )
  }
  if (result.wholeRefund && result.refundCause) {
    const refund = result.wholeRefund
    const cause = result.refundCause
    metrics.paymentsPaid.inc({ via: source })
    const why =
      cause.kind === 'account-closed'
        ? 'for a closed account'
        : cause.kind === 'gateway-method-refused'
          ? `by a refused method (${cause.method})`
          : 'as a mandate charge that cannot be applied'
    log.warn(
      { paymentId, refundId: refund.id, amountPaise: refund.amountPaise },
      `Payment ${paymentId} arrived via ${source} ${why}; refund ${refund.id} of all ${refund.amountPaise} paise`,
    )
    await afterWholePaymentRefund(refund)
    if (result.refusedCharge?.gatewaySubscriptionId) await cancelAtGateway(result.refusedCharge.gatewaySubscriptionId)
    const notice =
      cause.kind === 'gateway-method-refused'
        ? notifyGatewayMethodRefund(paymentId, refund, cause.method)
        : result.refusedCharge
          ? notifyMandateChargeRefunded(paymentId, refund, result.refusedCharge.why)
          : notifyClosedAccountRefund(paymentId, refund)
    await notice.catch((error: unknown) =>
      log.error({ err: error, paymentId, refundId: refund.id }, `The refund e-mail for ${refund.id} was not queued`),
    )
  } else if (!result.alreadyPaid) {
    metrics.paymentsPaid.inc({ via: source })
    log.info({ paymentId, via: source }, `Payment ${paymentId} paid via ${source}`)
    // Never fails the payment: it is paid; the e-mail is queued and retried on its own.
    await notifyPaymentConfirmed(paymentId).catch((error: unknown) =>
      log.error({ err: error, paymentId }, `The confirmation e-mail for ${paymentId} was not queued`),
    )
  }
  return { alreadyPaid: result.alreadyPaid, paymentId, userId: result.userId }
}

/** A refusal by markPaymentPaid (a final state) is logged, not retried forever. True when this call paid. */
export async function payOrLog(
  paymentId: string,
  captured: Pick<GatewayPayment, 'id' | 'method'>,
  paidAt: Date,
  source: PaidSource,
): Promise<boolean> {
  try {
    return !(
      await markPaymentPaid(paymentId, {
        gatewayPaymentId: captured.id,
        gatewayMethod: captured.method,
        paidAt,
        source,
      })
    ).alreadyPaid
  } catch (error) {
    if (!(error instanceof PaymentStateError)) throw error
    log.error({ paymentId, via: source }, `${source} could not pay ${paymentId}: ${error.message}`)
    return false
  }
}

export type PendingPayment = {
  id: string
  method: PaymentMethod
  amountPaise: number
  currency: string
  cart: CartItem[]
  createdAt: Date
  /** Manual: when the unconfirmed claim is dismissed. Gateway: null. */
  expiresAt: Date | null
  /** Manual: the bank transfer reference the customer gave, if any. */
  utr: string | null
}

/**
 * "Payment(s) Pending for Verification" (docs/product.md) (isPendingForCustomer): manual claims still awaiting
 * the team, and gateway orders still open inside the late-authorisation window. Cached per user;
 * `fresh` re-reads (a page reached from a payment always does).
 */
export async function pendingPayments(userId: string, now: Date, { fresh = false } = {}): Promise<PendingPayment[]> {
  if (fresh) forget(pendingPaymentsCacheKey(userId))
  const all = await cached(pendingPaymentsCacheKey(userId), async () => {
    const rows = await prisma.payment.findMany({
      where: { userId, status: { in: ['PENDING_VERIFICATION', 'CREATED'] } },
      orderBy: { createdAt: 'desc' },
      select: {
        id: true,
        method: true,
        status: true,
        amountPaise: true,
        currency: true,
        cart: true,
        createdAt: true,
        expiresAt: true,
        utr: true,
      },
    })
    return rows.map(({ cart, ...row }) => ({ ...row, cart: readCartSnapshot(cart) }))
  })
  return all.filter((payment) => isPendingForCustomer(payment, now)).map(({ status: _status, ...payment }) => payment)
}
