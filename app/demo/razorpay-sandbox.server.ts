import { randomBytes } from 'node:crypto'
import { http, HttpResponse, type HttpResponseResolver } from 'msw'
import { setupServer, type SetupServer } from 'msw/node'
import { env, type Env } from '~/server/env.server'
import {
  checkoutSignature,
  razorpayGateway,
  webhookSignature,
  type GatewayPaymentStatus,
} from '~/server/payments/gateway/razorpay.server'
import {
  assertSandboxAllowed,
  SANDBOX_KEY_ID,
  sandboxSecrets,
  SandboxError,
  webhookHeaders,
  type SandboxGateway,
  type SandboxSubscriptionEvent,
  type SandboxWebhookEvent,
} from '~/server/payments/gateway/sandbox.server'

// The sandbox gateway (demo mode and tests only; never imported in a deployment, see
// paymentGateway() in app/server/payments/gateway/choice.server.ts). Two halves:
// - a local fake of Razorpay's HTTP API (docs/decisions/012-sandbox-gateway-fakes-razorpays-http-api.md), installed with MSW's
//   Node interceptor, so the real `razorpay` SDK client runs unchanged against it;
// - the sandbox's controls, what Razorpay's checkout and servers do outside that API: pay an order
//   with an outcome (the signed fields checkout.js hands the page), capture late, and sign and
//   deliver webhooks. /dev/sandbox/* and the tests use them.
// State lives in this process's memory (the demo runs one process).

const RAZORPAY_API = 'https://api.razorpay.com'
const API = `${RAZORPAY_API}/v1`
/** Razorpay's minimum order, INR 1.00. */
const MIN_ORDER_AMOUNT_PAISE = 100
const RECEIPT_MAX_LENGTH = 40
const NOTES_MAX_ENTRIES = 15
const NOTE_MAX_LENGTH = 256
/** Razorpay counts a webhook delivery as failed when the answer takes longer than this. */
export const WEBHOOK_DELIVERY_TIMEOUT_MS = 5_000
/** Fields POST /v1/orders accepts; any other is refused as Razorpay does. */
const ORDER_FIELDS = new Set([
  'amount',
  'currency',
  'receipt',
  'notes',
  'partial_payment',
  'first_payment_min_amount',
  'payment',
  'payment_capture',
])

type OrderStatus = 'created' | 'attempted' | 'paid'

type SandboxOrder = {
  id: string
  amountPaise: number
  amountPaidPaise: number
  currency: string
  receipt: string | null
  notes: Record<string, string>
  status: OrderStatus
  attempts: number
  createdAtSeconds: number
}

type SandboxPayment = {
  id: string
  orderId: string
  amountPaise: number
  currency: string
  status: GatewayPaymentStatus
  /** How the customer paid (Razorpay's `method`): card unless a test chose another. */
  method: string
  createdAtSeconds: number
}

type SandboxRefund = {
  id: string
  paymentId: string
  amountPaise: number
  notes: Record<string, string>
  receipt: string | null
  createdAtSeconds: number
}

type SandboxPlan = { id: string; periodDays: number; amountPaise: number; name: string; createdAtSeconds: number }

type SandboxSubscriptionStatus =
  'created' | 'authenticated' | 'active' | 'pending' | 'halted' | 'cancelled' | 'completed'

type SandboxSubscription = {
  id: string
  planId: string
  status: SandboxSubscriptionStatus
  totalCount: number
  paidCount: number
  startAtSeconds: number
  chargeAtSeconds: number | null
  notes: Record<string, string>
  createdAtSeconds: number
  /** The latest charge's payment, for subscription.charged and the payment events. */
  lastPaymentId: string | null
}

type SandboxState = {
  plans: Map<string, SandboxPlan>
  subscriptions: Map<string, SandboxSubscription>
  orders: Map<string, SandboxOrder>
  payments: Map<string, SandboxPayment>
  /** By id; and by X-Refund-Idempotency key, answered again for a repeated request. */
  refunds: Map<string, SandboxRefund>
  refundsByIdempotencyKey: Map<string, SandboxRefund>
  failingRefunds: number
  api: SetupServer | null
}

// On globalThis so the dev server's module reloads keep one state and one interceptor.
const globalForSandbox = globalThis as { razorpaySandbox?: SandboxState }

function sandboxState(): SandboxState {
  return (globalForSandbox.razorpaySandbox ??= {
    plans: new Map(),
    subscriptions: new Map(),
    orders: new Map(),
    payments: new Map(),
    refunds: new Map(),
    refundsByIdempotencyKey: new Map(),
    failingRefunds: 0,
    api: null,
  })
}

