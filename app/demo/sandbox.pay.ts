import { z } from 'zod'
import { apiError, postOnly, readJsonBody } from '~/server/api/requests.server'
import { demoSandbox } from '~/server/payments/gateway/choice.server'
import {
  SANDBOX_PAYMENT_METHODS,
  SandboxError,
  WEBHOOK_EVENTS_FOR_OUTCOME,
  webhookHeaders,
  type WebhookDeliveryAnswer,
} from '~/server/payments/gateway/sandbox.server'
import type { Route } from './+types/sandbox.pay'

const Body = z.object({
  orderId: z.string({ error: 'Send orderId.' }).min(1, 'Send orderId.'),
  outcome: z.enum(['captured', 'authorized', 'failed']).default('captured'),
  method: z
    .enum(SANDBOX_PAYMENT_METHODS, { error: `method is one of ${SANDBOX_PAYMENT_METHODS.join(', ')}.` })
    .default('card'),
  webhook: z.enum(['payment.captured', 'payment.failed', 'order.paid', 'payment.authorized']).optional(),
  deliverWebhook: z.boolean({ error: 'deliverWebhook is true or false.' }).default(false),
})

export const loader = postOnly

/**
 * Demo and tests only (404 in a deployment): what checkout.js hands the page when the customer pays
 * `orderId` in the sandbox (`razorpayResponse`). Optionally the signed webhook Razorpay's servers
 * would send for that payment (`webhook`: raw body and headers, for the caller to POST to
 * /webhooks/razorpay, as often as it likes); or, with `deliverWebhook`, the sandbox itself posts
 * Razorpay's events for the outcome to this store's /webhooks/razorpay, one after the other, and
 * reports each answer (`webhookDeliveries`). `method` is how the customer paid (card unless given).
 */
export async function action({ request }: Route.ActionArgs) {
  const sandbox = await demoSandbox()
  if (!sandbox) return apiError(404, 'Not Found')
  const { orderId, outcome, method, webhook, deliverWebhook } = await readJsonBody(request, Body)
  let razorpayResponse: ReturnType<typeof sandbox.pay>
  try {
    razorpayResponse = sandbox.pay(orderId, outcome, method)
  } catch (error) {
    if (error instanceof SandboxError) return apiError(error.status, error.message)
    throw error
  }
  const paymentId = razorpayResponse.razorpay_payment_id
  const delivery = webhook ? sandbox.webhook(webhook, paymentId) : null
  const webhookDeliveries: WebhookDeliveryAnswer[] = []
  if (deliverWebhook) {
    const webhookUrl = new URL('/webhooks/razorpay', request.url)
    for (const event of WEBHOOK_EVENTS_FOR_OUTCOME[outcome]) {
      webhookDeliveries.push(await sandbox.deliverWebhook(sandbox.webhook(event, paymentId), webhookUrl))
    }
  }
  return Response.json({
    razorpayResponse,
    ...(delivery ? { webhook: { body: delivery.rawBody, headers: webhookHeaders(delivery) } } : {}),
    ...(deliverWebhook ? { webhookDeliveries } : {}),
  })
}
