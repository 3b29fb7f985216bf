import { getErrorMessage } from '~/domain/error-message'
import { createHmac, timingSafeEqual } from 'node:crypto'
import Razorpay from 'razorpay'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('payments')

// ---------------------------------------------------------------------------------------------
// Signatures (docs/payments.md, "Razorpay facts the code relies on"). Hex HMAC-SHA256, compared in constant time.

function hmacSha256Hex(secret: string, message: string | Uint8Array): string {
  return createHmac('sha256', secret).update(message).digest('hex')
}

function equalHex(expected: string, received: string): boolean {
  const a = Buffer.from(expected, 'utf8')
  const b = Buffer.from(received, 'utf8')
  return a.length === b.length && timingSafeEqual(a, b)
}

/** Checkout signature: HMAC_SHA256(order_id + "|" + payment_id, key_secret). Order first; the reverse is a classic bug. */
export function checkoutSignature(orderId: string, paymentId: string, keySecret: string): string {
  return hmacSha256Hex(keySecret, `${orderId}|${paymentId}`)
}

/**
 * True only for a signature over OUR stored order id (never the order id the browser posts back)
 * and the gateway payment id. Anything missing or malformed is false, never an exception.
 */
export function isValidCheckoutSignature(
  { orderId, paymentId, signature }: { orderId: string; paymentId: string; signature: string | null | undefined },
  keySecret: string,
): boolean {
  if (!orderId || !paymentId || !signature || !keySecret) return false
  return equalHex(checkoutSignature(orderId, paymentId, keySecret), signature)
}

/** Webhook signature: HMAC_SHA256 of the RAW body (never re-serialised JSON) with the webhook secret. */
export function webhookSignature(rawBody: string | Uint8Array, webhookSecret: string): string {
  return hmacSha256Hex(webhookSecret, rawBody)
}

export function isValidWebhookSignature(
  rawBody: string | Uint8Array,
  signature: string | null | undefined,
  webhookSecret: string,
): boolean {
  if (!signature || !webhookSecret) return false
  return equalHex(webhookSignature(rawBody, webhookSecret), signature)
}

// ---------------------------------------------------------------------------------------------
// The gateway interface and the real Razorpay client. Which gateway this process uses is
// choice.server.ts's choice.

/** Every failure talking to the gateway, with a message a log reader understands. */
export class GatewayError extends Error {
  override name = 'GatewayError'
  constructor(
    message: string,
    /** A retry may succeed (network failure, timeout, 429, 5xx); a 4xx fails the same way again. */
    readonly retryable: boolean,
    readonly statusCode?: number,
    readonly code?: string,
  ) {
    super(message)
  }
}

export type GatewayOrder = { id: string; amountPaise: number; currency: string; receipt: string | null; status: string }

/** Razorpay's payment statuses; `failed` is not final (late authorisation can follow). */
export type GatewayPaymentStatus = 'created' | 'authorized' | 'captured' | 'refunded' | 'failed'

export type GatewayPayment = {
  id: string
  orderId: string | null
  amountPaise: number
  currency: string
  status: GatewayPaymentStatus
  errorDescription: string | null
  /** How the customer paid (card, netbanking, upi, wallet, emi, ...); null when not reported. */
  method: string | null
}

export type CreateOrderInput = {
  amountPaise: number
  /** Our payment id (max 40 characters); never personal data. */
  receipt: string
  /** Flat string values only; we send { paymentId } and nothing personal. */
  notes: Record<string, string>
}

/** Razorpay's refund statuses: `pending` until the bank confirms it (a webhook says `processed` or `failed`). */
export type GatewayRefundStatus = 'pending' | 'processed' | 'failed'

export type GatewayRefund = { id: string; paymentId: string; amountPaise: number; status: GatewayRefundStatus }

export type RefundPaymentInput = {
  /** Razorpay's payment id (pay_...). */
  paymentId: string
  amountPaise: number
  /** Our refund id: sent as X-Refund-Idempotency, so a retry after a lost answer refunds once. */
  idempotencyKey: string
  notes: Record<string, string>
}

/** Razorpay's subscription statuses (docs/payments.md, "Renewals and mandates"). */
export type GatewaySubscriptionStatus =
  'created' | 'authenticated' | 'active' | 'pending' | 'halted' | 'cancelled' | 'completed' | 'expired' | 'paused'

export type GatewaySubscription = {
  id: string
  planId: string
  status: GatewaySubscriptionStatus
  /** Where the customer authorises the mandate (Razorpay's hosted page; works without JavaScript on ours). */
  shortUrl: string | null
  /** When the gateway charges next; null when nothing more will be charged. */
  chargeAt: Date | null
  paidCount: number
}

