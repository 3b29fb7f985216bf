import { formatIndiaDate } from '~/domain/dates'
import { formatRupees } from '~/domain/money'
import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'
import { pendingPayments } from '../payments/core.server'
import { endingPreview, endSubscription, type EndedService } from '../payments/refunds/end-subscription.server'

// Closing an account (docs/regulatory.md, The customer's data; DPDP Act s.6(4) withdrawal of consent, s.12 erasure):
// the running services end with their proportionate refund (endSubscription, as /subscriptions/:id/end), every session
// ends, and the row is marked closed. What SEBI requires (KYC, acceptances, payments, invoices, refunds) stays for 5
// years (payments longer, for GST) and is then erased by the retention job: docs/regulatory.md has the table.

export type ClosingService = { serviceId: string; serviceName: string; endsAt: Date; refundPaise: number }

export type ClosingPlan = { ok: true; services: ClosingService[] } | { ok: false; message: string; serviceId?: string }

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
 * What closing at `now` would do, or why it cannot happen yet: a payment in flight (an open gateway
 * order or a manual claim awaiting the team) must settle first, and a refund due by bank transfer
 * needs the account it goes to, which the service's own end page asks for.
 */
export async function closingPlan(userId: string, now: Date): Promise<ClosingPlan> {
  const inFlight = await pendingPayments(userId, now, { fresh: true })
  if (inFlight.length > 0) {
    const payment = inFlight[0]!
    const what =
      payment.method === 'MANUAL'
        ? `your bank transfer of Rs. ${formatRupees(payment.amountPaise)} is waiting for our team to confirm it`
        : `your payment of Rs. ${formatRupees(payment.amountPaise)} is still in progress at the payment gateway`
    return {
      ok: false,
      message: `You cannot close your account yet: ${what}. Once it is settled (paid, rejected or expired) you can close it; see Subscriptions for its status.`,
    }
  }
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
    services: services.map((service) => ({
      serviceId: service.serviceId,
      serviceName: service.serviceName,
      endsAt: service.endsAt,
      refundPaise: service.refundPaise,
    })),
  }
}

export type ClosedAccount = { ok: true; ended: EndedService[] } | { ok: false; message: string; serviceId?: string }

/**
 * Closes the account at `now` (the caller has confirmed it with a fresh sign-in code): refused as
 * `closingPlan` refuses; otherwise ends each running service with its refund, then in one
 * transaction marks the row closed, deletes every session and records it in the audit log.
 */
export async function closeAccount(userId: string, now: Date): Promise<ClosedAccount> {
  const plan = await closingPlan(userId, now)
  if (!plan.ok) return plan
  const ended: EndedService[] = []
  for (const service of plan.services) {
    ended.push(
      await endSubscription({
        userId,
        serviceId: service.serviceId,
        by: { kind: 'customer' },
        reason: 'CUSTOMER_ENDED',
        note: 'Account closed by the customer',
        now,
      }),
    )
  }
  await prisma.$transaction(async (tx) => {
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
        },
      },
      now,
    )
  })
  return { ok: true, ended }
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
