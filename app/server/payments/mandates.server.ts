import { createHash } from 'node:crypto'
import type { CartItem } from '~/domain/cart'
import { getErrorMessage } from '~/domain/error-message'
import {
  firstChargeAt,
  MANDATE_MIN_PERIOD_DAYS,
  mandateConsentText,
  mandateConsentVersion,
  mandateTotalCount,
  type MandateTerms,
} from '~/domain/mandates'
import { ACCOUNT_CLOSED_MESSAGE, advanceRefusalMessage, advanceRefusals } from '~/domain/purchase-limits'
import type { MandateState, Prisma } from '~/generated/prisma/client'
import { recordedUserAgent } from '~/domain/consent'
import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'
import { loggerFor } from '../operations/logger.server'
import type { AcceptanceOrigin } from '../account/acceptances.server'
import { paymentGateway } from './gateway/choice.server'
import { fromSdkSubscription, type GatewayPayment, type PaymentGateway } from './gateway/razorpay.server'
import { invalidateUserPayments, markPaymentPaid, PaymentStateError } from './core.server'
import { familyUserIds } from '../account/family-members.server'
import { cancelAtGateway } from './mandate-charges.server'
import { feeCapRefusalFor, kycRefusalFor, lockFamilyPurchases, readCommittedEnds } from './purchase-limits.server'

// Automatic renewal through Razorpay Subscriptions (docs/payments.md, "Renewals and mandates"): a
// mandate per customer and service, turned on with its own consent, authorised by the customer at
// the gateway, charged by the gateway each period. Each charge is a payment paid through the one
// markPaymentPaid path, which checks it (mandateChargeRefusal) before applying it.

const log = loggerFor('payments')

/** The hash recorded with the consent's acceptance (hex SHA-256 of the exact text shown). */
export function consentSha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

export class MandateError extends Error {
  override name = 'MandateError'
  constructor(
    message: string,
    readonly status: 400 | 403 | 404 | 409,
  ) {
    super(message)
  }
}

type Db = Prisma.TransactionClient | typeof prisma

/** A mandate that may still be charged: waiting for authorisation, authorised, or halted by failed charges. */
export const LIVE_STATES = ['CREATED', 'ACTIVE', 'HALTED'] as const satisfies readonly MandateState[]

/** What the customer is asked to consent to, or why they cannot turn automatic renewal on now (MandateError). */
export async function autoRenewOffer(
  db: Db,
  userId: string,
  serviceId: string,
  now: Date,
): Promise<MandateTerms & { serviceId: string; consentText: string }> {
  const service = await db.service.findUnique({
    where: { id: serviceId },
    select: { id: true, name: true, pricePaise: true, durationDays: true, active: true },
  })
  if (!service) throw new MandateError('There is no such service.', 404)
  if (!service.active)
    throw new MandateError(`${service.name} is no longer on sale, so it cannot renew automatically.`, 409)
  if (service.durationDays < MANDATE_MIN_PERIOD_DAYS)
    throw new MandateError(
      `${service.name} runs for less than ${MANDATE_MIN_PERIOD_DAYS} days, so it cannot renew automatically.`,
      409,
    )
  const owner = await db.user.findUnique({ where: { id: userId }, select: { closedAt: true } })
  if (!owner || owner.closedAt) throw new MandateError(ACCOUNT_CLOSED_MESSAGE, 403)
  const kyc = await kycRefusalFor(db, userId)
  if (kyc) throw new MandateError(kyc, 403)
  const live = await db.mandate.findFirst({
    where: { userId, serviceId, state: { in: [...LIVE_STATES] } },
    select: { id: true },
  })
  if (live) throw new MandateError(`${service.name} already renews automatically.`, 409)
  const committed = await readCommittedEnds(db, userId, now)
  const paidUpTo = committed.get(serviceId)
  if (!paidUpTo || paidUpTo <= now)
    throw new MandateError(`You have no running period of ${service.name} to renew.`, 409)
  const item: CartItem = {
    serviceId,
    name: service.name,
    pricePaise: service.pricePaise,
    durationDays: service.durationDays,
  }
  const chargeAt = firstChargeAt(paidUpTo, now)
  // The first charge must be allowed when it is taken (the one-year rule counts from then).
  const tooEarly = advanceRefusals(chargeAt, committed, [item])
  if (tooEarly.length > 0) throw new MandateError(advanceRefusalMessage(tooEarly), 409)
  const familyIds = await familyUserIds(db, userId)
  const overCap = await feeCapRefusalFor(db, { userId, familyIds, items: [item], now })
  if (overCap) throw new MandateError(overCap, 409)
  const terms: MandateTerms = {
    serviceName: service.name,
    amountPaise: service.pricePaise,
    periodDays: service.durationDays,
    // The mandate takes the price as it is: a new price needs a new authorisation.
    maxAmountPaise: service.pricePaise,
    firstChargeAt: chargeAt,
  }
  return { ...terms, serviceId, consentText: mandateConsentText(terms) }
}

