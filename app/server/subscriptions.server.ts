import type { CartItem } from '~/domain/cart'
import { renewalStartsAt, subscriptionEndsAt } from '~/domain/dates'
import type { PaymentMethod, PaymentStatus, Prisma } from '~/generated/prisma/client'
import { cached, forget, invalidate } from './cache.server'
import { prisma } from './db.server'
import { notifyPaymentConfirmed } from './notify.server'

/** Which path learnt that the payment is paid; recorded on the payment for the audit trail. */
export type PaidSource = 'checkout' | 'reverify' | 'callback' | 'webhook' | 'reconciliation' | 'admin'

const GATEWAY_SOURCES: readonly PaidSource[] = ['checkout', 'reverify', 'callback', 'webhook', 'reconciliation']

/**
 * Gateway payments in these states can still become paid: FAILED is not final (late authorisation),
 * and CANCELLED only means the customer closed the checkout, so a capture that still arrives was
 * money taken and must be honoured (research/razorpay.md section 5).
 */
const PAYABLE_GATEWAY_STATUSES: readonly PaymentStatus[] = ['CREATED', 'FAILED', 'CANCELLED']

/** Interactive transactions wait this long for the payment row lock held by a racing path. */
const MARK_PAID_TRANSACTION_TIMEOUT_MS = 15_000

/**
 * Razorpay gives a webhook 5 s to be answered. A webhook that cannot have the payment row (or a
 * connection) within this time gives up and is answered 500; Razorpay's retry finds it paid or pays it.
 */
export const WEBHOOK_PAY_WAIT_MS = 3_000

export class PaymentStateError extends Error {
  override name = 'PaymentStateError'
  constructor(
    message: string,
    readonly reason: 'not-found' | 'final' | 'expired' | 'wrong-source' | 'missing-gateway-payment-id',
  ) {
    super(message)
  }
}

export const subscriptionsCacheKey = (userId: string) => `subscriptions:${userId}`
export const pendingPaymentsCacheKey = (userId: string) => `pending-payments:${userId}`

/** Every write to a user's payments or subscriptions calls this after it commits. */
export function invalidateUserPayments(userId: string): Promise<void> {
  return invalidate(subscriptionsCacheKey(userId), pendingPaymentsCacheKey(userId))
}

export type MarkPaidResult = { alreadyPaid: boolean; paymentId: string; userId: string }

type LockedPayment = {
  id: string
  user_id: string
  method: PaymentMethod
  status: PaymentStatus
  cart: CartItem[]
  expires_at: Date | null
}

