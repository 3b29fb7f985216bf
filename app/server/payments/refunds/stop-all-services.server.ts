import { recordAudit } from '../../audit.server'
import { prisma } from '../../db.server'
import { periodSelect, refundOf } from './periods.server'
import { endSubscription, NothingToEndError } from './end-subscription.server'

// Stopping every service (a suspended or cancelled registration: SEBI's MITC, Annexure B item 8).

/** Every customer's service still running at `effectiveFrom`, with what ending it then gives back. */
export async function stopAllServicesPreview(
  effectiveFrom: Date,
): Promise<{ subscriptions: number; customers: number; refundPaise: number }> {
  const periods = await prisma.subscription.findMany({ where: { endsAt: { gt: effectiveFrom } }, select: periodSelect })
  return {
    subscriptions: new Set(periods.map((period) => `${period.userId}:${period.serviceId}`)).size,
    customers: new Set(periods.map((period) => period.userId)).size,
    refundPaise: periods.reduce((sum, period) => sum + refundOf(period, effectiveFrom), 0),
  }
}

/**
 * Ends every customer's service running at `effectiveFrom` with its proportionate refund as at that
 * date (reason SERVICES_STOPPED), one customer's service per transaction, each audited, and one
 * audit entry for the whole action. Returns what it ended.
 */
export async function stopAllServices({
  effectiveFrom,
  reason,
  adminId,
}: {
  effectiveFrom: Date
  reason: string
  adminId: string
}): Promise<{ subscriptions: number; refundPaise: number }> {
  const running = await prisma.subscription.findMany({
    where: { endsAt: { gt: effectiveFrom } },
    distinct: ['userId', 'serviceId'],
    select: { userId: true, serviceId: true },
  })
  let subscriptions = 0
  let refundPaise = 0
  for (const { userId, serviceId } of running) {
    try {
      const ended = await endSubscription({
        userId,
        serviceId,
        by: { kind: 'admin', adminId },
        reason: 'SERVICES_STOPPED',
        note: reason,
        now: effectiveFrom,
      })
      subscriptions += 1
      refundPaise += ended.refunds.reduce((sum, refund) => sum + refund.amountPaise, 0)
    } catch (error) {
      if (!(error instanceof NothingToEndError)) throw error
    }
  }
  await prisma.$transaction((tx) =>
    recordAudit(tx, {
      actorId: adminId,
      action: 'services.stopped',
      subjectType: 'business',
      subjectId: 'all',
      before: null,
      after: { effectiveFrom: effectiveFrom.toISOString(), reason, subscriptions, refundPaise },
    }),
  )
  return { subscriptions, refundPaise }
}