export type StartedMandate = { mandateId: string; gatewaySubscriptionId: string; shortUrl: string | null }

/**
 * Turns automatic renewal on: the consent shown (its hash, `shownSha256`) must be the one the
 * offer gives now (a price or date changed meanwhile is refused: the customer reads it again). The
 * plan and subscription are created at the gateway first, then, under the customer's purchase
 * lock, the checks run again and the acceptance and the mandate are recorded; a refusal then
 * cancels the gateway's subscription (never authorised, nothing charged).
 */
export async function turnOnAutoRenew(
  userId: string,
  serviceId: string,
  { shownSha256, origin }: { shownSha256: string; origin: AcceptanceOrigin },
  now = new Date(),
  gateway: PaymentGateway = paymentGateway(),
): Promise<StartedMandate> {
  const offer = await autoRenewOffer(prisma, userId, serviceId, now)
  if (consentSha256(offer.consentText) !== shownSha256)
    throw new MandateError('The terms of automatic renewal have changed. Please read them again and confirm.', 409)
  const plan = await gateway.createPlan({
    amountPaise: offer.amountPaise,
    periodDays: offer.periodDays,
    name: offer.serviceName,
    notes: { serviceId },
  })
  const subscription = await gateway.createSubscription({
    planId: plan.id,
    totalCount: mandateTotalCount(offer.periodDays),
    startAt: offer.firstChargeAt,
    notes: { userId, serviceId },
  })
  try {
    const mandateId = await prisma.$transaction(async (tx) => {
      // The purchase locks: a payment or a closing at the same moment is before or after, not during.
      await lockFamilyPurchases(tx, userId)
      // A price change at the same moment (updateService holds the row) ends this mandate or is seen here.
      await tx.$queryRaw`SELECT id::text FROM services WHERE id = ${serviceId}::uuid FOR SHARE`
      const again = await autoRenewOffer(tx, userId, serviceId, now)
      if (consentSha256(again.consentText) !== shownSha256)
        throw new MandateError('The terms of automatic renewal have changed. Please read them again and confirm.', 409)
      const acceptance = await tx.acceptance.create({
        data: {
          userId,
          kind: 'AUTOPAY_MANDATE',
          version: mandateConsentVersion(shownSha256),
          textSha256: shownSha256,
          acceptedAt: now,
          ip: origin.ip,
          userAgent: recordedUserAgent(origin.userAgent),
          channel: origin.channel,
        },
        select: { id: true },
      })
      const mandate = await tx.mandate.create({
        data: {
          userId,
          serviceId,
          gatewayPlanId: plan.id,
          gatewaySubscriptionId: subscription.id,
          amountPaise: again.amountPaise,
          periodDays: again.periodDays,
          maxAmountPaise: again.maxAmountPaise,
          state: 'CREATED',
          acceptanceId: acceptance.id,
          firstChargeAt: again.firstChargeAt,
          nextChargeAt: again.firstChargeAt,
          createdAt: now,
        },
        select: { id: true },
      })
      return mandate.id
    })
    await invalidateUserPayments(userId)
    return { mandateId, gatewaySubscriptionId: subscription.id, shortUrl: subscription.shortUrl }
  } catch (error) {
    await gateway
      .cancelSubscription(subscription.id)
      .catch((cancelError: unknown) =>
        log.error(
          `Subscription ${subscription.id} was not recorded and could not be cancelled: ${getErrorMessage(cancelError)}`,
        ),
      )
    if (error instanceof MandateError) throw error
    // Two tabs at once: the partial unique index lets one live mandate per customer and service.
    if ((error as { code?: string }).code === 'P2002')
      throw new MandateError(`${offer.serviceName} already renews automatically.`, 409)
    throw error
  }
}

