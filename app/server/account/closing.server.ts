import { formatIndiaDate } from '~/domain/dates'
import { getErrorMessage } from '~/domain/error-message'
import { formatRupees } from '~/domain/money'
import { GATEWAY_LATE_AUTHORISATION_WINDOW_MS, openManualClaimWhere, statusesFor } from '~/domain/payment-status'
import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'
import { loggerFor } from '../operations/logger.server'
import { invalidateUserPayments, pendingPayments } from '../payments/core.server'
import { payIfCaptured } from '../payments/checkout.server'
import { paymentGateway } from '../payments/gateway/choice.server'
import type { PaymentGateway } from '../payments/gateway/razorpay.server'
import { lockFamilyPurchases } from '../payments/purchase-lock.server'
import {
  afterEnding,
  BankAccountNeededError,
  endingPreview,
  endSubscriptionIn,
  type EndedService,
} from '../payments/refunds/end-subscription.server'

const log = loggerFor('account')

// Closing an account (docs/regulatory.md, The customer's data; DPDP Act s.6(4) withdrawal of consent, s.12 erasure): the
// running services end with their proportionate refund (as /subscriptions/:id/end), its open
// payments are cancelled (docs/payments.md, "Closing an account and late money"), every session
// ends, and the row is marked closed: one transaction under the customer's purchase lock, the one
// markPaymentPaid takes, so a payment is either paid before (and its service ended here) or
// refunded in full after. What SEBI requires (KYC, acceptances, payments,
// invoices, refunds) stays for 5 years (payments longer, for GST) and is then erased by the retention
// job: docs/regulatory.md has the table.

export type ClosingService = { serviceId: string; serviceName: string; endsAt: Date; refundPaise: number }

/** An open payment closing cancels, as the page lists it. */
export type CancelledByClosing = { method: 'GATEWAY' | 'MANUAL'; amountPaise: number }

export type ClosingPlan =
  | { ok: true; services: ClosingService[]; cancels: CancelledByClosing[] }
  | { ok: false; message: string; serviceId?: string }

/** The services still running at `now`, one per service, with what ending each gives back. */
async function runningServices(userId: string, now: Date) {
  const rows = await prisma.subscription.findMany({
    where: { userId, endsAt: { gt: now } },
    distinct: ['serviceId'],
    orderBy: { serviceId: 'asc' },
    select: { serviceId: true },
  })
  const previews = await Promise.all(
    rows.map(async (row) => ({ serviceId: row.serviceId, preview: await endingPreview(userId, row.serviceId, now) })),
  )
  return previews.flatMap(({ serviceId, preview }) => (preview ? [{ serviceId, ...preview }] : []))
}

/**
 * What closing at `now` would do, or why it cannot happen yet: a refund due by bank transfer needs
 * the account it goes to, which the service's own end page asks for. Open payments (a gateway order
 * in progress, a bank transfer claim awaiting the team) are listed: closing cancels them.
 */
export async function closingPlan(userId: string, now: Date): Promise<ClosingPlan> {
  const inFlight = await pendingPayments(userId, now, { fresh: true })
  const services = await runningServices(userId, now)
  const byBank = services.find((service) => service.bankTransferPaise > 0)
  if (byBank) {
    return {
      ok: false,
      serviceId: byBank.serviceId,
      message: `You cannot close your account yet: the refund for ${byBank.serviceName} (Rs. ${formatRupees(byBank.refundPaise)}) goes by bank transfer, so end that service first and give the account it is paid to. Then close your account.`,
    }
  }
  return {
    ok: true,
    cancels: inFlight.map((payment) => ({ method: payment.method, amountPaise: payment.amountPaise })),
    services: services.map((service) => ({
      serviceId: service.serviceId,
      serviceName: service.serviceName,
      endsAt: service.endsAt,
      refundPaise: service.refundPaise,
    })),
  }
}

export type ClosedAccount = { ok: true; ended: EndedService[] } | { ok: false; message: string; serviceId?: string }

/** What closing cancels: every open gateway order and every open bank transfer claim. */
const cancelledByClosingWhere = (userId: string, now: Date) => ({
  userId,
  OR: [
    { method: 'GATEWAY' as const, status: { in: statusesFor('GATEWAY', 'account-closed') } },
    { ...openManualClaimWhere(now), status: { in: statusesFor('MANUAL', 'account-closed') } },
  ],
})

/** Closing ends services, cancels payments and writes the audit entry in one transaction: its time limit. */
const CLOSING_TRANSACTION_TIMEOUT_MS = 15_000

/**
 * Closes the account at `now` (the caller has confirmed it with a fresh sign-in code). In one
 * transaction under the customer's purchase lock: cancels the open gateway orders and bank
 * transfer claims, ends each running service with its refund (refused, with nothing changed, when
 * a refund would go by bank transfer: see closingPlan), marks the row closed, deletes every session
 * and records it in the audit log. Then asks the gateway about the orders it may still capture:
 * Razorpay has no call that cancels an order, so a capture found (or arriving later, by webhook or
 * reconciliation) is refunded in full by markPaymentPaid.
 */
