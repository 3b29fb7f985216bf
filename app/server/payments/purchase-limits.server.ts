import { cartTotalPaise, readCartSnapshot, type CartItem } from '~/domain/cart'
import {
  feeCapApplies,
  feeCapRefusal,
  feeCapRefusalMessage,
  feeCapWindowStart,
  taxableValuePaise,
  type FeeCapExemption,
  type FeeCapStanding,
} from '~/domain/fee-cap'
import { calendarDateOf } from '~/domain/dates'
import { kycAllowsPayment, kycPaymentRefusal } from '~/domain/kyc'
import { kraRecordPaymentRefusal } from '~/domain/kra-record-match'
import { GATEWAY_LATE_AUTHORISATION_WINDOW_MS, openManualClaimWhere } from '~/domain/payment-status'
import {
  ACCOUNT_CLOSED_MESSAGE,
  advanceRefusalMessage,
  advanceRefusals,
  committedEnds,
  purchasePeriodLabel,
  renewableFrom as firstRenewalDate,
  renewableFromLabel,
  type PurchaseItem,
} from '~/domain/purchase-limits'
import type { Prisma } from '~/generated/prisma/client'
import { businessDetails } from '../business.server'
import { prisma } from '../db.server'
import { env } from '../env.server'
import { familyUserIds } from '../account/family-members.server'
import { kraRecordSelect, kraRecordStateOf } from '../kyc/kra-record.server'
import { lockFamilyPurchases } from './purchase-lock.server'
import { PaymentError } from './payment-error.server'
import { taxableFeesByPayment } from './ledger.server'

export { lockFamilyPurchases }

// The limits on what a customer may buy, checked in one place (assertPurchaseAllowed) by every way
// in: /pay and the JSON API (gateway order, manual claim) and the admin's confirmation of a claim.
// The customer's KYC (a KRA's validated or registered) is the first of them.
// The rules are app/domain/purchase-limits.ts.

type Db = Prisma.TransactionClient | typeof prisma

/** Open gateway orders (CREATED, inside the late-authorisation window) and open manual claims. */
const openPaymentWhere = (now: Date) => ({
  OR: [
    {
      method: 'GATEWAY' as const,
      status: 'CREATED' as const,
      createdAt: { gt: new Date(now.getTime() - GATEWAY_LATE_AUTHORISATION_WINDOW_MS) },
    },
    openManualClaimWhere(now),
  ],
})

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
  // One after the other: `db` is usually a transaction, whose one connection takes one query at a time.
  const latest = await db.subscription.groupBy({ by: ['serviceId'], where: { userId }, _max: { endsAt: true } })
  const open = await db.payment.findMany({
    where: {
      userId,
      ...(excludePaymentId ? { id: { not: excludePaymentId } } : {}),
      ...openPaymentWhere(now),
    },
    orderBy: { createdAt: 'asc' },
    select: { cart: true },
  })
  const latestEnds = new Map(latest.flatMap((row) => (row._max.endsAt ? [[row.serviceId, row._max.endsAt]] : [])))
  return committedEnds(
    now,
    latestEnds,
    open.flatMap((payment) => readCartSnapshot(payment.cart)),
  )
}

/** A customer row's standing against the cap (feeCapApplies). */
export function feeCapStandingOf(customer: {
  feeCapExemption: FeeCapExemption | null
  accreditationValidUntil: Date | null
  accreditationOptInId: string | null
}): FeeCapStanding {
  return {
    exemption: customer.feeCapExemption,
    accreditationValidUntil: customer.accreditationValidUntil ? calendarDateOf(customer.accreditationValidUntil) : null,
    optedIn: customer.accreditationOptInId !== null,
  }
}

/**
 * SEBI's family fee cap: the refusal message for a purchase of `items` by `userId`, or undefined
 * when it fits (or the customer is outside it: feeCapApplies). Counts the family's payments in the window (before
 * GST, less refunds) and its open gateway orders and claims (before GST at the current rate), all
 * but `excludePaymentId`.
 */
