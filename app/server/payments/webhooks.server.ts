import { getErrorMessage } from '~/domain/error-message'
import { isUuid } from '~/domain/uuid'
import { createHash } from 'node:crypto'
import type { Prisma } from '~/generated/prisma/client'
import { prisma } from '../db.server'
import { paymentGateway } from './gateway/choice.server'
import { isValidWebhookSignature, type GatewayPayment } from './gateway/razorpay.server'
import { payOrLog } from './core.server'
import { matchesOrder, recordGatewayFailure, type GatewayDeps } from './checkout.server'
import { recordGatewayRefundStatus } from './refunds/gateway-refund.server'
import { processSubscriptionEvent } from './mandates.server'
import { noticeFailedMandateCharge } from './mandate-lifecycle.server'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('payments')

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
  method?: unknown
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
    method: typeof entity.method === 'string' ? entity.method : null,
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
  deps: GatewayDeps = {},
): Promise<WebhookResult> {
  const gateway = deps.gateway ?? paymentGateway()
  if (!isValidWebhookSignature(rawBody, signatureHeader, gateway.webhookSecret)) {
    log.warn('Refused a webhook with an invalid signature')
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
    log.error(`Webhook ${eventId} (${type}) failed: ${getErrorMessage(error)}`)
    return { status: 500, outcome: 'error' }
  }
}

/** `refund.processed` and `refund.failed`: a refund the gateway answered "pending" has settled. */
async function processRefundEvent(type: string, event: unknown, now: Date): Promise<WebhookResult['outcome']> {
  const entity = (event as { payload?: { refund?: { entity?: { id?: unknown; notes?: { refundId?: unknown } } } } })
    ?.payload?.refund?.entity
  const status = type === 'refund.processed' ? 'processed' : type === 'refund.failed' ? 'failed' : null
  if (!status || !entity || typeof entity.id !== 'string') return 'ignored'
  const refund = await prisma.refund.findFirst({
    where: {
      OR: [
        { gatewayRefundId: entity.id },
        ...(typeof entity.notes?.refundId === 'string' && isUuid(entity.notes.refundId)
          ? [{ id: entity.notes.refundId }]
          : []),
      ],
    },
    select: { id: true },
  })
  if (!refund) {
    log.warn(`Webhook ${type} for unknown refund ${entity.id}`)
    return 'ignored'
  }
  await recordGatewayRefundStatus(refund.id, entity.id, status, now)
  return 'processed'
}

async function processWebhookEvent(type: string, event: unknown, now: Date): Promise<WebhookResult['outcome']> {
  if (type.startsWith('refund.')) return processRefundEvent(type, event, now)
  const gatewayPayment = paymentEntityOf(event)
  // A failed charge: the customer is told once (the gateway retries; .halted when it gave up).
  if (type === 'subscription.pending') return noticeFailedMandateCharge(type, event)
  if (type === 'subscription.halted') await noticeFailedMandateCharge(type, event)
  if (type.startsWith('subscription.')) return processSubscriptionEvent(type, event, gatewayPayment, now)
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
    log.warn(`Webhook ${type} for unknown order ${gatewayPayment.orderId}`)
    return 'ignored'
  }
  if (gatewayPayment.status !== 'captured' || !matchesOrder(gatewayPayment, payment)) {
    log.error(`Webhook ${type} for payment ${payment.id} is not a matching capture; ignored`)
    return 'ignored'
  }
  await payOrLog(payment.id, gatewayPayment, now, 'webhook')
  return 'processed'
}