/** True once this process answers api.razorpay.com itself; a deployment must never see it. */
export function isSandboxApiInstalled(): boolean {
  return !!globalForSandbox.razorpaySandbox?.api
}

function sandboxId(prefix: 'order' | 'pay' | 'evt' | 'rfnd' | 'plan' | 'sub' | 'inv'): string {
  return `${prefix}_${randomBytes(7).toString('hex')}`
}

const nowSeconds = () => Math.floor(Date.now() / 1000)

// ---------------------------------------------------------------------------------------------
// Razorpay's JSON: entities and errors (docs/payments.md: the SDK and its entities).

function orderEntity(order: SandboxOrder) {
  return {
    id: order.id,
    entity: 'order',
    amount: order.amountPaise,
    amount_paid: order.amountPaidPaise,
    amount_due: order.amountPaise - order.amountPaidPaise,
    currency: order.currency,
    receipt: order.receipt,
    offer_id: null,
    status: order.status,
    attempts: order.attempts,
    // Razorpay sends empty notes as an empty array.
    notes: Object.keys(order.notes).length ? order.notes : [],
    created_at: order.createdAtSeconds,
  }
}

const PAYMENT_FAILURE = {
  error_code: 'BAD_REQUEST_ERROR',
  error_description: 'Payment failed',
  error_source: 'bank',
  error_step: 'payment_authorization',
  error_reason: 'payment_failed',
}

/** Sandbox refunds are processed at once (a real one is `pending` for days on a normal-speed refund). */
function refundEntity(refund: SandboxRefund) {
  return {
    id: refund.id,
    entity: 'refund',
    amount: refund.amountPaise,
    currency: 'INR',
    payment_id: refund.paymentId,
    notes: refund.notes,
    receipt: refund.receipt,
    acquirer_data: { arn: null },
    created_at: refund.createdAtSeconds,
    batch_id: null,
    status: 'processed',
    speed_processed: 'normal',
    speed_requested: 'normal',
  }
}

function refundedPaise(state: SandboxState, paymentId: string): number {
  return [...state.refunds.values()]
    .filter((refund) => refund.paymentId === paymentId)
    .reduce((sum, refund) => sum + refund.amountPaise, 0)
}

function paymentEntity(payment: SandboxPayment) {
  const failure =
    payment.status === 'failed'
      ? PAYMENT_FAILURE
      : { error_code: null, error_description: null, error_source: null, error_step: null, error_reason: null }
  return {
    id: payment.id,
    entity: 'payment',
    amount: payment.amountPaise,
    currency: payment.currency,
    status: payment.status,
    order_id: payment.orderId,
    invoice_id: null,
    international: false,
    method: payment.method,
    amount_refunded: payment.status === 'refunded' ? payment.amountPaise : 0,
    refund_status: payment.status === 'refunded' ? 'full' : null,
    captured: payment.status === 'captured' || payment.status === 'refunded',
    description: null,
    notes: [],
    ...failure,
    created_at: payment.createdAtSeconds,
  }
}

/** The sandbox's stand-in for the hosted authorisation page Razorpay's short_url opens. */
export const SANDBOX_AUTHORISE_PATH = '/dev/sandbox/authorise'

function subscriptionEntity(subscription: SandboxSubscription) {
  return {
    id: subscription.id,
    entity: 'subscription',
    plan_id: subscription.planId,
    status: subscription.status,
    total_count: subscription.totalCount,
    paid_count: subscription.paidCount,
    remaining_count: subscription.totalCount - subscription.paidCount,
    start_at: subscription.startAtSeconds,
    charge_at: subscription.chargeAtSeconds,
    customer_notify: false,
    notes: Object.keys(subscription.notes).length ? subscription.notes : [],
    short_url: `https://rzp.io/i/${subscription.id}`,
    created_at: subscription.createdAtSeconds,
  }
}

type ErrorDetails = { code?: string; reason?: string; field?: string }

function apiError(
  status: number,
  description: string,
  { code = 'BAD_REQUEST_ERROR', reason = 'input_validation_failed', field }: ErrorDetails = {},
) {
  return HttpResponse.json(
    {
      error: {
        code,
        description,
        source: 'business',
        step: 'payment_initiation',
        reason,
        metadata: {},
        ...(field ? { field } : {}),
      },
    },
    { status },
  )
}

const ID_NOT_FOUND = 'The id provided does not exist'

