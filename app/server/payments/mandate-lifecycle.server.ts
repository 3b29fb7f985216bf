import type { CartItem } from '~/domain/cart'
import { formatIndiaDate } from '~/domain/dates'
import { getErrorMessage } from '~/domain/error-message'
import { advanceRefusalMessage, advanceRefusals } from '~/domain/purchase-limits'
import { renewalPath } from '~/domain/renewal-reminders'
import type { Prisma } from '~/generated/prisma/client'
import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'
import { emailContext, notifyCustomer } from '../messaging/customer-notices.server'
import {
  mandateChargeFailedEmail,
  mandateNeedsReauthorisationEmail,
  mandateStoppedBeforeChargeEmail,
} from '../messaging/emails/mandate-emails.server'
import { loggerFor } from '../operations/logger.server'
import { invalidateUserPayments } from './core.server'
import { paymentGateway } from './gateway/choice.server'
import type { PaymentGateway } from './gateway/razorpay.server'
import { cancelAtGateway, cancelMandateInTransaction } from './mandate-charges.server'
import { feeCapRefusalFor, lockFamilyPurchases, readCommittedEnds } from './purchase-limits.server'

// The rules around a mandate's charges (docs/payments.md, "Renewals and mandates"; decision 055):
// the limits checked before each charge, the notice of a failed charge, a price change ending the
// mandates at the old price, and ending a subscription ending its mandate. Turning on, the webhooks
// and stopping are mandates.server.ts; what markPaymentPaid checks is mandate-charges.server.ts.

const log = loggerFor('payments')
const MS_PER_HOUR = 3_600_000

/**
 * A charge due within this many hours is checked against the limits, at every run of the job (every
 * 15 minutes) until it is taken: before the pre-debit notice (72 hours ahead), so a charge that
 * would break a limit is normally stopped before it is announced (docs/limits.md).
 */
export const MANDATE_CHARGE_CHECK_HOURS = 96

/** The end of the customer's paid periods of a service, formatted, or null when none. */
async function paidUntil(userId: string, serviceId: string): Promise<string | null> {
  const latest = await prisma.subscription.aggregate({ where: { userId, serviceId }, _max: { endsAt: true } })
  return latest._max.endsAt ? formatIndiaDate(latest._max.endsAt) : null
}

/**
 * Why the charge at `chargeAt` would not be applied (SEBI's one-year advance limit or the family fee
 * cap, counted as markPaymentPaid will count them then), or null. Under the family's purchase locks.
 */
async function chargeLimitRefusal(
  tx: Prisma.TransactionClient,
  { userId, familyIds, item, chargeAt }: { userId: string; familyIds: string[]; item: CartItem; chargeAt: Date },
): Promise<string | null> {
  const committed = await readCommittedEnds(tx, userId, chargeAt)
  const tooEarly = advanceRefusals(chargeAt, committed, [item])
  if (tooEarly.length > 0) return advanceRefusalMessage(tooEarly)
  return (await feeCapRefusalFor(tx, { userId, familyIds, items: [item], now: chargeAt })) ?? null
}

/**
 * The check before each charge: every ACTIVE mandate whose next charge is due within
 * MANDATE_CHARGE_CHECK_HOURS is checked against the limits at the charge's time; one that would
 * break a limit is not taken: the mandate is cancelled (here, then at the gateway) and the customer
 * told why and where to renew by hand. Each mandate under the family's purchase locks and its row
 * lock, so runs at once, here or on another instance, stop and tell once. Returns how many it stopped.
 */
export async function checkUpcomingMandateCharges(
  now = new Date(),
  gateway: PaymentGateway = paymentGateway(),
): Promise<number> {
  const due = await prisma.mandate.findMany({
    where: {
      state: 'ACTIVE',
      nextChargeAt: { lte: new Date(now.getTime() + MANDATE_CHARGE_CHECK_HOURS * MS_PER_HOUR) },
    },
    orderBy: [{ nextChargeAt: 'asc' }, { id: 'asc' }],
    select: { id: true, userId: true },
  })
  let stopped = 0
  for (const mandate of due) {
    try {
      if (await checkMandateCharge(mandate.id, mandate.userId, now, gateway)) stopped += 1
    } catch (error) {
      log.error(`The check before mandate ${mandate.id}'s charge failed: ${getErrorMessage(error)}`)
    }
  }
  return stopped
}