export type CancelledBy =
  { kind: 'customer' } | { kind: 'admin'; adminId: string; reason: string } | { kind: 'system'; reason: string }

/**
 * Stops a live mandate (state CANCELLED), then cancels it at the gateway: nothing more is charged;
 * the period paid runs to its end. A charge the gateway still sends afterwards is refunded
 * (mandateChargeRefusal). False when the mandate was no longer live.
 */
export async function stopAutoRenew(
  mandateId: string,
  by: CancelledBy,
  now = new Date(),
  gateway: PaymentGateway = paymentGateway(),
): Promise<boolean> {
  const stopped = await prisma.$transaction(async (tx) => {
    const reason = by.kind === 'customer' ? 'Stopped by the customer' : by.reason
    const [row] = await tx.$queryRaw<{ user_id: string; gateway_subscription_id: string }[]>`
      UPDATE mandates SET state = 'CANCELLED', cancelled_at = ${now}, cancel_reason = ${reason},
             cancelled_by = ${by.kind === 'admin' ? by.adminId : null}::uuid
       WHERE id = ${mandateId}::uuid AND state IN ('CREATED', 'ACTIVE', 'HALTED')
       RETURNING user_id::text, gateway_subscription_id`
    if (!row) return null
    if (by.kind === 'admin') {
      await recordAudit(
        tx,
        {
          actorId: by.adminId,
          action: 'mandate.cancel',
          subjectType: 'User',
          subjectId: row.user_id,
          before: { mandateId, state: 'live' },
          after: { mandateId, state: 'CANCELLED', reason: by.reason },
        },
        now,
      )
    }
    return row
  })
  if (!stopped) return false
  await invalidateUserPayments(stopped.user_id)
  await cancelAtGateway(stopped.gateway_subscription_id, gateway)
  return true
}

export { cancelAtGateway }

type SubscriptionEntity = {
  id?: unknown
  plan_id?: unknown
  status?: unknown
  charge_at?: unknown
  paid_count?: unknown
  short_url?: unknown
}

/**
 * Razorpay's `subscription.*` webhooks (the signature and the once-per-delivery check are done by
 * handleWebhook): authenticated makes the mandate ACTIVE; charged records the charge as a payment
 * of the mandate (once per gateway payment id) and pays it through markPaymentPaid; halted and
 * cancelled end the mandate. Unknown subscriptions are ignored.
 */
