import { getErrorMessage } from '~/domain/error-message'
import { readCartSnapshot, sameServices } from '~/domain/cart'
import { CheckoutAnswerSchema, type CheckoutAnswer } from '~/domain/checkout-request'
import { PAYMENT_START_FAILED_MESSAGE, PAYMENT_VERIFY_FAILED_MESSAGE } from '~/domain/gateway-checkout'
import { statusesFor, type PaidSource } from '~/domain/payment-status'
import { hasControlCharacter } from '~/domain/control-characters'
import { prisma } from '../db.server'
import { paymentGateway } from './gateway/choice.server'
import {
  GatewayError,
  isValidCheckoutSignature,
  type GatewayPayment,
  type PaymentGateway,
} from './gateway/razorpay.server'
import {
  checkoutCart,
  CURRENCY,
  FAILURE_REASON_MAX_LENGTH,
  invalidateUserPayments,
  markPaymentPaid,
  PaymentError,
  payOrLog,
} from './core.server'
import { assertPurchaseAllowed, lockFamilyPurchases } from './purchase-limits.server'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('payments')

// Gateway payments: starting one (the order), the checkout's answer (verify, re-verify, the
// hosted checkout's callback), and what the checkout reports without paying (failed, closed).

/** An open order for the same cart is reused for this long (shorter than RECONCILE_AFTER_MS). */
export const GATEWAY_ORDER_REUSE_MS = 10 * 60_000

export type GatewayDeps = { gateway?: PaymentGateway; now?: Date }

/** What our payment row asked the gateway for. */
export type OrderTerms = { gatewayOrderId: string | null; amountPaise: number; currency: string }

/** The gateway's word on a payment must match what we asked for: our order, our amount, INR. */
export function matchesOrder(gatewayPayment: GatewayPayment, payment: OrderTerms): boolean {
  return (
    gatewayPayment.orderId === payment.gatewayOrderId &&
    gatewayPayment.amountPaise === payment.amountPaise &&
    gatewayPayment.currency === payment.currency
  )
}

/** Among an order's payment attempts at the gateway, the captured one that pays it. */
export function capturedAttempt(attempts: GatewayPayment[], payment: OrderTerms): GatewayPayment | undefined {
  return attempts.find((candidate) => candidate.status === 'captured' && matchesOrder(candidate, payment))
}

/**
 * Asks the gateway about one of our orders and pays it when a payment for it was captured (the
 * reconciliation job and /subscriptions' check both do this). Returns the attempts the gateway
 * reported, whether one was captured, and whether this call paid the order (a refusal is logged).
 */
export async function payIfCaptured(
  gateway: PaymentGateway,
  payment: OrderTerms & { id: string; gatewayOrderId: string },
  now: Date,
): Promise<{ attempts: GatewayPayment[]; captured: boolean; paid: boolean }> {
  const attempts = await gateway.fetchOrderPayments(payment.gatewayOrderId)
  const captured = capturedAttempt(attempts, payment)
  if (!captured) return { attempts, captured: false, paid: false }
  return { attempts, captured: true, paid: await payOrLog(payment.id, captured, now, 'reconciliation') }
}

export type StartedGatewayPayment = {
  paymentId: string
  orderId: string
  amountPaise: number
  currency: string
  keyId: string
}

/**
 * Prices the cart on the server, checks the purchase's limits (assertPurchaseAllowed), records a
 * CREATED payment and opens a gateway order for it. The order's receipt and notes carry only our payment id. If the gateway fails, the payment row is
 * removed again, so nothing half-made remains, and a PaymentError says to try again.
 */
