import { getErrorMessage } from '~/domain/error-message'
import { GATEWAY_LATE_AUTHORISATION_WINDOW_MS, statusesFor } from '~/domain/payment-status'
import type { Prisma } from '~/generated/prisma/client'
import { prisma } from '../db.server'
import { afterKey, batchesInKeyOrder } from '../keyset.server'
import { paymentGateway } from './gateway/choice.server'
import type { PaymentGateway } from './gateway/razorpay.server'
import { invalidateUsersPayments } from './core.server'
import { payIfCaptured, type GatewayDeps, type OrderTerms } from './checkout.server'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('payments')

/** The checkout normally answers within minutes; an order still open after this is asked about. */
export const RECONCILE_AFTER_MS = 15 * 60_000
/** Orders read per query: a run goes through the due orders a batch at a time. */
export const RECONCILE_BATCH_SIZE = 100
/** A run stops taking new batches after this, inside the 5-minute schedule; the next run starts again from the oldest. */
export const RECONCILE_RUN_MAX_MS = 4 * 60_000
/**
 * Orders of a batch asked about at once. Each waits on the gateway (~200 ms a call from Razorpay, so
 * one at a time a run asked about ~1,200 orders) and may hold one of the instance's 10 pooled
 * connections (db.server.ts) while it pays: 6 leave 4 for the pages the same instance serves. Razorpay
 * publishes no API rate limit; should it answer 429, that is a GatewayError like any other: the order
 * is counted as an error and asked about again by the next run.
 */
export const RECONCILE_CONCURRENCY = 6

export type ReconcileReport = { checked: number; paid: number; abandoned: number; errors: number }

type DueOrder = { id: string; userId: string; createdAt: Date; gatewayOrderId: string | null } & OrderTerms

const NO_ATTEMPT_REASON = 'No payment was attempted for this order.'
const NO_CAPTURE_REASON = 'No payment was captured for this order.'
type GiveUpReason = typeof NO_ATTEMPT_REASON | typeof NO_CAPTURE_REASON
type GivingUp = { payment: DueOrder; reason: GiveUpReason }

/**
 * The job that never loses a paid order: gateway payments still open (CREATED), failed or
 * cancelled more than RECONCILE_AFTER_MS ago and inside the late-authorisation window are asked
 * about; a captured payment for the order pays it. Open orders with no payment attempt, and open
 * orders older than the window, are given up (CANCELLED, which a capture arriving later still pays).
 * A batch's orders are asked about RECONCILE_CONCURRENCY at a time; its give-ups are written
 * together at the end of the batch, each only if the order is still open then (a webhook may have
 * paid it meanwhile), and the customers touched are announced to the other instances at once.
 * Paying is markPaymentPaid's, which locks the row: whatever else pays the same order at the same
 * time (a webhook, the checkout, another instance's run), it is paid once.
 */
export async function reconcileOpenOrders(
  now: Date,
  deps: Omit<GatewayDeps, 'now'> & { batchRows?: number } = {},
): Promise<ReconcileReport> {
  const gateway = deps.gateway ?? paymentGateway()
  const windowStart = new Date(now.getTime() - GATEWAY_LATE_AUTHORISATION_WINDOW_MS)
  const due = {
    method: 'GATEWAY',
    gatewayOrderId: { not: null },
    createdAt: { lte: new Date(now.getTime() - RECONCILE_AFTER_MS) },
    // Inside the window every unpaid state is asked about; past it, open orders get a last look before being given up.
    OR: [{ status: { in: statusesFor('GATEWAY', 'paid') }, createdAt: { gt: windowStart } }, { status: 'CREATED' }],
  } satisfies Prisma.PaymentWhereInput
  const report: ReconcileReport = { checked: 0, paid: 0, abandoned: 0, errors: 0 }
  const startedAt = Date.now()
  // In (created, id) order from the oldest: an order that stays due (asked, not captured) does not hold back the newer ones.
  const batches = batchesInKeyOrder(
    (key, take) =>
      prisma.payment.findMany({
        where: { AND: [due, afterKey('createdAt', key)] },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take,
        select: { id: true, userId: true, createdAt: true, gatewayOrderId: true, amountPaise: true, currency: true },
      }),
    (payment) => ({ at: payment.createdAt, id: payment.id }),
    deps.batchRows ?? RECONCILE_BATCH_SIZE,
  )
  for await (const candidates of batches) {
    report.checked += candidates.length
    const givingUp: GivingUp[] = []
    await forEachConcurrently(candidates, RECONCILE_CONCURRENCY, async (payment) => {
      const reason = await reconcileOrder(gateway, payment, now, windowStart, report)
      if (reason) givingUp.push({ payment, reason })
    })
    await giveUp(givingUp, report)
    if (Date.now() - startedAt > RECONCILE_RUN_MAX_MS) break
  }
  return report
}

/** Runs `work` on every item, at most `limit` at a time. `work` must not throw. */
async function forEachConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0
  const worker = async () => {
    while (next < items.length) await work(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

/** Asks about one order and pays it when captured; says why to give it up, if it is to be. */
async function reconcileOrder(
  gateway: PaymentGateway,
  payment: DueOrder,
  now: Date,
  windowStart: Date,
  report: ReconcileReport,
): Promise<GiveUpReason | null> {
  try {
    const { attempts, captured, paid } = await payIfCaptured(
      gateway,
      { ...payment, gatewayOrderId: payment.gatewayOrderId! },
      now,
    )
    if (captured) {
      if (paid) report.paid += 1
      return null
    }
    // No attempt at all: the customer left the checkout. Still payable should they come back to it.
    if (attempts.length === 0) return NO_ATTEMPT_REASON
    return payment.createdAt <= windowStart ? NO_CAPTURE_REASON : null
  } catch (error) {
    report.errors += 1
    log.error(`Reconciliation of payment ${payment.id} failed: ${getErrorMessage(error)}`)
    return null
  }
}

/** The batch's give-ups: one UPDATE per reason, of the orders still open; one announcement for their customers. */
async function giveUp(givingUp: GivingUp[], report: ReconcileReport): Promise<void> {
  const changedUsers: string[] = []
  for (const failureReason of [NO_ATTEMPT_REASON, NO_CAPTURE_REASON]) {
    const payments = givingUp.filter((order) => order.reason === failureReason).map((order) => order.payment)
    if (!payments.length) continue
    try {
      const cancelled = await prisma.payment.updateManyAndReturn({
        where: {
          id: { in: payments.map((payment) => payment.id) },
          status: { in: statusesFor('GATEWAY', 'abandoned') },
        },
        data: { status: 'CANCELLED', failureReason },
        select: { userId: true },
      })
      report.abandoned += cancelled.length
      changedUsers.push(...cancelled.map((payment) => payment.userId))
    } catch (error) {
      report.errors += payments.length
      log.error(
        `Reconciliation could not give up payments ${payments.map((payment) => payment.id).join(', ')}: ${getErrorMessage(error)}`,
      )
    }
  }
  await invalidateUsersPayments(changedUsers)
}