export async function feeCapRefusalFor(
  db: Db,
  {
    userId,
    familyIds,
    items,
    now,
    excludePaymentId,
  }: { userId: string; familyIds: readonly string[]; items: readonly CartItem[]; now: Date; excludePaymentId?: string },
): Promise<string | undefined> {
  const customer = await db.user.findUnique({
    where: { id: userId },
    select: { feeCapExemption: true, accreditationValidUntil: true, accreditationOptInId: true },
  })
  if (customer && !feeCapApplies(feeCapStandingOf(customer), now)) return undefined
  const window = env.FEE_CAP_WINDOW
  const rateBasisPoints = businessDetails.gst?.rateBasisPoints ?? 0
  const paid = await taxableFeesByPayment(db, familyIds, feeCapWindowStart(now, window))
  const open = await db.payment.findMany({
    where: {
      userId: { in: [...familyIds] },
      ...(excludePaymentId ? { id: { not: excludePaymentId } } : {}),
      ...openPaymentWhere(now),
    },
    select: { amountPaise: true },
  })
  const refusal = feeCapRefusal({
    now,
    window,
    capPaise: env.FEE_CAP_PAISE,
    paid,
    committedPaise: open.reduce((sum, payment) => sum + taxableValuePaise(payment.amountPaise, rateBasisPoints), 0),
    purchasePaise: taxableValuePaise(cartTotalPaise(items), rateBasisPoints),
  })
  return refusal ? feeCapRefusalMessage(refusal) : undefined
}

/**
 * The refusal a payment by `userId` gets for their KYC (undefined when it allows paying): the KRA's
 * status, then whether its record's name and date of birth are the profile's (or an admin accepted
 * the difference).
 */
export async function kycRefusalFor(db: Db = prisma, userId: string): Promise<string | undefined> {
  const customer = await db.user.findUnique({ where: { id: userId }, select: { kycStatus: true, ...kraRecordSelect } })
  if (!kycAllowsPayment(customer?.kycStatus)) return kycPaymentRefusal(customer?.kycStatus)
  return customer ? kraRecordPaymentRefusal(kraRecordStateOf(customer), businessDetails.supportEmail) : undefined
}

/**
 * THE check of a purchase's limits, inside the transaction that records it (the order, the claim,
 * or the confirmation): takes the family's purchase locks, reads what is committed, and throws a
 * PaymentError (409) naming what may not be bought now. Each limit is one check below.
 */
export async function assertPurchaseAllowed(
  tx: Prisma.TransactionClient,
  {
    userId,
    items,
    now,
    excludePaymentId,
  }: { userId: string; items: readonly CartItem[]; now: Date; excludePaymentId?: string },
): Promise<void> {
  // KYC through a KRA: validated or registered (app/domain/kyc.ts).
  const kycRefusal = await kycRefusalFor(tx, userId)
  if (kycRefusal) throw new PaymentError('kyc', kycRefusal, 403)
  const familyIds = await lockFamilyPurchases(tx, userId)
  // Read under the lock closing takes: a purchase that waited for a closing is refused, not recorded.
  const owner = await tx.user.findUnique({ where: { id: userId }, select: { closedAt: true } })
  if (owner?.closedAt) throw new PaymentError('account-closed', ACCOUNT_CLOSED_MESSAGE, 403)
  const committed = await readCommittedEnds(tx, userId, now, excludePaymentId)
  // SEBI's one-year advance limit.
  const refusals = advanceRefusals(now, committed, items)
  if (refusals.length > 0) throw new PaymentError('advance-limit', advanceRefusalMessage(refusals), 409)
  // SEBI's fee cap per family.
  const overCap = await feeCapRefusalFor(tx, { userId, familyIds, items, now, excludePaymentId })
  if (overCap) throw new PaymentError('fee-cap', overCap, 409)
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
): Promise<{
  renewableFrom: Record<string, string>
  /** The period each service buyable now would run (a renewal from the current end), as /pay states it. */
  periods: Record<string, string>
  refusal: string | undefined
}> {
  const committed = await readCommittedEnds(prisma, userId, now)
  const renewableFrom: Record<string, string> = {}
  const periods: Record<string, string> = {}
  for (const service of services) {
    const paidUpTo = committed.get(service.serviceId)
    const from = firstRenewalDate(now, paidUpTo, service.durationDays)
    if (from instanceof Date) renewableFrom[service.serviceId] = renewableFromLabel(from)
    else if (from === null) periods[service.serviceId] = purchasePeriodLabel(now, paidUpTo, service.durationDays)
  }
  const refusals = advanceRefusals(now, committed, services)
  return { renewableFrom, periods, refusal: refusals.length > 0 ? advanceRefusalMessage(refusals) : undefined }
}

/** What /pay shows before anything is bought: the fee-cap refusal a payment for this cart would get (undefined when it would pass). */
export async function feeCapFor(userId: string, items: readonly CartItem[], now: Date): Promise<string | undefined> {
  const familyIds = await familyUserIds(prisma, userId)
  return feeCapRefusalFor(prisma, { userId, familyIds, items, now })
}