export async function startGatewayPayment(
  userId: string,
  cartIds: readonly string[],
  deps: GatewayDeps & { expectedAmountPaise?: number } = {},
): Promise<StartedGatewayPayment> {
  const gateway = deps.gateway ?? paymentGateway()
  const { items, amountPaise } = await checkoutCart(cartIds, deps.expectedAmountPaise)
  const now = deps.now ?? new Date()
  // The check and the new row are one transaction under the family's purchase locks, so two tabs (or
  // two family members) cannot each pass the check (assertPurchaseAllowed) and each open an order.
  const outcome = await prisma.$transaction(async (tx) => {
    await lockFamilyPurchases(tx, userId)
    // A second click on "Pay on Website" for the same cart reopens the same order (Razorpay accepts
    // further attempts on an order until one is captured) instead of leaving another one open.
    const open = await tx.payment.findMany({
      where: {
        userId,
        method: 'GATEWAY',
        status: 'CREATED',
        amountPaise,
        gatewayOrderId: { not: null },
        createdAt: { gt: new Date(now.getTime() - GATEWAY_ORDER_REUSE_MS) },
      },
      orderBy: { createdAt: 'desc' },
      select: { id: true, gatewayOrderId: true, cart: true, amountPaise: true, currency: true },
    })
    const reusable = open.find((candidate) =>
      sameServices(
        readCartSnapshot(candidate.cart).map((item) => item.serviceId),
        items.map((item) => item.serviceId),
      ),
    )
    // The order reopened is not counted twice: it is what this purchase is.
    await assertPurchaseAllowed(tx, { userId, items, now, excludePaymentId: reusable?.id })
    if (reusable) return { reused: true as const, payment: reusable }
    const created = await tx.payment.create({
      data: {
        userId,
        method: 'GATEWAY',
        status: 'CREATED',
        amountPaise,
        currency: CURRENCY,
        cart: items,
        createdAt: now,
      },
      select: { id: true },
    })
    return { reused: false as const, payment: created }
  })
  if (outcome.reused) {
    const reusable = outcome.payment
    if (await paidMeanwhile(reusable, gateway, now)) throw new PaymentError('already-paid', ALREADY_PAID_MESSAGE, 409)
    return {
      paymentId: reusable.id,
      orderId: reusable.gatewayOrderId!,
      amountPaise,
      currency: CURRENCY,
      keyId: gateway.keyId,
    }
  }
  const { payment } = outcome
  let orderId: string
  try {
    const order = await gateway.createOrder({ amountPaise, receipt: payment.id, notes: { paymentId: payment.id } })
    if (order.amountPaise !== amountPaise || order.currency !== CURRENCY) {
      throw new GatewayError(
        `Gateway order ${order.id} is for ${order.amountPaise} ${order.currency}, expected ${amountPaise} ${CURRENCY}`,
        false,
      )
    }
    orderId = order.id
    await prisma.payment.update({ where: { id: payment.id }, data: { gatewayOrderId: orderId } })
  } catch (error) {
    await prisma.payment.delete({ where: { id: payment.id } }).catch(() => {})
    // A pending list read while the order was being created may hold the row just removed.
    await invalidateUserPayments(userId)
    const reason = getErrorMessage(error)
    // GatewayErrors were logged by the client already; log anything else here.
    if (!(error instanceof GatewayError)) log.error(`Could not start gateway payment: ${reason}`)
    throw new PaymentError('gateway-unavailable', PAYMENT_START_FAILED_MESSAGE, 503)
  }
  await invalidateUserPayments(userId)
  return { paymentId: payment.id, orderId, amountPaise, currency: CURRENCY, keyId: gateway.keyId }
}

export const ALREADY_PAID_MESSAGE = 'You have already paid for these services. They are under My Subscription(s).'

/**
 * An open order may be paid at the gateway before we hear of it (the browser closed before the
 * checkout's handler ran, the webhook still on its way). Reopening it would only show Razorpay's
 * "already paid" refusal, so a capture found now pays it here. If the gateway cannot be asked, the
 * order is reopened all the same: Razorpay refuses a second payment on a paid order.
 */