async function checkMandateCharge(
  mandateId: string,
  userId: string,
  now: Date,
  gateway: PaymentGateway,
): Promise<boolean> {
  const stopped = await prisma.$transaction(async (tx) => {
    // markPaymentPaid's order: the purchase locks, then the mandate's row.
    const familyIds = await lockFamilyPurchases(tx, userId)
    const [mandate] = await tx.$queryRaw<
      {
        state: string
        service_id: string
        service_name: string
        amount_paise: number
        period_days: number
        next_charge_at: Date | null
      }[]
    >`
      SELECT m.state::text, m.service_id::text, s.name AS service_name, m.amount_paise, m.period_days, m.next_charge_at
        FROM mandates m JOIN services s ON s.id = m.service_id
       WHERE m.id = ${mandateId}::uuid
         FOR UPDATE OF m`
    if (!mandate || mandate.state !== 'ACTIVE' || !mandate.next_charge_at) return null
    const chargeAt = mandate.next_charge_at > now ? mandate.next_charge_at : now
    const why = await chargeLimitRefusal(tx, {
      userId,
      familyIds,
      item: {
        serviceId: mandate.service_id,
        name: mandate.service_name,
        pricePaise: mandate.amount_paise,
        durationDays: mandate.period_days,
      },
      chargeAt,
    })
    if (!why) return null
    const gatewaySubscriptionId = await cancelMandateInTransaction(tx, mandateId, why, now)
    return { serviceId: mandate.service_id, serviceName: mandate.service_name, why, gatewaySubscriptionId }
  })
  if (!stopped) return false
  log.warn(`Mandate ${mandateId} stopped before its charge: ${stopped.why}`)
  await invalidateUserPayments(userId)
  if (stopped.gatewaySubscriptionId) await cancelAtGateway(stopped.gatewaySubscriptionId, gateway)
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { name: true, email: true } })
  if (user)
    await notifyCustomer({
      email: user.email,
      userId,
      ...mandateStoppedBeforeChargeEmail(
        {
          name: user.name,
          serviceName: stopped.serviceName,
          why: stopped.why,
          paidUntil: await paidUntil(userId, stopped.serviceId),
          renewPath: renewalPath(stopped.serviceId),
        },
        await emailContext(),
      ),
    })
  return true
}

/**
 * A charge the gateway could not take: `subscription.pending` (it retries) or `subscription.halted`
 * (its retries ran out). The customer is told once per failed charge, with a link to pay by hand:
 * the charge is the mandate's next_charge_at, claimed in charge_failure_noticed_for, so the two
 * events of one charge, their retries and a second instance tell once. Nothing here extends the
 * subscription: if no retry succeeds, it ends at its end. 'ignored' for an unknown subscription.
 */
export async function noticeFailedMandateCharge(
  type: 'subscription.pending' | 'subscription.halted',
  event: unknown,
): Promise<'processed' | 'ignored'> {
  const subscriptionId = (event as { payload?: { subscription?: { entity?: { id?: unknown } } } })?.payload
    ?.subscription?.entity?.id
  if (typeof subscriptionId !== 'string') return 'ignored'
  const [claimed] = await prisma.$queryRaw<{ user_id: string; service_id: string; amount_paise: number }[]>`
    UPDATE mandates SET charge_failure_noticed_for = next_charge_at
     WHERE gateway_subscription_id = ${subscriptionId} AND state = 'ACTIVE' AND next_charge_at IS NOT NULL
       AND charge_failure_noticed_for IS DISTINCT FROM next_charge_at
     RETURNING user_id::text, service_id::text, amount_paise`
  if (!claimed) {
    const known = await prisma.mandate.count({ where: { gatewaySubscriptionId: subscriptionId } })
    return known > 0 ? 'processed' : 'ignored'
  }
  const user = await prisma.user.findUnique({
    where: { id: claimed.user_id },
    select: { name: true, email: true },
  })
  const service = await prisma.service.findUnique({ where: { id: claimed.service_id }, select: { name: true } })
  if (user && service)
    await notifyCustomer({
      email: user.email,
      userId: claimed.user_id,
      ...mandateChargeFailedEmail(
        {
          name: user.name,
          serviceName: service.name,
          amountPaise: claimed.amount_paise,
          retrying: type === 'subscription.pending',
          paidUntil: await paidUntil(claimed.user_id, claimed.service_id),
          renewPath: renewalPath(claimed.service_id),
        },
        await emailContext(),
      ),
    })
  return 'processed'
}

export type MandateEndedForNewTerms = {
  mandateId: string
  userId: string
  serviceId: string
  gatewaySubscriptionId: string
  oldAmountPaise: number
}

/**
 * In the transaction that changes a service's price or period: every live mandate of it at other
 * terms is ended (CANCELLED, by the admin, with the amount to authorise anew), each audited. The
 * caller runs `afterMandatesEndedForNewTerms` once it committed: the gateway's subscriptions are
 * cancelled then, so no charge at the old amount is taken (one the gateway took meanwhile is
 * refunded by mandateChargeRefusal: the mandate is cancelled).
 */
