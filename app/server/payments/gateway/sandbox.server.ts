import type { CheckoutAnswer } from '~/domain/checkout-request'
import { GATEWAY_ALLOWED_METHODS, GATEWAY_HIDDEN_METHODS } from '~/domain/gateway-checkout'
import type { Env } from '../../env.server'
import type { PaymentGateway } from './razorpay.server'
import { serverSecret } from '../../secrets.server'

// What the production server knows of the sandbox gateway (demo mode and tests): its keys, when it
// may run, and what it offers beyond the gateway interface. The sandbox itself, the real client
// with these keys whose calls to api.razorpay.com a local fake of Razorpay's API answers (over
// MSW's Node interceptor), is app/demo/razorpay-sandbox.server.ts; choice.server.ts loads
// it, and msw with it, only when the sandbox is used.

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
/** The methods Razorpay reports that the sandbox can pay with: the store's and the ones it refuses. */
export const SANDBOX_PAYMENT_METHODS = [...GATEWAY_ALLOWED_METHODS, ...GATEWAY_HIDDEN_METHODS] as const
export type SandboxPaymentMethod = (typeof SANDBOX_PAYMENT_METHODS)[number]
export type SandboxWebhookEvent = 'payment.captured' | 'payment.failed' | 'order.paid' | 'payment.authorized'
/** Razorpay Subscriptions' events the store handles (docs/payments.md, "Renewals and mandates"). */
export type SandboxSubscriptionEvent =
  | 'subscription.authenticated'
  | 'subscription.charged'
  | 'subscription.pending'
  | 'subscription.halted'
  | 'subscription.cancelled'
/** What the sandbox can make happen to a subscription, as the customer's bank or Razorpay would. */
export type SandboxSubscriptionAction = 'authorise' | 'charge' | 'fail' | 'halt' | 'cancel'
export type WebhookDelivery = {
  event: SandboxWebhookEvent | SandboxSubscriptionEvent
  rawBody: string
  signature: string
  eventId: string
}
export type WebhookDeliveryAnswer = {
  event: SandboxWebhookEvent | SandboxSubscriptionEvent
  eventId: string
  status: number
  body: unknown
}

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

/** The sandbox gateway (app/demo/razorpay-sandbox.server.ts): the real client plus what Razorpay does outside its API. */
export type SandboxGateway = PaymentGateway & {
  name: 'sandbox'
  /** The next `count` refund requests fail as Razorpay's do when the bank is down (HTTP 502), for tests of the retries. */
  failNextRefunds(count: number): void
  /**
   * What checkout.js does when the customer pays: a gateway payment for the order with this
   * outcome, and the three fields the checkout posts back, signed with the sandbox key secret.
   * Refused (SandboxError) for an unknown order and for one already paid. `method` is how the
   * customer paid, as the gateway then reports it (card unless given; a test may choose wallet, emi, ...).
   */
  pay(orderId: string, outcome?: SandboxOutcome, method?: SandboxPaymentMethod): CheckoutAnswer
  /**
   * A payment reported failed or authorized is captured later (late authorisation). If another
   * payment paid the order meanwhile, Razorpay refunds this one instead.
   */
  capture(paymentId: string): void
  /** A webhook delivery as Razorpay signs it: raw body, signature header and event id header. */
  webhook(event: SandboxWebhookEvent, paymentId: string): WebhookDelivery
  /**
   * What happens to a subscription outside the API, with the signed webhooks Razorpay sends for it,
   * in its order: `authorise` (the customer's authorisation: subscription.authenticated), `charge`
   * (a charge at the period's start, or a retry of a failed one: payment.captured, subscription.charged),
   * `fail` (a charge the bank refused: payment.failed, subscription.pending while Razorpay retries),
   * `halt` (retries exhausted: subscription.halted), `cancel`
   * (subscription.cancelled). Refused (SandboxError) for an unknown subscription or one whose state
   * does not allow it (nothing is charged on a cancelled or halted one).
   */
  subscriptionEvent(subscriptionId: string, action: SandboxSubscriptionAction): WebhookDelivery[]
  /** Sends a delivery the way Razorpay's servers do: a POST of the raw body to `url`, with its headers. */
  deliverWebhook(delivery: WebhookDelivery, url: string | URL): Promise<WebhookDeliveryAnswer>
}
