import { getErrorMessage } from '~/domain/error-message'
import { paymentGateway } from '../gateway/choice.server'
import { GatewayError, type PaymentGateway } from '../gateway/razorpay.server'
import { prisma } from '../../db.server'
import { enqueueGatewayRefund } from '../../jobs/queue.server'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('refunds')

// The refund-payment job: a gateway refund asked of Razorpay, retried with backoff, and what the gateway says of it.

/** Queues a gateway refund; if queueing fails the refund stays PENDING and the admin's Retry (or the next end) queues it. */
export async function queueGatewayRefund(refundId: string): Promise<void> {
  try {
    await enqueueGatewayRefund(refundId)
  } catch (error) {
    log.error(`Could not queue gateway refund ${refundId}: ${getErrorMessage(error)}`)
  }
}
/**
 * The refund's id, so a retry after a lost answer (or a failed call, whatever the admin does) can
 * never refund twice; with a suffix per time the gateway itself reported the refund failed and the
 * admin retried, since Razorpay answers a repeated key with the same failed refund.
 */
async function gatewayRefundIdempotencyKey(refundId: string): Promise<string> {
  const [row] = await prisma.$queryRaw<{ rounds: bigint }[]>`
    SELECT count(*) AS rounds FROM audit_logs
    WHERE action = 'refund.retried' AND subject_type = 'refund' AND subject_id = ${refundId}
      AND before->>'gatewayRefundId' IS NOT NULL`
  const rounds = Number(row?.rounds ?? 0)
  return rounds === 0 ? refundId : `${refundId}-r${rounds}`
}
/**
 * One try of a gateway refund (the refund-payment job): asks Razorpay to refund, with our refund id
 * as its idempotency key, so a retry after a lost answer refunds once. Processed or pending at the
 * gateway is recorded; a failure is thrown for the queue to retry, or on the last attempt (or a
 * refusal that would fail the same way again) recorded as FAILED for the admin.
 */
export async function sendGatewayRefund(
  refundId: string,
  { lastAttempt }: { lastAttempt: boolean },
  gateway: PaymentGateway = paymentGateway(),
  now = new Date(),
): Promise<'processed' | 'pending' | 'failed' | 'skipped'> {
  const refund = await prisma.refund.findUnique({
    where: { id: refundId },
    select: { status: true, amountPaise: true, gatewayRefundId: true, payment: { select: { gatewayPaymentId: true } } },
  })
  if (!refund || refund.status !== 'PENDING' || refund.gatewayRefundId || !refund.payment.gatewayPaymentId)
    return 'skipped'
  await prisma.refund.update({ where: { id: refundId }, data: { attempts: { increment: 1 } } })
  try {
    const answer = await gateway.refundPayment({
      paymentId: refund.payment.gatewayPaymentId,
      amountPaise: refund.amountPaise,
      idempotencyKey: await gatewayRefundIdempotencyKey(refundId),
      notes: { refundId },
    })
    await recordGatewayRefundStatus(refundId, answer.id, answer.status, now)
    return answer.status
  } catch (error) {
    const message = getErrorMessage(error)
    const final = lastAttempt || (error instanceof GatewayError && !error.retryable)
    await prisma.refund.updateMany({
      where: { id: refundId, status: 'PENDING' },
      data: { lastError: message, ...(final ? { status: 'FAILED' } : {}) },
    })
    log.error(`Gateway refund ${refundId} failed${final ? ' for the last time' : ''}: ${message}`)
    if (final) return 'failed'
    throw error
  }
}

/** What the gateway says of a refund (its answer, or a refund.processed / refund.failed webhook). */
export async function recordGatewayRefundStatus(
  refundId: string,
  gatewayRefundId: string,
  status: 'pending' | 'processed' | 'failed',
  now: Date,
): Promise<void> {
  await prisma.refund.updateMany({
    where: { id: refundId, status: { in: ['PENDING', 'FAILED'] } },
    data: {
      gatewayRefundId,
      ...(status === 'processed' ? { status: 'PROCESSED', processedAt: now, lastError: null } : {}),
      ...(status === 'failed' ? { status: 'FAILED', lastError: 'The gateway reported the refund failed' } : {}),
    },
  })
}