export type CreatePlanInput = {
  /** Each charge, GST included, in paise. */
  amountPaise: number
  /** A plan of `daily` period with this interval: Razorpay's daily plans need at least 7 days. */
  periodDays: number
  /** The service's name (Razorpay's plan item name). */
  name: string
  notes: Record<string, string>
}

export type CreateSubscriptionInput = {
  planId: string
  /** How many charges at most; the mandate ends after them. */
  totalCount: number
  /** The first charge (Razorpay's start_at); before it, the authorisation only. */
  startAt: Date
  /** Flat values; we send { mandateKey, userId, serviceId } and nothing personal. */
  notes: Record<string, string>
}

export type PaymentGateway = {
  name: 'razorpay' | 'sandbox'
  /** Public key for checkout.js. */
  keyId: string
  /** Signs checkout responses (server only). */
  keySecret: string
  /** Signs webhook bodies (server only). */
  webhookSecret: string
  createOrder(input: CreateOrderInput): Promise<GatewayOrder>
  fetchOrderPayments(orderId: string): Promise<GatewayPayment[]>
  fetchPayment(paymentId: string): Promise<GatewayPayment>
  /** A (partial) refund of a captured payment: POST /v1/payments/:id/refund. */
  refundPayment(input: RefundPaymentInput): Promise<GatewayRefund>
  /** Razorpay Subscriptions: POST /v1/plans. */
  createPlan(input: CreatePlanInput): Promise<{ id: string }>
  /** POST /v1/subscriptions: the mandate the customer then authorises at `shortUrl`. */
  createSubscription(input: CreateSubscriptionInput): Promise<GatewaySubscription>
  fetchSubscription(subscriptionId: string): Promise<GatewaySubscription>
  /** POST /v1/subscriptions/:id/cancel, at once (not at the cycle's end): nothing more is charged. */
  cancelSubscription(subscriptionId: string): Promise<GatewaySubscription>
}

const RAZORPAY_API_URL = 'https://api.razorpay.com/v1'

/**
 * The refund call over plain fetch: the SDK drops every header but two, and Razorpay's idempotent
 * refunds need X-Refund-Idempotency (docs/payments.md, "Refunds"). Errors are shaped as the SDK's,
 * so toGatewayError reads both alike.
 */