/** What the transaction that paid a payment made, for a caller's own writes in that transaction (the audit log). */
export type PaidPayment = { paymentId: string; userId: string; status: PaymentStatus; subscriptionIds: string[] }

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
    const startsAt = renewalStartsAt(now, currentEndOf.get(serviceId) ?? null)
    const created = await tx.subscription.create({
      data: {
        userId,
        serviceId,
        startsAt,
        endsAt: subscriptionEndsAt(startsAt, durationDays),
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
 * THE one path from a payment to subscriptions. Checkout verify, re-verify, the hosted-checkout
 * callback, webhooks, the reconciliation job and the admin console all call this. In one
 * transaction it locks the payment row, marks it PAID and creates one subscription per cart item,
 * so whatever order or concurrency those paths run in, a payment pays exactly once.
 */
export async function markPaymentPaid(
  paymentId: string,
  {
    gatewayPaymentId,
    paidAt,
    source,
    onPaid,
  }: {
    gatewayPaymentId?: string
    paidAt: Date
    source: PaidSource
    /** Runs inside the paying transaction, only when this call is the one that paid. */
    onPaid?: (tx: Prisma.TransactionClient, paid: PaidPayment) => Promise<void>
  },
): Promise<MarkPaidResult> {
  const waitMs = source === 'webhook' ? WEBHOOK_PAY_WAIT_MS : MARK_PAID_TRANSACTION_TIMEOUT_MS
  const result = await prisma.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT set_config('lock_timeout', ${`${waitMs}ms`}, true)`
      const [payment] = await tx.$queryRaw<LockedPayment[]>`
        SELECT id::text, user_id::text, method, status, cart, expires_at FROM payments WHERE id = ${paymentId}::uuid FOR UPDATE`
      if (!payment) throw new PaymentStateError(`Payment ${paymentId} does not exist`, 'not-found')
      if (payment.status === 'PAID') return { alreadyPaid: true, paymentId, userId: payment.user_id }

      if (payment.method === 'GATEWAY') {
        if (!GATEWAY_SOURCES.includes(source)) {
          throw new PaymentStateError(
            `Gateway payment ${paymentId} is confirmed by the gateway, not by ${source}`,
            'wrong-source',
          )
        }
        if (!PAYABLE_GATEWAY_STATUSES.includes(payment.status)) {
          throw new PaymentStateError(`Gateway payment ${paymentId} is ${payment.status} and cannot be paid`, 'final')
        }
        if (!gatewayPaymentId)
          throw new PaymentStateError(
            `Gateway payment ${paymentId} needs the gateway payment id`,
            'missing-gateway-payment-id',
          )
      } else {
        if (source !== 'admin')
          throw new PaymentStateError(`Manual payment ${paymentId} is confirmed only by an admin`, 'wrong-source')
        // REJECTED and EXPIRED are final: the customer submits a new claim.
        if (payment.status !== 'PENDING_VERIFICATION') {
          throw new PaymentStateError(`Manual payment ${paymentId} is ${payment.status} and cannot be paid`, 'final')
        }
        // Past its 7 days a claim is expired even before the settle-payments job has marked it so.
        if (!payment.expires_at || payment.expires_at <= paidAt) {
          throw new PaymentStateError(`Manual payment ${paymentId} expired and cannot be paid`, 'expired')
        }
      }

      await tx.payment.update({
        where: { id: paymentId },
        data: { status: 'PAID', paidAt, paidVia: source, ...(gatewayPaymentId ? { gatewayPaymentId } : {}) },
      })

      const currentEndOf = await lockCurrentEnds(
        tx,
        payment.user_id,
        payment.cart.map((item) => item.serviceId),
      )
      const created = await tx.subscription.createManyAndReturn({
        select: { id: true },
        data: payment.cart.map((item) => {
          const startsAt = renewalStartsAt(paidAt, currentEndOf.get(item.serviceId) ?? null)
          return {
            userId: payment.user_id,
            serviceId: item.serviceId,
            paymentId,
            startsAt,
            endsAt: subscriptionEndsAt(startsAt, item.durationDays),
          }
        }),
      })
      await onPaid?.(tx, {
        paymentId,
        userId: payment.user_id,
        status: payment.status,
        subscriptionIds: created.map((row) => row.id),
      })
      return { alreadyPaid: false, paymentId, userId: payment.user_id }
    },
    { timeout: MARK_PAID_TRANSACTION_TIMEOUT_MS, maxWait: waitMs },
  )
  await invalidateUserPayments(result.userId)
  if (!result.alreadyPaid) {
    console.info(`[payments] payment ${paymentId} paid via ${source}`)
    // Never fails the payment: it is paid; the e-mail is queued and retried on its own.
    await notifyPaymentConfirmed(paymentId).catch((error: unknown) =>
      console.error(`[payments] confirmation e-mail for ${paymentId} not queued:`, error),
    )
  }
  return result
}

export type ActiveSubscription = {
  serviceId: string
  name: string
  description: string[]
  /** The latest end over all of the user's subscriptions to this service. */
  endsAt: Date
}

/**
 * One entry per service with its latest end, only those still running at `now`. Cached per user
 * for CACHE_TTL_MS; `fresh` re-reads (a page reached from a payment always does).
 */
export async function activeSubscriptions(
  userId: string,
  now: Date,
  { fresh = false } = {},
): Promise<ActiveSubscription[]> {
  if (fresh) forget(subscriptionsCacheKey(userId))
  const all = await cached(subscriptionsCacheKey(userId), async () => {
    const latest = await prisma.subscription.groupBy({ by: ['serviceId'], where: { userId }, _max: { endsAt: true } })
    const services = await prisma.service.findMany({
      where: { id: { in: latest.map((row) => row.serviceId) } },
      select: { id: true, name: true, description: true },
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
        }
      })
      .sort((a, b) => a.endsAt.getTime() - b.endsAt.getTime() || a.name.localeCompare(b.name))
  })
  return all.filter((subscription) => subscription.endsAt > now)
}

/**
 * A gateway order that got no captured payment is given up after this long: Razorpay keeps
 * polling the bank for late authorisation for 3 days (some pages say 5), so we wait 5.
 */
export const GATEWAY_LATE_AUTHORISATION_WINDOW_MS = 5 * 24 * 60 * 60_000

export type PendingPayment = {
  id: string
  method: PaymentMethod
  amountPaise: number
  currency: string
  cart: CartItem[]
  createdAt: Date
  /** Manual: when the unconfirmed claim is dismissed. Gateway: null. */
  expiresAt: Date | null
  /** Manual: the bank transfer reference the customer gave, if any. */
  utr: string | null
}

/**
 * SPEC "Payment(s) Pending for Verification": manual claims still awaiting the team (not past
 * expiresAt), and gateway payments whose order is open (CREATED) inside the late-authorisation
 * window, i.e. the gateway may still report them paid. FAILED and CANCELLED ones are not shown:
 * the customer was told they failed or closed the checkout; should they be captured late, they
 * simply turn into subscriptions.
 */
export async function pendingPayments(userId: string, now: Date, { fresh = false } = {}): Promise<PendingPayment[]> {
  if (fresh) forget(pendingPaymentsCacheKey(userId))
  const all = await cached(pendingPaymentsCacheKey(userId), async () => {
    const rows = await prisma.payment.findMany({
      where: { userId, status: { in: ['PENDING_VERIFICATION', 'CREATED'] } },
      orderBy: { createdAt: 'desc' },
      select: {
        id: true,
        method: true,
        status: true,
        amountPaise: true,
        currency: true,
        cart: true,
        createdAt: true,
        expiresAt: true,
        utr: true,
      },
    })
    return rows.map(({ status: _status, cart, ...row }) => ({ ...row, cart: cart as CartItem[] }))
  })
  return all.filter((payment) =>
    payment.method === 'MANUAL'
      ? payment.expiresAt !== null && payment.expiresAt > now
      : now.getTime() - payment.createdAt.getTime() < GATEWAY_LATE_AUTHORISATION_WINDOW_MS,
  )
}
