import { createHash } from 'node:crypto'
import { cartTotalPaise, sameServices, type CartItem } from '~/domain/cart'
import { MS_PER_DAY } from '~/domain/dates'
import { PAYMENT_START_FAILED_MESSAGE, PAYMENT_VERIFY_FAILED_MESSAGE } from '~/domain/gateway-checkout'
import { formatRupees } from '~/domain/money'
import { hasControlCharacter } from '~/domain/plain-text'
import { isUuid } from '~/domain/uuid'
import { Prisma } from '~/generated/prisma/client'
import { pricedCart } from './cart.server'
import { prisma } from './db.server'
import { env } from './env.server'
import {
  GatewayError,
  isValidCheckoutSignature,
  isValidWebhookSignature,
  paymentGateway,
  type GatewayPayment,
  type PaymentGateway,
} from './razorpay.server'
import {
  GATEWAY_LATE_AUTHORISATION_WINDOW_MS,
  invalidateUserPayments,
  markPaymentPaid,
  PaymentStateError,
  type PaidSource,
} from './subscriptions.server'

export const CURRENCY = 'INR'
/** A manual transfer claim not confirmed by the team within this is dismissed (SPEC section 9). */
export const MANUAL_PAYMENT_EXPIRY_DAYS = 7
/** A second identical manual submit within this window is the same claim (a double click, a resubmitted form). */
export const MANUAL_DUPLICATE_WINDOW_MS = 60_000
/**
 * Bank transfer claims a customer may have waiting for the team at once (MANUAL_OPEN_CLAIMS_MAX):
 * enough for a customer paying for several things in turn, few enough that nobody can fill the
 * team's queue with claims for money never sent.
 */
export const MANUAL_OPEN_CLAIMS_MAX = env.MANUAL_OPEN_CLAIMS_MAX
/** The checkout normally answers within minutes; an order still open after this is asked about. */
export const RECONCILE_AFTER_MS = 15 * 60_000
/** An open order for the same cart is reused for this long (shorter than RECONCILE_AFTER_MS). */
export const GATEWAY_ORDER_REUSE_MS = 10 * 60_000
/** Orders looked at per reconciliation run, so one run stays short. */
export const RECONCILE_BATCH_SIZE = 100
/** Stored failure texts come from the browser or the gateway: keep them short. */
const FAILURE_REASON_MAX_LENGTH = 500

/** A manual claim the team can still decide: pending and inside its days (even before the expiry job has run). */
export const openManualClaim = (now: Date) =>
  ({ method: 'MANUAL', status: 'PENDING_VERIFICATION', expiresAt: { gt: now } }) as const

export type PaymentErrorCode =
  | 'empty-cart'
  | 'services-unavailable'
  | 'gateway-unavailable'
  | 'not-found'
  | 'invalid-signature'
  | 'gateway-mismatch'
  | 'amount-mismatch'
  | 'already-paid'
  | 'too-many-open-claims'
  | 'idempotency-key-reused'

/** A refusal the route turns into a response: `status` is the HTTP status, `message` is for the customer. */
export class PaymentError extends Error {
  override name = 'PaymentError'
  constructor(
    readonly code: PaymentErrorCode,
    message: string,
    readonly status: number,
    readonly droppedIds: string[] = [],
    /** For 'amount-mismatch': the cart's total at current prices, which the client should show and send. */
    readonly amountPaise: number | null = null,
  ) {
    super(message)
  }
}

type Deps = { gateway?: PaymentGateway; now?: Date }

/**
 * Prices the cart from current prices; refuses an empty cart or one holding services no longer on
 * sale. A client that states the total it showed (`expectedAmountPaise`) is refused when that is
 * not the server's total, so the customer never pays an amount they were not shown.
 */