export async function closeAccount(
  userId: string,
  now: Date,
  { gateway }: { gateway?: PaymentGateway } = {},
): Promise<ClosedAccount> {
  let closed: { ended: EndedService[] } | { refused: string }
  try {
    closed = await prisma.$transaction(
      async (tx) => {
        await lockFamilyPurchases(tx, userId)
        const user = await tx.user.findUnique({ where: { id: userId }, select: { closedAt: true } })
        if (!user || user.closedAt) return { refused: 'This account is already closed.' }
        const cancelled = await tx.payment.updateManyAndReturn({
          where: cancelledByClosingWhere(userId, now),
          data: { status: 'CANCELLED' },
          select: { id: true },
        })
        const running = await tx.subscription.findMany({
          where: { userId, endsAt: { gt: now } },
          distinct: ['serviceId'],
          orderBy: { serviceId: 'asc' },
          select: { serviceId: true },
        })
        const ended: EndedService[] = []
        for (const { serviceId } of running) {
          ended.push(
            await endSubscriptionIn(tx, {
              userId,
              serviceId,
              by: { kind: 'customer' },
              reason: 'CUSTOMER_ENDED',
              note: 'Account closed by the customer',
              now,
            }),
          )
        }
        await tx.user.update({ where: { id: userId }, data: { closedAt: now } })
        await tx.session.deleteMany({ where: { userId } })
        await recordAudit(
          tx,
          {
            actorId: userId,
            action: 'account.closed',
            subjectType: 'User',
            subjectId: userId,
            before: null,
            after: {
              closedAt: now.toISOString(),
              servicesEnded: ended.map((row) => row.serviceName),
              refunds: ended.flatMap((row) => row.refunds.map((refund) => refund.amountPaise)),
              paymentsCancelled: cancelled.map((payment) => payment.id),
            },
          },
          now,
        )
        return { ended }
      },
      { timeout: CLOSING_TRANSACTION_TIMEOUT_MS, maxWait: CLOSING_TRANSACTION_TIMEOUT_MS },
    )
  } catch (error) {
    if (!(error instanceof BankAccountNeededError)) throw error
    // A payment by bank transfer was confirmed after the page was shown: its refund needs the account.
    const plan = await closingPlan(userId, now)
    return plan.ok ? { ok: false, message: error.message } : plan
  }
  if ('refused' in closed) return { ok: false, message: closed.refused }
  for (const service of closed.ended) await afterEnding(service)
  await invalidateUserPayments(userId)
  await settleOrdersAtGateway(userId, now, gateway ?? paymentGateway())
  return { ok: true, ended: closed.ended }
}

/**
 * After closing: each gateway order that may still be captured (inside the late-authorisation
 * window) is looked up at the gateway; a capture found is paid, and so refunded in full. A gateway
 * that cannot answer now leaves it to the webhook or the reconciliation job, which do the same.
 */
async function settleOrdersAtGateway(userId: string, now: Date, gateway: PaymentGateway): Promise<void> {
  const orders = await prisma.payment.findMany({
    where: {
      userId,
      method: 'GATEWAY',
      status: { in: statusesFor('GATEWAY', 'paid') },
      gatewayOrderId: { not: null },
      createdAt: { gt: new Date(now.getTime() - GATEWAY_LATE_AUTHORISATION_WINDOW_MS) },
    },
    select: { id: true, gatewayOrderId: true, amountPaise: true, currency: true },
  })
  for (const order of orders) {
    try {
      await payIfCaptured(gateway, { ...order, gatewayOrderId: order.gatewayOrderId! }, now)
    } catch (error) {
      log.warn(
        { paymentId: order.id },
        `Closing ${userId}: could not ask the gateway about order ${order.gatewayOrderId}: ${getErrorMessage(error)}`,
      )
    }
  }
}

/** The closing plan as the page shows it. */
export function describeClosingServices(services: ClosingService[]) {
  return services.map((service) => ({
    serviceId: service.serviceId,
    name: service.serviceName,
    until: formatIndiaDate(service.endsAt),
    refund: `Rs. ${formatRupees(service.refundPaise)}`,
  }))
}

/** The open payments closing cancels, as the page lists them. */
export function describeClosingCancels(cancels: CancelledByClosing[]): string[] {
  return cancels.map((payment) =>
    payment.method === 'MANUAL'
      ? `Your bank transfer claim of Rs. ${formatRupees(payment.amountPaise)} is cancelled: we will not confirm it. If you have sent the money, write to us and we return it.`
      : `Your payment of Rs. ${formatRupees(payment.amountPaise)} in progress at the payment gateway is cancelled. If the gateway still takes the money, we refund all of it and e-mail you.`,
  )
}
