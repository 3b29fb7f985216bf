import { readCartSnapshot } from '~/domain/cart'
import { advanceExcess } from '~/domain/purchase-limits'
import { excessRefundPaise } from '~/domain/refunds'
import type { Prisma } from '~/generated/prisma/client'
import { invalidate } from '../../cache.server'
import { prisma } from '../../db.server'
import { subscriptionsCacheKey } from '../subscriptions.server'
import { recordRefundInLedger } from '../ledger.server'
import { periodSelect, routeOf } from './periods.server'
import { queueGatewayRefund } from './gateway-refund.server'

/**
 * The advance-limit case: a capture that took a service more than the limit ahead. Shortens the
 * subscription by `excessDays` and refunds that part (reason ADVANCE_LIMIT), in `tx` when given
 * (the caller's transaction) or its own. Returns the refund's id and amount, or null when nothing
 * is to be refunded. The caller queues nothing: call `afterExcessRefund` once `tx` committed.
 */
export async function refundExcess(
  {
    subscriptionId,
    excessDays,
    now,
  }: {
    subscriptionId: string
    excessDays: number
    now: Date
  },
  tx?: Prisma.TransactionClient,
): Promise<{ id: string; amountPaise: number; status: 'DUE' | 'PENDING' } | null> {
  const run = async (db: Prisma.TransactionClient) => {
    const period = await db.subscription.findUniqueOrThrow({ where: { id: subscriptionId }, select: periodSelect })
    if (!period.payment) return null
    const line = readCartSnapshot(period.payment.cart).find((item) => item.serviceId === period.serviceId)
    if (!line) return null
    const refundPaise = excessRefundPaise({ feePaise: line.pricePaise, daysBought: line.durationDays }, excessDays)
    await db.subscription.update({
      where: { id: period.id },
      data: {
        endsAt: new Date(period.endsAt.getTime() - Math.min(excessDays, line.durationDays) * 86_400_000),
        originalEndsAt: period.originalEndsAt ?? period.endsAt,
        endedAt: now,
      },
    })
    if (refundPaise === 0) return null
    const status = routeOf(period.payment) === 'GATEWAY' ? ('PENDING' as const) : ('DUE' as const)
    const refund = await db.refund.create({
      data: {
        userId: period.userId,
        paymentId: period.payment.id,
        subscriptionId: period.id,
        kind: 'EXCESS',
        reason: 'ADVANCE_LIMIT',
        amountPaise: refundPaise,
        status,
        note: `${excessDays} days beyond the one-year advance limit`,
        createdAt: now,
      },
      select: { id: true },
    })
    await recordRefundInLedger(db, { refundId: refund.id, paymentId: period.payment.id, refundPaise, at: now })
    return { id: refund.id, amountPaise: refundPaise, status }
  }
  return tx ? run(tx) : prisma.$transaction(run)
}

export type AdvanceExcessRefund = {
  id: string
  status: 'DUE' | 'PENDING'
  amountPaise: number
  serviceName: string
  excessDays: number
  endsAt: Date
  creditNote: string
}

/**
 * Money captured past the one-year advance limit (a gateway capture that raced the check): each of
 * the payment's subscriptions ending more than ADVANCE_LIMIT_DAYS after `paidAt` is cut by its
 * excess days and that part refunded, in the paying transaction (markPaymentPaid). The caller calls
 * `afterExcessRefund` and tells the customer once the transaction committed.
 */
export async function refundAdvanceExcess(
  tx: Prisma.TransactionClient,
  { subscriptionIds, paidAt }: { subscriptionIds: readonly string[]; paidAt: Date },
): Promise<AdvanceExcessRefund[]> {
  const periods = await tx.subscription.findMany({ where: { id: { in: [...subscriptionIds] } }, select: periodSelect })
  const refunds: AdvanceExcessRefund[] = []
  for (const period of periods) {
    const line = readCartSnapshot(period.payment?.cart ?? []).find((item) => item.serviceId === period.serviceId)
    if (!line) continue
    const { excessDays } = advanceExcess({
      paidAt,
      startsAt: period.startsAt,
      endsAt: period.endsAt,
      durationDays: line.durationDays,
      pricePaise: line.pricePaise,
    })
    if (excessDays === 0) continue
    const refund = await refundExcess({ subscriptionId: period.id, excessDays, now: paidAt }, tx)
    if (!refund) continue
    const entry = await tx.ledgerEntry.findFirstOrThrow({
      where: { refundId: refund.id },
      select: { documentNumber: true },
    })
    const cut = await tx.subscription.findUniqueOrThrow({ where: { id: period.id }, select: { endsAt: true } })
    refunds.push({
      ...refund,
      serviceName: line.name,
      excessDays,
      endsAt: cut.endsAt,
      creditNote: entry.documentNumber,
    })
  }
  return refunds
}

/** After the transaction that made an excess refund committed: the gateway refund is queued. */
export async function afterExcessRefund(
  refund: { id: string; status: 'DUE' | 'PENDING' },
  userId: string,
): Promise<void> {
  await invalidate(subscriptionsCacheKey(userId))
  if (refund.status === 'PENDING') await queueGatewayRefund(refund.id)
}