export async function processSubscriptionEvent(
  type: string,
  event: unknown,
  payment: GatewayPayment | null,
  now: Date,
): Promise<'processed' | 'ignored'> {
  const entity = (event as { payload?: { subscription?: { entity?: SubscriptionEntity } } })?.payload?.subscription
    ?.entity
  if (!entity || typeof entity.id !== 'string' || typeof entity.plan_id !== 'string') return 'ignored'
  const subscription = fromSdkSubscription({
    id: entity.id,
    plan_id: entity.plan_id,
    status: String(entity.status),
    charge_at: typeof entity.charge_at === 'number' ? entity.charge_at : null,
    paid_count: typeof entity.paid_count === 'number' ? entity.paid_count : 0,
  })
  const mandate = await prisma.mandate.findUnique({
    where: { gatewaySubscriptionId: subscription.id },
    select: {
      id: true,
      userId: true,
      serviceId: true,
      periodDays: true,
      state: true,
      service: { select: { name: true } },
    },
  })
  if (!mandate) {
    log.warn(`Webhook ${type} for unknown subscription ${subscription.id}`)
    return 'ignored'
  }
  switch (type) {
    case 'subscription.authenticated':
    case 'subscription.activated': {
      await prisma.mandate.updateMany({
        where: { id: mandate.id, state: 'CREATED' },
        data: {
          state: 'ACTIVE',
          authorisedAt: now,
          ...(subscription.chargeAt ? { nextChargeAt: subscription.chargeAt } : {}),
        },
      })
      await invalidateUserPayments(mandate.userId)
      return 'processed'
    }
    case 'subscription.charged': {
      if (!payment || payment.status !== 'captured' || payment.currency !== 'INR') {
        log.error(`Webhook ${type} for subscription ${subscription.id} carries no captured INR payment; ignored`)
        return 'ignored'
      }
      const cart: CartItem[] = [
        {
          serviceId: mandate.serviceId,
          name: mandate.service.name,
          pricePaise: payment.amountPaise,
          durationDays: mandate.periodDays,
        },
      ]
      // Once per gateway payment (unique), whichever delivery or path comes first.
      await prisma.payment.createMany({
        data: [
          {
            userId: mandate.userId,
            method: 'GATEWAY',
            status: 'CREATED',
            amountPaise: payment.amountPaise,
            currency: 'INR',
            cart,
            gatewayOrderId: payment.orderId,
            gatewayPaymentId: payment.id,
            mandateId: mandate.id,
            createdAt: now,
          },
        ],
        skipDuplicates: true,
      })
      const row = await prisma.payment.findUnique({
        where: { gatewayPaymentId: payment.id },
        select: { id: true, mandateId: true, status: true },
      })
      if (!row || row.mandateId !== mandate.id) {
        log.error(
          `Gateway payment ${payment.id} of subscription ${subscription.id} is recorded for another payment; ignored`,
        )
        return 'ignored'
      }
      if (row.status !== 'PAID') {
        try {
          await markPaymentPaid(row.id, { gatewayPaymentId: payment.id, paidAt: now, source: 'webhook' })
        } catch (error) {
          if (!(error instanceof PaymentStateError)) throw error
          log.error(`The charge ${payment.id} of subscription ${subscription.id} could not be paid: ${error.message}`)
        }
      }
      if (subscription.chargeAt)
        await prisma.mandate.updateMany({
          where: {
            id: mandate.id,
            state: { in: ['ACTIVE', 'CREATED'] },
            OR: [{ nextChargeAt: null }, { nextChargeAt: { lt: subscription.chargeAt } }],
          },
          data: { state: 'ACTIVE', nextChargeAt: subscription.chargeAt },
        })
      return 'processed'
    }
    case 'subscription.halted':
      await prisma.mandate.updateMany({
        where: { id: mandate.id, state: { in: ['CREATED', 'ACTIVE'] } },
        data: { state: 'HALTED', nextChargeAt: null },
      })
      await invalidateUserPayments(mandate.userId)
      return 'processed'
    case 'subscription.cancelled':
    case 'subscription.completed':
      await prisma.mandate.updateMany({
        where: { id: mandate.id, state: { in: [...LIVE_STATES] } },
        data: {
          state: 'CANCELLED',
          cancelledAt: now,
          cancelReason: `Ended at the gateway (${type})`,
          nextChargeAt: null,
        },
      })
      await invalidateUserPayments(mandate.userId)
      return 'processed'
    default:
      return 'ignored'
  }
}