// ---------------------------------------------------------------------------------------------
// The fake API.

function isSandboxKey(authorization: string | null): boolean {
  const { keySecret } = sandboxSecrets()
  return authorization === `Basic ${Buffer.from(`${SANDBOX_KEY_ID}:${keySecret}`).toString('base64')}`
}

/** Every call needs HTTP Basic auth with the sandbox key id and secret, as Razorpay's API needs the account's. */
function authenticated(
  resolver: HttpResponseResolver<Record<string, string>>,
): HttpResponseResolver<Record<string, string>> {
  return (info) =>
    isSandboxKey(info.request.headers.get('authorization'))
      ? resolver(info)
      : apiError(401, 'Authentication failed', { reason: 'authentication_failed' })
}

function orderCreationError(body: Record<string, unknown>): Response | null {
  const unknownField = Object.keys(body).find((field) => !ORDER_FIELDS.has(field))
  if (unknownField)
    return apiError(400, `${unknownField} is/are not required and should not be sent`, { field: unknownField })
  const { amount, currency = 'INR', receipt, notes } = body
  if (typeof amount !== 'number' || !Number.isInteger(amount))
    return apiError(400, 'The amount must be an integer.', { field: 'amount' })
  if (amount < MIN_ORDER_AMOUNT_PAISE)
    return apiError(400, 'The amount must be at least INR 1.00.', { field: 'amount' })
  if (currency !== 'INR') return apiError(400, 'The sandbox accepts INR orders only.', { field: 'currency' })
  if (receipt !== undefined && (typeof receipt !== 'string' || receipt.length > RECEIPT_MAX_LENGTH)) {
    return apiError(400, `The receipt may not be greater than ${RECEIPT_MAX_LENGTH} characters.`, { field: 'receipt' })
  }
  if (notes !== undefined) {
    const entries = notes && typeof notes === 'object' && !Array.isArray(notes) ? Object.values(notes) : null
    if (
      !entries ||
      entries.length > NOTES_MAX_ENTRIES ||
      entries.some((value) => typeof value !== 'string' || value.length > NOTE_MAX_LENGTH)
    ) {
      return apiError(
        400,
        `notes: at most ${NOTES_MAX_ENTRIES} string values of at most ${NOTE_MAX_LENGTH} characters.`,
        { field: 'notes' },
      )
    }
  }
  return null
}