export async function endMandatesForNewTerms(
  tx: Prisma.TransactionClient,
  service: { id: string; pricePaise: number; durationDays: number },
  actorId: string,
  now: Date,
): Promise<MandateEndedForNewTerms[]> {
  const reason = 'The price or period of the service changed: a new authorisation is needed'
  const ended = await tx.$queryRaw<
    {
      id: string
      user_id: string
      gateway_subscription_id: string
      amount_paise: number
      period_days: number
      state: string
    }[]
  >`
    WITH live AS (
      SELECT id, amount_paise, period_days, state FROM mandates
       WHERE service_id = ${service.id}::uuid AND state IN ('CREATED', 'ACTIVE', 'HALTED')
         AND (amount_paise <> ${service.pricePaise} OR period_days <> ${service.durationDays})
         FOR UPDATE)
    UPDATE mandates m SET state = 'CANCELLED', cancelled_at = ${now}, cancel_reason = ${reason},
           cancelled_by = ${actorId}::uuid, reauthorisation_amount_paise = ${service.pricePaise}
      FROM live WHERE m.id = live.id
    RETURNING m.id::text, m.user_id::text, m.gateway_subscription_id, live.amount_paise, live.period_days,
              live.state::text`
  for (const mandate of ended) {
    await recordAudit(
      tx,
      {
        actorId,
        action: 'mandate.reauthorisation-needed',
        subjectType: 'User',
        subjectId: mandate.user_id,
        before: {
          mandateId: mandate.id,
          state: mandate.state,
          amountPaise: mandate.amount_paise,
          periodDays: mandate.period_days,
        },
        after: {
          mandateId: mandate.id,
          state: 'CANCELLED',
          reauthorisationAmountPaise: service.pricePaise,
          periodDays: service.durationDays,
        },
      },
      now,
    )
  }
  return ended.map((mandate) => ({
    mandateId: mandate.id,
    userId: mandate.user_id,
    serviceId: service.id,
    gatewaySubscriptionId: mandate.gateway_subscription_id,
    oldAmountPaise: mandate.amount_paise,
  }))
}

/** After endMandatesForNewTerms' transaction committed: the gateway's subscriptions, the caches, each customer's e-mail. */
export async function afterMandatesEndedForNewTerms(
  ended: MandateEndedForNewTerms[],
  service: { name: string; pricePaise: number; durationDays: number },
  gateway: PaymentGateway = paymentGateway(),
): Promise<void> {
  if (ended.length === 0) return
  const context = await emailContext()
  for (const mandate of ended) {
    await cancelAtGateway(mandate.gatewaySubscriptionId, gateway)
    await invalidateUserPayments(mandate.userId)
    const user = await prisma.user.findUnique({ where: { id: mandate.userId }, select: { name: true, email: true } })
    if (!user) continue
    await notifyCustomer({
      email: user.email,
      userId: mandate.userId,
      ...mandateNeedsReauthorisationEmail(
        {
          name: user.name,
          serviceName: service.name,
          oldAmountPaise: mandate.oldAmountPaise,
          newAmountPaise: service.pricePaise,
          newPeriodDays: service.durationDays,
          paidUntil: await paidUntil(mandate.userId, mandate.serviceId),
        },
        context,
      ),
    })
  }
}

/**
 * In the transaction that ends a customer's service (endSubscriptionIn, which holds the family's
 * purchase locks first): its live mandate is cancelled too. Returns the gateway subscriptions to
 * cancel after commit (cancelMandatesAtGateway).
 */
export async function cancelLiveMandateIn(
  tx: Prisma.TransactionClient,
  {
    userId,
    serviceId,
    reason,
    adminId,
    now,
  }: { userId: string; serviceId: string; reason: string; adminId: string | null; now: Date },
): Promise<string[]> {
  const rows = await tx.$queryRaw<{ gateway_subscription_id: string }[]>`
    UPDATE mandates SET state = 'CANCELLED', cancelled_at = ${now}, cancel_reason = ${reason},
           cancelled_by = ${adminId}::uuid
     WHERE user_id = ${userId}::uuid AND service_id = ${serviceId}::uuid
       AND state IN ('CREATED', 'ACTIVE', 'HALTED')
     RETURNING gateway_subscription_id`
  return rows.map((row) => row.gateway_subscription_id)
}

export async function cancelMandatesAtGateway(
  gatewaySubscriptionIds: readonly string[],
  gateway: PaymentGateway = paymentGateway(),
): Promise<void> {
  for (const id of gatewaySubscriptionIds) await cancelAtGateway(id, gateway)
}

export type MandateAwaitingReauthorisation = {
  serviceId: string
  oldAmountPaise: number
  newAmountPaise: number
  endedAt: Date
}

/**
 * The customer's mandates a price or period change ended, for which no newer mandate was made:
 * what /subscriptions offers to authorise anew.
 */
export async function mandatesAwaitingReauthorisation(userId: string): Promise<MandateAwaitingReauthorisation[]> {
  const ended = await prisma.mandate.findMany({
    where: { userId, reauthorisationAmountPaise: { not: null } },
    orderBy: { cancelledAt: 'desc' },
    select: {
      serviceId: true,
      amountPaise: true,
      reauthorisationAmountPaise: true,
      cancelledAt: true,
      createdAt: true,
    },
  })
  const awaiting: MandateAwaitingReauthorisation[] = []
  for (const mandate of ended) {
    if (awaiting.some((row) => row.serviceId === mandate.serviceId)) continue
    const newer = await prisma.mandate.count({
      where: { userId, serviceId: mandate.serviceId, createdAt: { gt: mandate.createdAt } },
    })
    if (newer > 0) continue
    awaiting.push({
      serviceId: mandate.serviceId,
      oldAmountPaise: mandate.amountPaise,
      newAmountPaise: mandate.reauthorisationAmountPaise!,
      endedAt: mandate.cancelledAt!,
    })
  }
  return awaiting
}