async function checkoutCart(
  cartIds: readonly string[],
  expectedAmountPaise?: number,
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

export type StartedGatewayPayment = {
  paymentId: string
  orderId: string
  amountPaise: number
  currency: string
  keyId: string
}

/**
 * Prices the cart on the server, records a CREATED payment and opens a gateway order for it. The
 * order's receipt and notes carry only our payment id. If the gateway fails, the payment row is
 * removed again, so nothing half-made remains, and a PaymentError says to try again.
 */
export async function startGatewayPayment(
  userId: string,
  cartIds: readonly string[],
  deps: Deps & { expectedAmountPaise?: number } = {},
): Promise<StartedGatewayPayment> {
  const gateway = deps.gateway ?? paymentGateway()
  const { items, amountPaise } = await checkoutCart(cartIds, deps.expectedAmountPaise)
  const now = deps.now ?? new Date()
  // A second click on "Pay on Website" for the same cart reopens the same order (Razorpay accepts
  // further attempts on an order until one is captured) instead of leaving another one open.
  const open = await prisma.payment.findMany({
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
      (candidate.cart as CartItem[]).map((item) => item.serviceId),
      items.map((item) => item.serviceId),
    ),
  )
  if (reusable) {
    if (await paidMeanwhile(reusable, gateway, now)) throw new PaymentError('already-paid', ALREADY_PAID_MESSAGE, 409)
    return {
      paymentId: reusable.id,
      orderId: reusable.gatewayOrderId!,
      amountPaise,
      currency: CURRENCY,
      keyId: gateway.keyId,
    }
  }

  const payment = await prisma.payment.create({
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
    const reason = error instanceof Error ? error.message : String(error)
    // GatewayErrors were logged by the client already; log anything else here.
    if (!(error instanceof GatewayError)) console.error(`[payments] could not start gateway payment: ${reason}`)
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
  await payOrLog(payment.id, captured.id, now, 'reconciliation')
  return true
}

export type CheckoutResponse = { orderId: string; paymentId: string; signature: string | null | undefined }

export type VerifyResult =
  { status: 'paid'; paymentId: string; alreadyPaid: boolean } | { status: 'pending'; paymentId: string }

/** What our payment row asked the gateway for. */
type OrderTerms = { gatewayOrderId: string | null; amountPaise: number; currency: string }

/** The gateway's word on a payment must match what we asked for: our order, our amount, INR. */
function matchesOrder(gatewayPayment: GatewayPayment, payment: OrderTerms): boolean {
  return (
    gatewayPayment.orderId === payment.gatewayOrderId &&
    gatewayPayment.amountPaise === payment.amountPaise &&
    gatewayPayment.currency === payment.currency
  )
}

/** Among an order's payment attempts at the gateway, the captured one that pays it. */
function capturedAttempt(attempts: GatewayPayment[], payment: OrderTerms): GatewayPayment | undefined {
  return attempts.find((candidate) => candidate.status === 'captured' && matchesOrder(candidate, payment))
}

/**
 * The checkout's success answer (handler verify, re-verify, or the hosted-checkout callback POST).
 * The signature is checked over OUR stored order id; a forged, missing or foreign signature never
 * pays. The payment is then confirmed with the gateway: captured pays, authorized stays pending
 * for the webhook or reconciliation. `userId` (a signed-in caller) limits it to that customer's
 * orders; an unknown order, or another customer's, is refused exactly like a bad signature.
 */
export async function verifyCheckoutPayment(
  response: CheckoutResponse,
  {
    source = 'checkout',
    userId,
    ...deps
  }: Deps & { source?: Extract<PaidSource, 'checkout' | 'reverify' | 'callback'>; userId?: string } = {},
): Promise<VerifyResult> {
  const gateway = deps.gateway ?? paymentGateway()
  const payment = response.orderId
    ? await prisma.payment.findUnique({
        where: { gatewayOrderId: response.orderId },
        select: { id: true, userId: true, status: true, gatewayOrderId: true, amountPaise: true, currency: true },
      })
    : null
  if (!payment?.gatewayOrderId || (userId !== undefined && payment.userId !== userId)) {
    throw new PaymentError('not-found', PAYMENT_VERIFY_FAILED_MESSAGE, 400)
  }
  const signed = isValidCheckoutSignature(
    { orderId: payment.gatewayOrderId, paymentId: response.paymentId, signature: response.signature },
    gateway.keySecret,
  )
  if (!signed) {
    console.warn(
      `[payments] refused a checkout response with an invalid signature for payment ${payment.id} (${source})`,
    )
    throw new PaymentError('invalid-signature', PAYMENT_VERIFY_FAILED_MESSAGE, 400)
  }
  if (payment.status === 'PAID') return { status: 'paid', paymentId: payment.id, alreadyPaid: true }

  let gatewayPayment: GatewayPayment
  try {
    gatewayPayment = await gateway.fetchPayment(response.paymentId)
  } catch {
    // Signed but unconfirmed: the webhook or reconciliation will finish it; re-verify may too.
    return { status: 'pending', paymentId: payment.id }
  }
  if (!matchesOrder(gatewayPayment, payment)) {
    console.error(
      `[payments] gateway payment ${gatewayPayment.id} does not match payment ${payment.id} (order, amount or currency)`,
    )
    throw new PaymentError('gateway-mismatch', PAYMENT_VERIFY_FAILED_MESSAGE, 400)
  }
  if (gatewayPayment.status !== 'captured') return { status: 'pending', paymentId: payment.id }
  const result = await markPaymentPaid(payment.id, {
    gatewayPaymentId: gatewayPayment.id,
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
export async function handleCheckoutCallback(form: FormData, deps: Deps = {}): Promise<CallbackResult> {
  // A value with a control character is no order or payment id (and Postgres refuses NUL).
  const field = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' && !hasControlCharacter(value, { multiLine: true }) ? value : ''
  }
  const paymentId = field('razorpay_payment_id')
  if (paymentId) {
    return verifyCheckoutPayment(
      { orderId: field('razorpay_order_id'), paymentId, signature: field('razorpay_signature') },
      { ...deps, source: 'callback' },
    )
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

/** The customer closed the checkout. Not final either: a capture that still arrives pays. */
export async function cancelGatewayPayment(userId: string, orderId: string): Promise<boolean> {
  const { count } = await prisma.payment.updateMany({
    where: { userId, gatewayOrderId: orderId, method: 'GATEWAY', status: { in: ['CREATED', 'FAILED'] } },
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
    where: { id: payment.id, status: 'CREATED' },
    data: { status: 'FAILED', failureReason: reason.slice(0, FAILURE_REASON_MAX_LENGTH) },
  })
  if (count > 0) await invalidateUserPayments(payment.userId)
  return count > 0
}

export type WebhookResult = {
  status: 200 | 400 | 500
  outcome: 'processed' | 'duplicate' | 'ignored' | 'invalid-signature' | 'invalid-body' | 'error'
}

type WebhookPaymentEntity = {
  id?: unknown
  order_id?: unknown
  amount?: unknown
  currency?: unknown
  status?: unknown
  error_description?: unknown
}

function paymentEntityOf(event: unknown): GatewayPayment | null {
  const entity = (event as { payload?: { payment?: { entity?: WebhookPaymentEntity } } })?.payload?.payment?.entity
  if (!entity || typeof entity.id !== 'string') return null
  return {
    id: entity.id,
    orderId: typeof entity.order_id === 'string' ? entity.order_id : null,
    amountPaise: Number(entity.amount),
    currency: String(entity.currency),
    status: String(entity.status) as GatewayPayment['status'],
    errorDescription: typeof entity.error_description === 'string' ? entity.error_description : null,
  }
}

/**
 * What identifies a delivery: the hash of the signed body. Razorpay's retries resend the same body,
 * while its `x-razorpay-event-id` header is outside the signature, so a replay could carry any id.
 */
export function webhookDeliveryKey(rawBody: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(rawBody).digest('hex')}`
}

/**
 * Razorpay webhooks, delivered at least once and in any order. The signature is checked over the
 * raw body before anything is parsed; a bad one changes nothing. Each delivery is handled once.
 */
export async function handleWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | null,
  deps: Deps = {},
): Promise<WebhookResult> {
  const gateway = deps.gateway ?? paymentGateway()
  if (!isValidWebhookSignature(rawBody, signatureHeader, gateway.webhookSecret)) {
    console.warn('[payments] refused a webhook with an invalid signature')
    return { status: 400, outcome: 'invalid-signature' }
  }
  let event: { event?: unknown }
  try {
    event = JSON.parse(
      typeof rawBody === 'string' ? rawBody : new TextDecoder('utf-8', { fatal: true }).decode(rawBody),
    ) as { event?: unknown }
  } catch {
    return { status: 400, outcome: 'invalid-body' }
  }
  const type = typeof event.event === 'string' ? event.event : 'unknown'
  const eventId = webhookDeliveryKey(rawBody)
  const { count } = await prisma.webhookEvent.createMany({
    data: [{ eventId, type, payload: event as Prisma.InputJsonValue }],
    skipDuplicates: true,
  })
  if (count === 0) return { status: 200, outcome: 'duplicate' }

  try {
    return { status: 200, outcome: await processWebhookEvent(type, event, deps.now ?? new Date()) }
  } catch (error) {
    // Forget the event so Razorpay's retry processes it again; markPaymentPaid makes that safe.
    await prisma.webhookEvent.delete({ where: { eventId } }).catch(() => {})
    console.error(
      `[payments] webhook ${eventId} (${type}) failed: ${error instanceof Error ? error.message : String(error)}`,
    )
    return { status: 500, outcome: 'error' }
  }
}

async function processWebhookEvent(type: string, event: unknown, now: Date): Promise<WebhookResult['outcome']> {
  const gatewayPayment = paymentEntityOf(event)
  if (!gatewayPayment?.orderId) return 'ignored'
  if (type === 'payment.failed') {
    await recordGatewayFailure({
      orderId: gatewayPayment.orderId,
      reason: gatewayPayment.errorDescription ?? 'Payment failed',
    })
    return 'processed'
  }
  if (type !== 'payment.captured' && type !== 'order.paid') return 'ignored'
  const payment = await prisma.payment.findUnique({
    where: { gatewayOrderId: gatewayPayment.orderId },
    select: { id: true, gatewayOrderId: true, amountPaise: true, currency: true },
  })
  if (!payment) {
    console.warn(`[payments] webhook ${type} for unknown order ${gatewayPayment.orderId}`)
    return 'ignored'
  }
  if (gatewayPayment.status !== 'captured' || !matchesOrder(gatewayPayment, payment)) {
    console.error(`[payments] webhook ${type} for payment ${payment.id} is not a matching capture; ignored`)
    return 'ignored'
  }
  await payOrLog(payment.id, gatewayPayment.id, now, 'webhook')
  return 'processed'
}

/** A refusal by markPaymentPaid (a final state) is logged, not retried forever. */
async function payOrLog(
  paymentId: string,
  gatewayPaymentId: string,
  paidAt: Date,
  source: PaidSource,
): Promise<boolean> {
  try {
    return !(await markPaymentPaid(paymentId, { gatewayPaymentId, paidAt, source })).alreadyPaid
  } catch (error) {
    if (!(error instanceof PaymentStateError)) throw error
    console.error(`[payments] ${source} could not pay ${paymentId}: ${error.message}`)
    return false
  }
}

export type ReconcileReport = { checked: number; paid: number; abandoned: number; errors: number }

/**
 * The job that never loses a paid order: gateway payments still open (CREATED), failed or
 * cancelled more than RECONCILE_AFTER_MS ago and inside the late-authorisation window are asked
 * about; a captured payment for the order pays it. Open orders with no payment attempt, and open
 * orders older than the window, are given up (CANCELLED, which a capture arriving later still pays).
 */
export async function reconcileOpenOrders(now: Date, deps: Omit<Deps, 'now'> = {}): Promise<ReconcileReport> {
  const gateway = deps.gateway ?? paymentGateway()
  const windowStart = new Date(now.getTime() - GATEWAY_LATE_AUTHORISATION_WINDOW_MS)
  const candidates = await prisma.payment.findMany({
    where: {
      method: 'GATEWAY',
      gatewayOrderId: { not: null },
      createdAt: { lte: new Date(now.getTime() - RECONCILE_AFTER_MS) },
      // Inside the window every unpaid state is asked about; past it, open orders get a last look before being given up.
      OR: [
        { status: { in: ['CREATED', 'FAILED', 'CANCELLED'] }, createdAt: { gt: windowStart } },
        { status: 'CREATED' },
      ],
    },
    orderBy: { createdAt: 'asc' },
    take: RECONCILE_BATCH_SIZE,
    select: { id: true, userId: true, createdAt: true, gatewayOrderId: true, amountPaise: true, currency: true },
  })
  const report: ReconcileReport = { checked: candidates.length, paid: 0, abandoned: 0, errors: 0 }
  for (const payment of candidates) {
    try {
      const attempts = await gateway.fetchOrderPayments(payment.gatewayOrderId!)
      const captured = capturedAttempt(attempts, payment)
      if (captured) {
        if (await payOrLog(payment.id, captured.id, now, 'reconciliation')) report.paid += 1
      } else if (attempts.length === 0 || payment.createdAt <= windowStart) {
        // No attempt at all: the customer left the checkout. Still payable should they come back to it.
        const { count } = await prisma.payment.updateMany({
          where: { id: payment.id, status: 'CREATED' },
          data: {
            status: 'CANCELLED',
            failureReason:
              attempts.length === 0
                ? 'No payment was attempted for this order.'
                : 'No payment was captured for this order.',
          },
        })
        if (count > 0) {
          report.abandoned += 1
          await invalidateUserPayments(payment.userId)
        }
      }
    } catch (error) {
      report.errors += 1
      console.error(
        `[payments] reconciliation of payment ${payment.id} failed: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
  }
  return report
}

export type ManualPaymentResult = { paymentId: string; created: boolean; amountPaise: number; expiresAt: Date }

/**
 * "I'll Pay & Send Screenshot": a PENDING_VERIFICATION claim for the cart at current prices,
 * expiring after MANUAL_PAYMENT_EXPIRY_DAYS. A double submit creates one claim: the same
 * idempotency key (a hidden field the form renders) returns the first claim, and without a key an
 * identical pending claim of the last MANUAL_DUPLICATE_WINDOW_MS is reused. Submits of one user
 * are serialised so two racing requests cannot both create.
 */
export async function createManualPayment(
  userId: string,
  cartIds: readonly string[],
  {
    idempotencyKey,
    utr,
    expectedAmountPaise,
    now = new Date(),
  }: { idempotencyKey?: string; utr?: string; expectedAmountPaise?: number; now?: Date } = {},
): Promise<ManualPaymentResult> {
  const { items, amountPaise } = await checkoutCart(cartIds, expectedAmountPaise)
  const serviceIds = items.map((item) => item.serviceId)
  const claimedServiceIds = (claim: { cart: unknown }) => (claim.cart as CartItem[]).map((item) => item.serviceId)
  const result = await prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`manual-payment:${userId}`}, 0))::text`
    const select = { id: true, amountPaise: true, expiresAt: true, cart: true } as const
    const existing = idempotencyKey
      ? await tx.payment.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey } }, select })
      : (
          await tx.payment.findMany({
            where: {
              userId,
              method: 'MANUAL',
              status: 'PENDING_VERIFICATION',
              amountPaise,
              createdAt: { gte: new Date(now.getTime() - MANUAL_DUPLICATE_WINDOW_MS) },
            },
            select,
          })
        ).find((candidate) => sameServices(claimedServiceIds(candidate), serviceIds))
    if (existing) {
      if (!sameServices(claimedServiceIds(existing), serviceIds)) {
        throw new PaymentError(
          'idempotency-key-reused',
          'This request repeats an earlier claim for a different cart. Reload the page and submit again.',
          409,
        )
      }
      return {
        paymentId: existing.id,
        created: false,
        amountPaise: existing.amountPaise,
        expiresAt: existing.expiresAt!,
      }
    }
    const openClaims = await tx.payment.count({ where: { userId, ...openManualClaim(now) } })
    if (openClaims >= MANUAL_OPEN_CLAIMS_MAX) {
      throw new PaymentError(
        'too-many-open-claims',
        `You already have ${openClaims} bank transfers waiting for our team to check. Please wait until one is confirmed or rejected, or pay on the website.`,
        409,
      )
    }
    const expiresAt = new Date(now.getTime() + MANUAL_PAYMENT_EXPIRY_DAYS * MS_PER_DAY)
    const payment = await tx.payment.create({
      data: {
        userId,
        method: 'MANUAL',
        status: 'PENDING_VERIFICATION',
        amountPaise,
        currency: CURRENCY,
        cart: items,
        expiresAt,
        createdAt: now,
        ...(idempotencyKey ? { idempotencyKey } : {}),
        ...(utr ? { utr } : {}),
      },
      select: { id: true },
    })
    return { paymentId: payment.id, created: true, amountPaise, expiresAt }
  })
  await invalidateUserPayments(userId)
  return result
}

/** Admin console: the transfer arrived. Goes through the one path to subscriptions. */
export function confirmManualPayment(
  paymentId: string,
  { now = new Date(), onPaid }: { now?: Date; onPaid?: Parameters<typeof markPaymentPaid>[1]['onPaid'] } = {},
) {
  return markPaymentPaid(paymentId, { paidAt: now, source: 'admin', onPaid })
}

/**
 * The customer adds or corrects the bank transfer reference of their own claim while the team has
 * not decided it yet. False when there is no such pending claim of theirs (decided, expired, or another's).
 */
export async function setManualPaymentUtr(
  userId: string,
  paymentId: string,
  utr: string,
  now = new Date(),
): Promise<boolean> {
  if (!isUuid(paymentId)) return false
  const { count } = await prisma.payment.updateMany({
    where: { id: paymentId, userId, ...openManualClaim(now) },
    data: { utr },
  })
  if (count > 0) await invalidateUserPayments(userId)
  return count > 0
}

export type RejectedPayment = { paymentId: string; userId: string; reason: string }

/**
 * Admin console: the claimed transfer was not found. Final. Only a claim still pending and inside
 * its 7 days can be rejected; `onRejected` runs in the same transaction (the audit log).
 */
export async function rejectManualPayment(
  paymentId: string,
  reason: string,
  {
    now = new Date(),
    onRejected,
  }: { now?: Date; onRejected?: (tx: Prisma.TransactionClient, rejected: RejectedPayment) => Promise<void> } = {},
): Promise<boolean> {
  const storedReason = reason.slice(0, FAILURE_REASON_MAX_LENGTH)
  const rejected = await prisma.$transaction(async (tx) => {
    const [row] = await tx.payment.updateManyAndReturn({
      where: { id: paymentId, ...openManualClaim(now) },
      data: { status: 'REJECTED', rejectedReason: storedReason },
      select: { userId: true },
    })
    if (!row) return null
    await onRejected?.(tx, { paymentId, userId: row.userId, reason: storedReason })
    return row
  })
  if (rejected) await invalidateUserPayments(rejected.userId)
  return rejected !== null
}

/** Manual claims unconfirmed after MANUAL_PAYMENT_EXPIRY_DAYS are dismissed (the SPEC's promise, enforced). */
export async function expireManualPayments(now: Date): Promise<number> {
  const expired = await prisma.payment.updateManyAndReturn({
    where: { method: 'MANUAL', status: 'PENDING_VERIFICATION', expiresAt: { lte: now } },
    data: { status: 'EXPIRED' },
    select: { userId: true },
  })
  for (const userId of new Set(expired.map((row) => row.userId))) await invalidateUserPayments(userId)
  return expired.length
}
