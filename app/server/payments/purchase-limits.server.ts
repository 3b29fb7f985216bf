import { readCartSnapshot } from '~/domain/cart'
import { GATEWAY_LATE_AUTHORISATION_WINDOW_MS, openManualClaimWhere } from '~/domain/payment-status'
import {
  advanceRefusalMessage,
  advanceRefusals,
  committedEnds,
  renewableFrom as firstRenewalDate,
  renewableFromLabel,
  type PurchaseItem,
} from '~/domain/purchase-limits'
import type { Prisma } from '~/generated/prisma/client'
import { prisma } from '../db.server'
import { PaymentError } from './core.server'

// The limits on what a customer may buy, checked in one place (assertPurchaseAllowed) by every way
// in: /pay and the JSON API (gateway order, manual claim) and the admin's confirmation of a claim.
// The rules are app/domain/purchase-limits.ts.

type Db = Prisma.TransactionClient | typeof prisma

/**
 * Serialises one customer's purchases to the end of the transaction: what one checks and then
 * records (an order, a claim) is seen by the next, so two tabs cannot each pass the check.
 */
export async function lockPurchasesOf(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`purchase:${userId}`}, 0))::text`
}

/**
 * Each service's committed paid-up end for the customer: the latest subscription end, then every
 * open gateway order (CREATED, inside the late-authorisation window) and open manual claim chained
 * after it. `excludePaymentId` leaves out the payment being decided (a claim being confirmed, an
 * order being reopened).
 */
export async function readCommittedEnds(
  db: Db,
  userId: string,
  now: Date,
  excludePaymentId?: string,
): Promise<Map<string, Date>> {
  const [latest, open] = await Promise.all([
    db.subscription.groupBy({ by: ['serviceId'], where: { userId }, _max: { endsAt: true } }),
    db.payment.findMany({
      where: {
        userId,
        ...(excludePaymentId ? { id: { not: excludePaymentId } } : {}),
        OR: [
          {
            method: 'GATEWAY',
            status: 'CREATED',
            createdAt: { gt: new Date(now.getTime() - GATEWAY_LATE_AUTHORISATION_WINDOW_MS) },
          },
          openManualClaimWhere(now),
        ],
      },
      orderBy: { createdAt: 'asc' },
      select: { cart: true },
    }),
  ])
  const latestEnds = new Map(latest.flatMap((row) => (row._max.endsAt ? [[row.serviceId, row._max.endsAt]] : [])))
  return committedEnds(
    now,
    latestEnds,
    open.flatMap((payment) => readCartSnapshot(payment.cart)),
  )
}

/**
 * THE check of a purchase's limits, inside the transaction that records it (the order, the claim,
 * or the confirmation): takes the customer's purchase lock, reads what is committed, and throws a
 * PaymentError (409) naming what may not be bought now. Each limit is one check below.
 */
export async function assertPurchaseAllowed(
  tx: Prisma.TransactionClient,
  {
    userId,
    items,
    now,
    excludePaymentId,
  }: { userId: string; items: readonly PurchaseItem[]; now: Date; excludePaymentId?: string },
): Promise<void> {
  await lockPurchasesOf(tx, userId)
  const committed = await readCommittedEnds(tx, userId, now, excludePaymentId)
  // SEBI's one-year advance limit.
  const refusals = advanceRefusals(now, committed, items)
  if (refusals.length > 0) throw new PaymentError('advance-limit', advanceRefusalMessage(refusals), 409)
}

/**
 * What /services and /pay show before anything is bought: "Renewable from DD-MM-YYYY" for each of
 * these services the customer cannot buy yet, and, for a cart, the message a payment would be
 * refused with (undefined when it would pass).
 */
export async function advanceLimitFor(
  userId: string,
  services: readonly PurchaseItem[],
  now: Date,
): Promise<{ renewableFrom: Record<string, string>; refusal: string | undefined }> {
  const committed = await readCommittedEnds(prisma, userId, now)
  const renewableFrom: Record<string, string> = {}
  for (const service of services) {
    const from = firstRenewalDate(now, committed.get(service.serviceId), service.durationDays)
    if (from instanceof Date) renewableFrom[service.serviceId] = renewableFromLabel(from)
  }
  const refusals = advanceRefusals(now, committed, services)
  return { renewableFrom, refusal: refusals.length > 0 ? advanceRefusalMessage(refusals) : undefined }
}