async function postRefund(
  { keyId, keySecret, timeoutMs }: { keyId: string; keySecret: string; timeoutMs: number },
  { paymentId, amountPaise, idempotencyKey, notes }: RefundPaymentInput,
): Promise<GatewayRefund> {
  const response = await fetch(`${RAZORPAY_API_URL}/payments/${encodeURIComponent(paymentId)}/refund`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`,
      'content-type': 'application/json',
      'x-refund-idempotency': idempotencyKey,
    },
    body: JSON.stringify({ amount: amountPaise, speed: 'normal', notes, receipt: idempotencyKey.slice(0, 40) }),
    signal: AbortSignal.timeout(timeoutMs),
  })
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null
  if (!response.ok || !body) {
    throw { statusCode: response.status, error: (body?.error as object | undefined) ?? { description: 'no JSON body' } }
  }
  return {
    id: String(body.id),
    paymentId: String(body.payment_id),
    amountPaise: Number(body.amount),
    status: body.status as GatewayRefundStatus,
  }
}

/** The SDK sets no timeout (axios waits forever); a checkout must not hang on a stuck gateway. */
export const GATEWAY_TIMEOUT_MS = 15_000

type RazorpayApiError = { statusCode: number | string; error: { code?: string; description?: string; field?: string } }

function isRazorpayApiError(error: unknown): error is RazorpayApiError {
  return !!error && typeof error === 'object' && 'statusCode' in error && !!(error as { error?: unknown }).error
}

/** The SDK throws plain objects for API errors and a misleading TypeError when there was no response. */
export function toGatewayError(operation: string, error: unknown): GatewayError {
  if (error instanceof GatewayError) return error
  if (isRazorpayApiError(error)) {
    const status = Number(error.statusCode)
    const code = error.error.code ?? 'UNKNOWN_ERROR'
    const description = error.error.description ?? 'no description'
    return new GatewayError(
      `Razorpay ${operation} failed with HTTP ${status} ${code}: ${description}`,
      status === 429 || status >= 500 || !Number.isFinite(status),
      status,
      code,
    )
  }
  const detail = getErrorMessage(error)
  return new GatewayError(
    `Razorpay ${operation} failed: no answer from the gateway (network error or timeout; SDK said: ${detail})`,
    true,
  )
}

type SdkPayment = {
  id: string
  order_id?: string | null
  amount: number | string
  currency: string
  status: string
  error_description?: string | null
  method?: string | null
}

function fromSdkPayment(payment: SdkPayment): GatewayPayment {
  return {
    id: payment.id,
    orderId: payment.order_id ?? null,
    amountPaise: Number(payment.amount),
    currency: payment.currency,
    status: payment.status as GatewayPaymentStatus,
    errorDescription: payment.error_description ?? null,
    method: typeof payment.method === 'string' ? payment.method : null,
  }
}

type SdkSubscription = {
  id: string
  plan_id: string
  status: string
  short_url?: string | null
  charge_at?: number | null
  paid_count?: number | null
}

export function fromSdkSubscription(subscription: SdkSubscription): GatewaySubscription {
  return {
    id: subscription.id,
    planId: subscription.plan_id,
    status: subscription.status as GatewaySubscriptionStatus,
    shortUrl: subscription.short_url ?? null,
    chargeAt: typeof subscription.charge_at === 'number' ? new Date(subscription.charge_at * 1000) : null,
    paidCount: Number(subscription.paid_count ?? 0),
  }
}

/** The real gateway over the `razorpay` SDK. Every failure becomes a GatewayError and one log line. */
export function razorpayGateway(config: {
  keyId: string
  keySecret: string
  webhookSecret: string
  timeoutMs?: number
}): PaymentGateway {
  const keyId = config.keyId.trim()
  const keySecret = config.keySecret.trim()
  const sdk = new Razorpay({ key_id: keyId, key_secret: keySecret })
  // No public option for a timeout; the SDK's axios instance is its documented-by-use internal (docs/payments.md, the Node SDK).
  const axiosInstance = (sdk.api as unknown as { rq?: { defaults: { timeout?: number } } }).rq
  if (!axiosInstance)
    throw new Error('razorpay SDK internals changed: cannot set a request timeout (check the SDK version)')
  axiosInstance.defaults.timeout = config.timeoutMs ?? GATEWAY_TIMEOUT_MS

  async function call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      // Inside an async function: the SDK's synchronous id guards become rejections too.
      return await run()
    } catch (error) {
      const gatewayError = toGatewayError(operation, error)
      log.error(`${gatewayError.message}`)
      throw gatewayError
    }
  }

  return {
    name: 'razorpay',
    keyId,
    keySecret,
    webhookSecret: config.webhookSecret.trim(),
    createOrder: ({ amountPaise, receipt, notes }) =>
      call('order creation', async () => {
        const order = await sdk.orders.create({ amount: amountPaise, currency: 'INR', receipt, notes })
        return {
          id: order.id,
          amountPaise: Number(order.amount),
          currency: order.currency,
          receipt: order.receipt ?? null,
          status: order.status,
        }
      }),
    fetchOrderPayments: (orderId) =>
      call(`fetch of the payments of order ${orderId}`, async () => {
        const collection = await sdk.orders.fetchPayments(orderId)
        return (collection.items as SdkPayment[]).map(fromSdkPayment)
      }),
    fetchPayment: (paymentId) =>
      call(`fetch of payment ${paymentId}`, async () =>
        fromSdkPayment((await sdk.payments.fetch(paymentId)) as SdkPayment),
      ),
    refundPayment: (input) =>
      call(`refund of payment ${input.paymentId}`, () =>
        postRefund({ keyId, keySecret, timeoutMs: config.timeoutMs ?? GATEWAY_TIMEOUT_MS }, input),
      ),
    createPlan: ({ amountPaise, periodDays, name, notes }) =>
      call('plan creation', async () => {
        const plan = await sdk.plans.create({
          period: 'daily',
          interval: periodDays,
          item: { name: name.slice(0, 100), amount: amountPaise, currency: 'INR' },
          notes,
        })
        return { id: plan.id }
      }),
    createSubscription: ({ planId, totalCount, startAt, notes }) =>
      call('subscription creation', async () =>
        fromSdkSubscription(
          (await sdk.subscriptions.create({
            plan_id: planId,
            total_count: totalCount,
            start_at: Math.floor(startAt.getTime() / 1000),
            // We send our own pre-debit notices and the authorisation link ourselves.
            customer_notify: 0,
            notes,
          })) as unknown as SdkSubscription,
        ),
      ),
    fetchSubscription: (subscriptionId) =>
      call(`fetch of subscription ${subscriptionId}`, async () =>
        fromSdkSubscription((await sdk.subscriptions.fetch(subscriptionId)) as unknown as SdkSubscription),
      ),
    cancelSubscription: (subscriptionId) =>
      call(`cancellation of subscription ${subscriptionId}`, async () =>
        fromSdkSubscription((await sdk.subscriptions.cancel(subscriptionId, false)) as unknown as SdkSubscription),
      ),
  }
}
