import { createHmac, timingSafeEqual } from 'node:crypto'
import Razorpay from 'razorpay'
import { env, type Env } from './env.server'
import { serverSecret } from './secrets.server'

// ---------------------------------------------------------------------------------------------
// Signatures (research/razorpay.md section 2). Hex HMAC-SHA256, compared in constant time.

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
// The gateway interface and the real Razorpay client.

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
}

export type CreateOrderInput = {
  amountPaise: number
  /** Our payment id (max 40 characters); never personal data. */
  receipt: string
  /** Flat string values only; we send { paymentId } and nothing personal. */
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
  const detail = error instanceof Error ? error.message : String(error)
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
}

function fromSdkPayment(payment: SdkPayment): GatewayPayment {
  return {
    id: payment.id,
    orderId: payment.order_id ?? null,
    amountPaise: Number(payment.amount),
    currency: payment.currency,
    status: payment.status as GatewayPaymentStatus,
    errorDescription: payment.error_description ?? null,
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
  // No public option for a timeout; the SDK's axios instance is its documented-by-use internal (razorpay.md 1.2).
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
      console.error(`[razorpay] ${gatewayError.message}`)
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
  }
}

// ---------------------------------------------------------------------------------------------
// Sandbox (demo mode and tests): the real client above, with sandbox keys, whose HTTPS calls to
// api.razorpay.com a local fake of Razorpay's API answers (razorpay-sandbox.server.ts, over MSW's
// Node interceptor). That module, and msw with it, is imported only when the sandbox is used.

export const SANDBOX_KEY_ID = 'rzp_test_sandbox'

/** The sandbox signs with these, so our real verification runs; derived from SESSION_SECRET, never configured. */
export function sandboxSecrets(): { keySecret: string; webhookSecret: string } {
  return {
    keySecret: serverSecret('razorpay-sandbox-key-secret'),
    webhookSecret: serverSecret('razorpay-sandbox-webhook-secret'),
  }
}

/** The sandbox is for demo mode and tests only; in production mode it would accept payments nobody made. */
export function assertSandboxAllowed(mode: Pick<Env, 'DEMO_MODE' | 'NODE_ENV'>): void {
  if (!mode.DEMO_MODE && mode.NODE_ENV !== 'test') {
    throw new Error(
      'The sandbox payment gateway cannot run with DEMO_MODE=0: set RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET',
    )
  }
}

/** A refusal by the sandbox, with Razorpay's wording where it has one; `status` for the /dev/sandbox routes. */
export class SandboxError extends Error {
  override name = 'SandboxError'
  constructor(
    message: string,
    readonly status: 400 | 404,
  ) {
    super(message)
  }
}

export type SandboxOutcome = 'captured' | 'authorized' | 'failed'
export type SandboxWebhookEvent = 'payment.captured' | 'payment.failed' | 'order.paid' | 'payment.authorized'
export type SignedCheckoutFields = {
  razorpay_order_id: string
  razorpay_payment_id: string
  razorpay_signature: string
}
export type WebhookDelivery = { event: SandboxWebhookEvent; rawBody: string; signature: string; eventId: string }
export type WebhookDeliveryAnswer = { event: SandboxWebhookEvent; eventId: string; status: number; body: unknown }

/** What Razorpay sends for a payment that ended so (of the events a store subscribes to). */
export const WEBHOOK_EVENTS_FOR_OUTCOME: Record<SandboxOutcome, SandboxWebhookEvent[]> = {
  captured: ['payment.captured', 'order.paid'],
  authorized: ['payment.authorized'],
  failed: ['payment.failed'],
}

/** The headers Razorpay sends with a webhook delivery. */
export function webhookHeaders(delivery: WebhookDelivery): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-razorpay-signature': delivery.signature,
    'x-razorpay-event-id': delivery.eventId,
  }
}

/** The sandbox gateway (razorpay-sandbox.server.ts): the real client plus what Razorpay does outside its API. */
export type SandboxGateway = PaymentGateway & {
  name: 'sandbox'
  /**
   * What checkout.js does when the customer pays: a gateway payment for the order with this
   * outcome, and the three fields the checkout posts back, signed with the sandbox key secret.
   * Refused (SandboxError) for an unknown order and for one already paid.
   */
  pay(orderId: string, outcome?: SandboxOutcome): SignedCheckoutFields
  /**
   * A payment reported failed or authorized is captured later (late authorisation). If another
   * payment paid the order meanwhile, Razorpay refunds this one instead.
   */
  capture(paymentId: string): void
  /** A webhook delivery as Razorpay signs it: raw body, signature header and event id header. */
  webhook(event: SandboxWebhookEvent, paymentId: string): WebhookDelivery
  /** Sends a delivery the way Razorpay's servers do: a POST of the raw body to `url`, with its headers. */
  deliverWebhook(delivery: WebhookDelivery, url: string | URL): Promise<WebhookDeliveryAnswer>
}

let sandboxLoading: Promise<SandboxGateway> | undefined

function loadSandbox(): Promise<SandboxGateway> {
  return (sandboxLoading ??= import('./razorpay-sandbox.server').then(
    (sandbox) => sandbox.sandboxGateway(),
    (error: unknown) => {
      sandboxLoading = undefined
      const detail = error instanceof Error ? error.message : String(error)
      throw new Error(
        `The sandbox payment gateway could not load (it needs the msw package: run npm install): ${detail}`,
      )
    },
  ))
}

/**
 * The gateway without RAZORPAY keys. Its keys are known at once (checkout options need them); the
 * fake API is installed on the first call to the gateway, by loading the sandbox module.
 */
function lazySandboxGateway(): PaymentGateway {
  assertSandboxAllowed(env)
  return {
    name: 'sandbox',
    keyId: SANDBOX_KEY_ID,
    ...sandboxSecrets(),
    createOrder: async (input) => (await loadSandbox()).createOrder(input),
    fetchOrderPayments: async (orderId) => (await loadSandbox()).fetchOrderPayments(orderId),
    fetchPayment: async (paymentId) => (await loadSandbox()).fetchPayment(paymentId),
  }
}

let configuredGateway: PaymentGateway | undefined

/** The real Razorpay when its key is configured (always in a deployment: env validation requires it), else the sandbox. */
export function paymentGateway(): PaymentGateway {
  if (configuredGateway) return configuredGateway
  if (env.RAZORPAY_KEY_ID) {
    if (!env.RAZORPAY_KEY_SECRET || !env.RAZORPAY_WEBHOOK_SECRET) {
      throw new Error('RAZORPAY_KEY_ID is set but RAZORPAY_KEY_SECRET or RAZORPAY_WEBHOOK_SECRET is not')
    }
    configuredGateway = razorpayGateway({
      keyId: env.RAZORPAY_KEY_ID,
      keySecret: env.RAZORPAY_KEY_SECRET,
      webhookSecret: env.RAZORPAY_WEBHOOK_SECRET,
    })
  } else {
    configuredGateway = lazySandboxGateway()
  }
  return configuredGateway
}

/**
 * The sandbox this process pays through, for the demo's stand-ins for checkout.js and Razorpay's
 * servers (/dev/sandbox/*); null in a deployment (DEMO_MODE=0) or when the real gateway is configured.
 */
export async function demoSandbox(): Promise<SandboxGateway | null> {
  if (!env.DEMO_MODE && env.NODE_ENV !== 'test') return null
  if (paymentGateway().name !== 'sandbox') return null
  return loadSandbox()
}