async function paidMeanwhile(
  payment: OrderTerms & { id: string },
  gateway: PaymentGateway,
  now: Date,
): Promise<boolean> {
  let attempts: GatewayPayment[]
  try {
    attempts = await gateway.fetchOrderPayments(payment.gatewayOrderId!)
  } catch {
    return false
  }
  const captured = capturedAttempt(attempts, payment)
  if (!captured) return false
  await payOrLog(payment.id, captured, now, 'reconciliation')
  return true
}

export type VerifyResult =
  { status: 'paid'; paymentId: string; alreadyPaid: boolean } | { status: 'pending'; paymentId: string }

/**
 * The checkout's success answer (handler verify, re-verify, or the hosted-checkout callback POST).
 * The signature is checked over OUR stored order id; a forged, missing or foreign signature never
 * pays. The payment is then confirmed with the gateway: captured pays, authorized stays pending
 * for the webhook or reconciliation. `userId` (a signed-in caller) limits it to that customer's
 * orders; an unknown order, or another customer's, is refused exactly like a bad signature.
 */
export async function verifyCheckoutPayment(
  answer: CheckoutAnswer,
  {
    source = 'checkout',
    userId,
    ...deps
  }: GatewayDeps & { source?: Extract<PaidSource, 'checkout' | 'reverify' | 'callback'>; userId?: string } = {},
): Promise<VerifyResult> {
  const gateway = deps.gateway ?? paymentGateway()
  const payment = answer.razorpay_order_id
    ? await prisma.payment.findUnique({
        where: { gatewayOrderId: answer.razorpay_order_id },
        select: { id: true, userId: true, status: true, gatewayOrderId: true, amountPaise: true, currency: true },
      })
    : null
  if (!payment?.gatewayOrderId || (userId !== undefined && payment.userId !== userId)) {
    throw new PaymentError('not-found', PAYMENT_VERIFY_FAILED_MESSAGE, 400)
  }
  const signed = isValidCheckoutSignature(
    { orderId: payment.gatewayOrderId, paymentId: answer.razorpay_payment_id, signature: answer.razorpay_signature },
    gateway.keySecret,
  )
  if (!signed) {
    log.warn(`Refused a checkout response with an invalid signature for payment ${payment.id} (${source})`)
    throw new PaymentError('invalid-signature', PAYMENT_VERIFY_FAILED_MESSAGE, 400)
  }
  if (payment.status === 'PAID') return { status: 'paid', paymentId: payment.id, alreadyPaid: true }

  let gatewayPayment: GatewayPayment
  try {
    gatewayPayment = await gateway.fetchPayment(answer.razorpay_payment_id)
  } catch {
    // Signed but unconfirmed: the webhook or reconciliation will finish it; re-verify may too.
    return { status: 'pending', paymentId: payment.id }
  }
  if (!matchesOrder(gatewayPayment, payment)) {
    log.error(`Gateway payment ${gatewayPayment.id} does not match payment ${payment.id} (order, amount or currency)`)
    throw new PaymentError('gateway-mismatch', PAYMENT_VERIFY_FAILED_MESSAGE, 400)
  }
  if (gatewayPayment.status !== 'captured') return { status: 'pending', paymentId: payment.id }
  const result = await markPaymentPaid(payment.id, {
    gatewayPaymentId: gatewayPayment.id,
    gatewayMethod: gatewayPayment.method,
    paidAt: deps.now ?? new Date(),
    source,
  })
  return { status: 'paid', paymentId: payment.id, alreadyPaid: result.alreadyPaid }
}

export type CallbackResult = VerifyResult | { status: 'failed'; paymentId: string | null }

/**
 * The hosted-checkout / redirect-mode POST to our callback_url. It arrives cross-site, so without
 * the session cookie: the order id in the form identifies the payment. Success carries the three
 * signed fields and goes through verifyCheckoutPayment. A failure POST is unsigned, so it is only a
 * hint: it is recorded after the gateway confirms that payment really failed for our order.
 */