function fakeApiHandlers(state: SandboxState) {
  return [
    http.post(
      `${API}/orders`,
      authenticated(async ({ request }) => {
        const body = (await request.json().catch(() => null)) as Record<string, unknown> | null
        if (!body || typeof body !== 'object' || Array.isArray(body))
          return apiError(400, 'The request body must be a JSON object.')
        const refused = orderCreationError(body)
        if (refused) return refused
        const order: SandboxOrder = {
          id: sandboxId('order'),
          amountPaise: body.amount as number,
          amountPaidPaise: 0,
          currency: 'INR',
          receipt: typeof body.receipt === 'string' ? body.receipt : null,
          notes: (body.notes as Record<string, string> | undefined) ?? {},
          status: 'created',
          attempts: 0,
          createdAtSeconds: nowSeconds(),
        }
        state.orders.set(order.id, order)
        return HttpResponse.json(orderEntity(order))
      }),
    ),
    http.get(
      `${API}/orders/:orderId`,
      authenticated(({ params }) => {
        const order = state.orders.get(params.orderId!)
        return order ? HttpResponse.json(orderEntity(order)) : apiError(400, ID_NOT_FOUND)
      }),
    ),
    http.get(
      `${API}/orders/:orderId/payments`,
      authenticated(({ params }) => {
        if (!state.orders.has(params.orderId!)) return apiError(400, ID_NOT_FOUND)
        const items = [...state.payments.values()]
          .filter((payment) => payment.orderId === params.orderId)
          .map(paymentEntity)
        return HttpResponse.json({ entity: 'collection', count: items.length, items })
      }),
    ),
    http.get(
      `${API}/payments/:paymentId`,
      authenticated(({ params }) => {
        const payment = state.payments.get(params.paymentId!)
        return payment ? HttpResponse.json(paymentEntity(payment)) : apiError(400, ID_NOT_FOUND)
      }),
    ),
    http.post(
      `${API}/payments/:paymentId/refund`,
      authenticated(async ({ params, request }) => {
        if (state.failingRefunds > 0) {
          state.failingRefunds -= 1
          return apiError(502, 'The bank could not be reached. Please try again.', {
            code: 'SERVER_ERROR',
            reason: 'server_error',
          })
        }
        const key = request.headers.get('x-refund-idempotency')
        const repeated = key ? state.refundsByIdempotencyKey.get(key) : undefined
        if (repeated) return HttpResponse.json(refundEntity(repeated))
        const payment = state.payments.get(params.paymentId!)
        if (!payment) return apiError(400, ID_NOT_FOUND)
        if (payment.status !== 'captured' && payment.status !== 'refunded')
          return apiError(400, 'The payment has not been captured yet')
        const body = (await request.json().catch(() => null)) as Record<string, unknown> | null
        const left = payment.amountPaise - refundedPaise(state, payment.id)
        if (left === 0) return apiError(400, 'The payment has been fully refunded already')
        const amount = body?.amount === undefined ? left : body.amount
        if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 100)
          return apiError(400, 'The amount must be atleast INR 1.00', { field: 'amount' })
        if (amount > left)
          return apiError(400, 'The refund amount provided is greater than amount captured', { field: 'amount' })
        const refund: SandboxRefund = {
          id: sandboxId('rfnd'),
          paymentId: payment.id,
          amountPaise: amount,
          notes: (body?.notes as Record<string, string> | undefined) ?? {},
          receipt: typeof body?.receipt === 'string' ? body.receipt : null,
          createdAtSeconds: nowSeconds(),
        }
        state.refunds.set(refund.id, refund)
        if (key) state.refundsByIdempotencyKey.set(key, refund)
        if (refund.amountPaise === left) payment.status = 'refunded'
        return HttpResponse.json(refundEntity(refund))
      }),
    ),
    http.get(
      `${API}/payments/:paymentId/refunds`,
      authenticated(({ params }) => {
        const items = [...state.refunds.values()]
          .filter((refund) => refund.paymentId === params.paymentId)
          .map(refundEntity)
        return HttpResponse.json({ entity: 'collection', count: items.length, items })
      }),
    ),
    // Anything else on Razorpay's host is what Razorpay answers for an unknown URL.
    http.post(
      `${API}/plans`,
      authenticated(async ({ request }) => {
        const body = (await request.json().catch(() => null)) as {
          period?: unknown
          interval?: unknown
          item?: { name?: unknown; amount?: unknown; currency?: unknown }
        } | null
        if (!body || body.period !== 'daily')
          return apiError(400, 'The sandbox takes daily plans only.', { field: 'period' })
        if (typeof body.interval !== 'number' || !Number.isInteger(body.interval) || body.interval < 7)
          return apiError(400, 'For daily plans, the minimum value for interval is 7.', { field: 'interval' })
        const amount = body.item?.amount
        if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < MIN_ORDER_AMOUNT_PAISE)
          return apiError(400, 'The amount must be at least INR 1.00.', { field: 'amount' })
        const plan: SandboxPlan = {
          id: sandboxId('plan'),
          periodDays: body.interval,
          amountPaise: amount,
          name: String(body.item?.name ?? ''),
          createdAtSeconds: nowSeconds(),
        }
        state.plans.set(plan.id, plan)
        return HttpResponse.json({
          id: plan.id,
          entity: 'plan',
          interval: plan.periodDays,
          period: 'daily',
          item: { name: plan.name, amount: plan.amountPaise, currency: 'INR' },
          created_at: plan.createdAtSeconds,
        })
      }),
    ),
    http.post(
      `${API}/subscriptions`,
      authenticated(async ({ request }) => {
        const body = (await request.json().catch(() => null)) as Record<string, unknown> | null
        const plan = typeof body?.plan_id === 'string' ? state.plans.get(body.plan_id) : undefined
        if (!body || !plan) return apiError(400, ID_NOT_FOUND, { field: 'plan_id' })
        const totalCount = body.total_count
        if (typeof totalCount !== 'number' || !Number.isInteger(totalCount) || totalCount < 1)
          return apiError(400, 'The total count field is required.', { field: 'total_count' })
        const startAt = body.start_at
        if (startAt !== undefined && (typeof startAt !== 'number' || startAt <= nowSeconds()))
          return apiError(400, 'start_at cannot be lesser than the current time', { field: 'start_at' })
        const start = typeof startAt === 'number' ? startAt : nowSeconds()
        const subscription: SandboxSubscription = {
          id: sandboxId('sub'),
          planId: plan.id,
          status: 'created',
          totalCount,
          paidCount: 0,
          startAtSeconds: start,
          chargeAtSeconds: start,
          notes: (body.notes as Record<string, string> | undefined) ?? {},
          createdAtSeconds: nowSeconds(),
          lastPaymentId: null,
        }
        state.subscriptions.set(subscription.id, subscription)
        return HttpResponse.json(subscriptionEntity(subscription))
      }),
    ),
    http.get(
      `${API}/subscriptions/:subscriptionId`,
      authenticated(({ params }) => {
        const subscription = state.subscriptions.get(params.subscriptionId!)
        return subscription ? HttpResponse.json(subscriptionEntity(subscription)) : apiError(400, ID_NOT_FOUND)
      }),
    ),
    http.post(
      `${API}/subscriptions/:subscriptionId/cancel`,
      authenticated(({ params }) => {
        const subscription = state.subscriptions.get(params.subscriptionId!)
        if (!subscription) return apiError(400, ID_NOT_FOUND)
        if (subscription.status === 'cancelled' || subscription.status === 'completed')
          return apiError(400, 'Subscription is not cancellable in cancelled status.')
        subscription.status = 'cancelled'
        subscription.chargeAtSeconds = null
        return HttpResponse.json(subscriptionEntity(subscription))
      }),
    ),
    http.all(`${RAZORPAY_API}/*`, () => apiError(400, 'The requested URL was not found on the server.')),
  ]
}

