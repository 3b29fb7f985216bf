import type { CartItem } from '~/domain/cart'
import { MS_PER_DAY } from '~/domain/dates'
import { nextPeriod } from '~/domain/subscriptions'
import type { Prisma } from '~/generated/prisma/client'
import { cached, forget, invalidate } from '../cache.server'
import { prisma } from '../db.server'

export const subscriptionsCacheKey = (userId: string) => `subscriptions:${userId}`

/**
 * The latest end of the user's subscriptions to each service, read under a per-user lock held to
 * the end of the transaction: two payments (or a payment and a grant) of one user for one service
 * must chain, not overlap.
 */
async function lockCurrentEnds(
  tx: Prisma.TransactionClient,
  userId: string,
  serviceIds: string[],
): Promise<Map<string, Date | null>> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`subscriptions:${userId}`}, 0))::text`
  const currentEnds = await tx.subscription.groupBy({
    by: ['serviceId'],
    where: { userId, serviceId: { in: serviceIds } },
    _max: { endsAt: true },
  })
  return new Map(currentEnds.map((row) => [row.serviceId, row._max.endsAt]))
}

/**
 * A subscription an admin gives without a payment (complimentary, or to correct a mistake): it
 * chains after the customer's current one to that service like a purchase does. `onGranted` runs
 * in the same transaction (the admin console writes its audit entry there).
 */
export async function grantSubscription(
  {
    userId,
    serviceId,
    durationDays,
    reason,
    grantedById,
    now,
  }: { userId: string; serviceId: string; durationDays: number; reason: string; grantedById: string; now: Date },
  onGranted: (tx: Prisma.TransactionClient, granted: { id: string; startsAt: Date; endsAt: Date }) => Promise<void>,
): Promise<{ id: string; startsAt: Date; endsAt: Date }> {
  const granted = await prisma.$transaction(async (tx) => {
    const currentEndOf = await lockCurrentEnds(tx, userId, [serviceId])
    const created = await tx.subscription.create({
      data: {
        userId,
        serviceId,
        ...nextPeriod(now, currentEndOf.get(serviceId) ?? null, durationDays),
        grantReason: reason,
        grantedById,
      },
      select: { id: true, startsAt: true, endsAt: true },
    })
    await onGranted(tx, created)
    return created
  })
  await invalidate(subscriptionsCacheKey(userId))
  return granted
}

/**
 * The subscriptions a payment buys, one per cart item, each chained after the customer's current
 * one to that service. Runs inside markPaymentPaid's transaction (app/server/payments/core.server.ts),
 * the only caller: a payment becomes subscriptions nowhere else. One that would end more than a
 * year ahead (a gateway capture that raced the advance check) is cut and its excess refunded by
 * markPaymentPaid (refundAdvanceExcess in app/server/payments/refunds/advance-excess.server.ts).
 */
export async function createPaidSubscriptions(
  tx: Prisma.TransactionClient,
  { userId, paymentId, items, paidAt }: { userId: string; paymentId: string; items: readonly CartItem[]; paidAt: Date },
): Promise<string[]> {
  const currentEndOf = await lockCurrentEnds(
    tx,
    userId,
    items.map((item) => item.serviceId),
  )
  const created = await tx.subscription.createManyAndReturn({
    select: { id: true },
    data: items.map((item) => ({
      userId,
      serviceId: item.serviceId,
      paymentId,
      ...nextPeriod(paidAt, currentEndOf.get(item.serviceId) ?? null, item.durationDays),
    })),
  })
  return created.map((row) => row.id)
}

export type ActiveSubscription = {
  serviceId: string
  name: string
  description: string[]
  /** The latest end over all of the user's subscriptions to this service. */
  endsAt: Date
  /** Whether the service is on sale (can be renewed). */
  onSale: boolean
}

/** One entry per service the user ever had, with its latest end; cached per user for CACHE_TTL_MS. */
async function latestSubscriptionPerService(userId: string, { fresh = false } = {}): Promise<ActiveSubscription[]> {
  if (fresh) forget(subscriptionsCacheKey(userId))
  return cached(subscriptionsCacheKey(userId), async () => {
    const latest = await prisma.subscription.groupBy({ by: ['serviceId'], where: { userId }, _max: { endsAt: true } })
    const services = await prisma.service.findMany({
      where: { id: { in: latest.map((row) => row.serviceId) } },
      select: { id: true, name: true, description: true, active: true },
    })
    const serviceById = new Map(services.map((service) => [service.id, service]))
    return latest
      .map((row) => {
        const service = serviceById.get(row.serviceId)!
        return {
          serviceId: row.serviceId,
          name: service.name,
          description: service.description,
          endsAt: row._max.endsAt!,
          onSale: service.active,
        }
      })
      .sort((a, b) => a.endsAt.getTime() - b.endsAt.getTime() || a.name.localeCompare(b.name))
  })
}

/**
 * One entry per service with its latest end, only those still running at `now`. Cached per user
 * for CACHE_TTL_MS; `fresh` re-reads (a page reached from a payment always does).
 */
export async function activeSubscriptions(
  userId: string,
  now: Date,
  options: { fresh?: boolean } = {},
): Promise<ActiveSubscription[]> {
  const all = await latestSubscriptionPerService(userId, options)
  return all.filter((subscription) => subscription.endsAt > now)
}

/** How long after its end /subscriptions still offers to renew a service, in days (docs/limits.md). */
export const RENEW_OFFERED_DAYS_AFTER_END = 30

/** The services whose latest period ended in the last RENEW_OFFERED_DAYS_AFTER_END days, latest first. */
export async function recentlyEndedSubscriptions(
  userId: string,
  now: Date,
  options: { fresh?: boolean } = {},
): Promise<ActiveSubscription[]> {
  const since = now.getTime() - RENEW_OFFERED_DAYS_AFTER_END * MS_PER_DAY
  const all = await latestSubscriptionPerService(userId, options)
  return all.filter((subscription) => subscription.endsAt <= now && subscription.endsAt.getTime() > since).reverse()
}
