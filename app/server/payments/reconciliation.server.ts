import { getErrorMessage } from '~/domain/error-message'
import { GATEWAY_LATE_AUTHORISATION_WINDOW_MS, statusesFor } from '~/domain/payment-status'
import type { Prisma } from '~/generated/prisma/client'
import { prisma } from '../db.server'
import { afterKey, batchesInKeyOrder } from '../keyset.server'
import { paymentGateway } from '../payment-gateway.server'
import type { PaymentGateway } from '../razorpay.server'
import { invalidateUserPayments } from './core.server'
import { payIfCaptured, type GatewayDeps, type OrderTerms } from './gateway.server'

/** The checkout normally answers within minutes; an order still open after this is asked about. */
export const RECONCILE_AFTER_MS = 15 * 60_000
/** Orders read per query: a run goes through the due orders a batch at a time. */
export const RECONCILE_BATCH_SIZE = 100
/** A run stops taking new batches after this, inside the 5-minute schedule; the next run starts again from the oldest. */
export const RECONCILE_RUN_MAX_MS = 4 * 60_000

export type ReconcileReport = { checked: number; paid: number; abandoned: number; errors: number }

/**
 * The job that never loses a paid order: gateway payments still open (CREATED), failed or
 * cancelled more than RECONCILE_AFTER_MS ago and inside the late-authorisation window are asked
 * about; a captured payment for the order pays it. Open orders with no payment attempt, and open
 * orders older than the window, are given up (CANCELLED, which a capture arriving later still pays).
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
    for (const payment of candidates) await reconcileOrder(gateway, payment, now, windowStart, report)
    if (Date.now() - startedAt > RECONCILE_RUN_MAX_MS) break
  }
  return report
}

async function reconcileOrder(
  gateway: PaymentGateway,
  payment: { id: string; userId: string; createdAt: Date; gatewayOrderId: string | null } & OrderTerms,
  now: Date,
  windowStart: Date,
  report: ReconcileReport,
): Promise<void> {
  try {
    const { attempts, captured, paid } = await payIfCaptured(
      gateway,
      { ...payment, gatewayOrderId: payment.gatewayOrderId! },
      now,
    )
    if (captured) {
      if (paid) report.paid += 1
    } else if (attempts.length === 0 || payment.createdAt <= windowStart) {
      // No attempt at all: the customer left the checkout. Still payable should they come back to it.
      const { count } = await prisma.payment.updateMany({
        where: { id: payment.id, status: { in: statusesFor('GATEWAY', 'abandoned') } },
        data: {
          status: 'CANCELLED',
          failureReason:
            attempts.length === 0
              ? 'No payment was attempted for this order.'
              : 'No payment was captured for this order.',
        },
      })
      if (count > 0) {
        report.abandoned += 1
        await invalidateUserPayments(payment.userId)
      }
    }
  } catch (error) {
    report.errors += 1
    console.error(`[payments] reconciliation of payment ${payment.id} failed: ${getErrorMessage(error)}`)
  }
}