export async function handleCheckoutCallback(form: FormData, deps: GatewayDeps = {}): Promise<CallbackResult> {
  // A value with a control character is no order or payment id (and Postgres refuses NUL).
  const field = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' && !hasControlCharacter(value, { multiLine: true }) ? value : ''
  }
  if (field('razorpay_payment_id')) {
    const answer = CheckoutAnswerSchema.safeParse(Object.fromEntries(form))
    if (!answer.success) throw new PaymentError('invalid-signature', PAYMENT_VERIFY_FAILED_MESSAGE, 400)
    return verifyCheckoutPayment(answer.data, { ...deps, source: 'callback' })
  }
  let metadata: { order_id?: unknown; payment_id?: unknown } = {}
  try {
    metadata = JSON.parse(field('error[metadata]') || '{}') as typeof metadata
  } catch {
    // Unparseable metadata: nothing to record.
  }
  const orderId =
    typeof metadata.order_id === 'string' && !hasControlCharacter(metadata.order_id) ? metadata.order_id : ''
  const payment = orderId
    ? await prisma.payment.findUnique({ where: { gatewayOrderId: orderId }, select: { id: true } })
    : null
  if (!payment) throw new PaymentError('not-found', PAYMENT_VERIFY_FAILED_MESSAGE, 404)
  const gateway = deps.gateway ?? paymentGateway()
  if (typeof metadata.payment_id === 'string') {
    try {
      const reported = await gateway.fetchPayment(metadata.payment_id)
      if (reported.orderId === orderId && reported.status === 'failed') {
        await recordGatewayFailure({
          orderId,
          reason: reported.errorDescription ?? (field('error[description]') || 'Payment failed'),
        })
      }
    } catch {
      // Unconfirmed: the webhook or reconciliation will settle it.
    }
  }
  return { status: 'failed', paymentId: payment.id }
}

/**
 * The customer closed the checkout: how /pay says it ended. An attempt that failed before the
 * close stays FAILED (closing only cancels an order with no failure), and the page says the failure.
 */
export async function closeGatewayCheckout(userId: string, orderId: string): Promise<'failed' | 'dismissed'> {
  if (await cancelGatewayPayment(userId, orderId)) return 'dismissed'
  const payment = await prisma.payment.findFirst({
    where: { userId, gatewayOrderId: orderId, method: 'GATEWAY' },
    select: { status: true },
  })
  return payment?.status === 'FAILED' ? 'failed' : 'dismissed'
}

/**
 * The customer closed the checkout of an order with no failed attempt. Not final either: a capture
 * that still arrives pays.
 */
export async function cancelGatewayPayment(userId: string, orderId: string): Promise<boolean> {
  const { count } = await prisma.payment.updateMany({
    where: { userId, gatewayOrderId: orderId, method: 'GATEWAY', status: { in: statusesFor('GATEWAY', 'closed') } },
    data: { status: 'CANCELLED' },
  })
  if (count > 0) await invalidateUserPayments(userId)
  return count > 0
}

/**
 * A payment attempt failed (reported by the checkout, the callback POST or a webhook). Only a
 * CREATED order moves to FAILED; it is not final, since a late authorisation may still pay it.
 * `userId` scopes a report from a browser to the customer's own payment.
 */
export async function recordGatewayFailure({
  orderId,
  reason,
  userId,
}: {
  orderId: string
  reason: string
  userId?: string
}): Promise<boolean> {
  const payment = await prisma.payment.findFirst({
    where: { gatewayOrderId: orderId, method: 'GATEWAY', ...(userId ? { userId } : {}) },
    select: { id: true, userId: true },
  })
  if (!payment) return false
  const { count } = await prisma.payment.updateMany({
    where: { id: payment.id, status: { in: statusesFor('GATEWAY', 'failed') } },
    data: { status: 'FAILED', failureReason: reason.slice(0, FAILURE_REASON_MAX_LENGTH) },
  })
  if (count > 0) await invalidateUserPayments(payment.userId)
  return count > 0
}