/**
 * Installs the fake API once per process. Requests to any other host pass through untouched
 * (`bypass`), so the app's own calls (object storage, the webhook delivery below) are unaffected.
 */
function installFakeApi(state: SandboxState): void {
  if (state.api) return
  const api = setupServer(...fakeApiHandlers(state))
  api.listen({ onUnhandledRequest: 'bypass' })
  state.api = api
}

// ---------------------------------------------------------------------------------------------
// The sandbox's controls.

/**
 * The sandbox gateway: the real Razorpay client with the sandbox's keys, answered by the fake API
 * (installed on first use). Throws in production mode before installing anything.
 */
export function sandboxGateway(mode: Pick<Env, 'DEMO_MODE' | 'NODE_ENV'> = env): SandboxGateway {
  assertSandboxAllowed(mode)
  const state = sandboxState()
  installFakeApi(state)
  const { keySecret, webhookSecret } = sandboxSecrets()

  function order(orderId: string): SandboxOrder {
    const found = state.orders.get(orderId)
    if (!found) throw new SandboxError(`The sandbox has no order ${orderId}.`, 404)
    return found
  }
  function payment(paymentId: string): SandboxPayment {
    const found = state.payments.get(paymentId)
    if (!found) throw new SandboxError(`The sandbox has no payment ${paymentId}.`, 404)
    return found
  }
  function payOrder(target: SandboxOrder, paid: SandboxPayment) {
    target.status = 'paid'
    target.amountPaidPaise = paid.amountPaise
  }

  return {
    ...razorpayGateway({ keyId: SANDBOX_KEY_ID, keySecret, webhookSecret }),
    name: 'sandbox',
    failNextRefunds(count) {
      state.failingRefunds = count
    },
    pay(orderId, outcome = 'captured', method = 'card') {
      const target = order(orderId)
      if (target.status === 'paid') {
        throw new SandboxError(
          'Your payment has been declined as the order is already paid. Please initiate the payment with a new order.',
          400,
        )
      }
      const created: SandboxPayment = {
        id: sandboxId('pay'),
        orderId,
        amountPaise: target.amountPaise,
        currency: target.currency,
        status: outcome,
        method,
        createdAtSeconds: nowSeconds(),
      }
      state.payments.set(created.id, created)
      target.attempts += 1
      target.status = 'attempted'
      if (outcome === 'captured') payOrder(target, created)
      return {
        razorpay_order_id: orderId,
        razorpay_payment_id: created.id,
        razorpay_signature: checkoutSignature(orderId, created.id, keySecret),
      }
    },
    capture(paymentId) {
      const found = payment(paymentId)
      if (found.status !== 'failed' && found.status !== 'authorized')
        throw new SandboxError(`Payment ${paymentId} is ${found.status}, not failed or authorized.`, 400)
      const target = order(found.orderId)
      if (target.status === 'paid') {
        found.status = 'refunded'
        return
      }
      found.status = 'captured'
      payOrder(target, found)
    },
    webhook(event, paymentId) {
      const found = payment(paymentId)
      const payload: Record<string, { entity: unknown }> = { payment: { entity: paymentEntity(found) } }
      if (event === 'order.paid') payload.order = { entity: orderEntity(order(found.orderId)) }
      const rawBody = JSON.stringify({
        entity: 'event',
        account_id: 'acc_sandbox',
        event,
        contains: Object.keys(payload),
        payload,
        created_at: nowSeconds(),
      })
      return { event, rawBody, signature: webhookSignature(rawBody, webhookSecret), eventId: sandboxId('evt') }
    },
    subscriptionEvent(subscriptionId, action) {
      const subscription = state.subscriptions.get(subscriptionId)
      if (!subscription) throw new SandboxError(`The sandbox has no subscription ${subscriptionId}.`, 404)
      const plan = state.plans.get(subscription.planId)!
      const signed = (event: SandboxSubscriptionEvent | SandboxWebhookEvent, paymentId: string | null) => {
        const payload: Record<string, { entity: unknown }> = {
          subscription: { entity: subscriptionEntity(subscription) },
        }
        const paid = paymentId ? state.payments.get(paymentId) : undefined
        if (paid) payload.payment = { entity: { ...paymentEntity(paid), invoice_id: sandboxId('inv') } }
        const rawBody = JSON.stringify({
          entity: 'event',
          account_id: 'acc_sandbox',
          event,
          contains: Object.keys(payload),
          payload,
          created_at: nowSeconds(),
        })
        return { event, rawBody, signature: webhookSignature(rawBody, webhookSecret), eventId: sandboxId('evt') }
      }
      const refuse = (what: string) => {
        throw new SandboxError(`Subscription ${subscriptionId} is ${subscription.status}: it cannot be ${what}.`, 400)
      }
      switch (action) {
        case 'authorise':
          if (subscription.status !== 'created') refuse('authorised')
          subscription.status = 'authenticated'
          return [signed('subscription.authenticated', null)]
        case 'charge':
        case 'fail': {
          // A pending subscription is one whose charge failed: Razorpay retries it.
          if (!['authenticated', 'active', 'pending'].includes(subscription.status)) refuse('charged')
          const order: SandboxOrder = {
            id: sandboxId('order'),
            amountPaise: plan.amountPaise,
            amountPaidPaise: 0,
            currency: 'INR',
            receipt: null,
            notes: {},
            status: 'attempted',
            attempts: 1,
            createdAtSeconds: nowSeconds(),
          }
          state.orders.set(order.id, order)
          const charged: SandboxPayment = {
            id: sandboxId('pay'),
            orderId: order.id,
            amountPaise: plan.amountPaise,
            currency: 'INR',
            status: action === 'charge' ? 'captured' : 'failed',
            // A mandate's charge: the card the customer authorised (markPaymentPaid does not check a charge's method).
            method: 'card',
            createdAtSeconds: nowSeconds(),
          }
          state.payments.set(charged.id, charged)
          subscription.lastPaymentId = charged.id
          if (action === 'fail') {
            subscription.status = 'pending'
            return [signed('payment.failed', charged.id), signed('subscription.pending', charged.id)]
          }
          payOrder(order, charged)
          subscription.status = 'active'
          subscription.paidCount += 1
          subscription.chargeAtSeconds =
            subscription.paidCount >= subscription.totalCount
              ? null
              : (subscription.chargeAtSeconds ?? nowSeconds()) + plan.periodDays * 86_400
          if (subscription.chargeAtSeconds === null) subscription.status = 'completed'
          return [signed('payment.captured', charged.id), signed('subscription.charged', charged.id)]
        }
        case 'halt':
          if (!['authenticated', 'active', 'pending'].includes(subscription.status)) refuse('halted')
          subscription.status = 'halted'
          subscription.chargeAtSeconds = null
          return [signed('subscription.halted', null)]
        case 'cancel':
          if (subscription.status === 'cancelled' || subscription.status === 'completed') refuse('cancelled')
          subscription.status = 'cancelled'
          subscription.chargeAtSeconds = null
          return [signed('subscription.cancelled', null)]
      }
    },
    async deliverWebhook(delivery, url) {
      const response = await fetch(url, {
        method: 'POST',
        headers: webhookHeaders(delivery),
        body: delivery.rawBody,
        signal: AbortSignal.timeout(WEBHOOK_DELIVERY_TIMEOUT_MS),
      })
      const text = await response.text()
      let body: unknown = text
      try {
        body = JSON.parse(text)
      } catch {
        // Not JSON: reported as text.
      }
      return { event: delivery.event, eventId: delivery.eventId, status: response.status, body }
    },
  }
}
