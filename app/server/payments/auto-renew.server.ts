import type { MandateState } from '~/generated/prisma/client'
import { getErrorMessage } from '~/domain/error-message'
import { isUuid } from '~/domain/uuid'
import { prisma } from '../db.server'
import { loggerFor } from '../operations/logger.server'
import { paymentGateway } from './gateway/choice.server'
import type { PaymentGateway } from './gateway/razorpay.server'
import { mandateConsentVersion, type MandateTerms } from '~/domain/mandates'
import { autoRenewOffer, consentSha256, LIVE_STATES, stopAutoRenew } from './mandates.server'

// What the customer's pages, the admin's customer page and the JSON API read and do with a
// customer's automatic renewals (docs/payments.md, "Renewals and mandates"); the rules and the
// gateway's side are mandates.server.ts.

const log = loggerFor('payments')

/** The sandbox's stand-in for Razorpay's hosted authorisation page (app/demo/sandbox.authorise.tsx). */
export const SANDBOX_AUTHORISE_PATH = '/dev/sandbox/authorise'

export type MandateSummary = {
  id: string
  serviceId: string
  serviceName: string
  state: MandateState
  amountPaise: number
  maxAmountPaise: number
  periodDays: number
  nextChargeAt: Date | null
  gatewaySubscriptionId: string
  createdAt: Date
  authorisedAt: Date | null
  cancelledAt: Date | null
  cancelReason: string | null
}

const SUMMARY = {
  id: true,
  serviceId: true,
  service: { select: { name: true } },
  state: true,
  amountPaise: true,
  maxAmountPaise: true,
  periodDays: true,
  nextChargeAt: true,
  gatewaySubscriptionId: true,
  createdAt: true,
  authorisedAt: true,
  cancelledAt: true,
  cancelReason: true,
} as const

const LIVE: MandateState[] = [...LIVE_STATES]
/** Mandates shown per customer (the admin's page and the API): the live ones and the latest ended. */
export const MANDATES_LISTED_MAX = 20

function summary({ service, ...row }: { service: { name: string } } & Omit<MandateSummary, 'serviceName'>) {
  return { ...row, serviceName: service.name }
}

/** The customer's mandates, live ones first, then the latest ended (at most MANDATES_LISTED_MAX). */
export async function customerMandates(userId: string, { liveOnly = false } = {}): Promise<MandateSummary[]> {
  const rows = await prisma.mandate.findMany({
    where: { userId, ...(liveOnly ? { state: { in: LIVE } } : {}) },
    select: SUMMARY,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: MANDATES_LISTED_MAX,
  })
  const live = rows.filter((row) => LIVE.includes(row.state))
  return [...live, ...rows.filter((row) => !LIVE.includes(row.state))].map(summary)
}

export type ConsentOffer = MandateTerms & {
  serviceId: string
  consentText: string
  consentSha256: string
  consentVersion: string
}

/**
 * The consent to show before turning automatic renewal on, with the hash and version the page or
 * the app sends back with the customer's confirmation; MandateError when it cannot be turned on now.
 */
export async function consentOffer(userId: string, serviceId: string, now = new Date()): Promise<ConsentOffer> {
  const offer = await autoRenewOffer(prisma, userId, serviceId, now)
  const sha256 = consentSha256(offer.consentText)
  return { ...offer, consentSha256: sha256, consentVersion: mandateConsentVersion(sha256) }
}

/** The customer's live mandate of a service, if any. */
export async function liveMandateOf(userId: string, serviceId: string): Promise<MandateSummary | null> {
  const row = await prisma.mandate.findFirst({ where: { userId, serviceId, state: { in: LIVE } }, select: SUMMARY })
  return row ? summary(row) : null
}

/**
 * Where the customer authorises a mandate: Razorpay's hosted page (its `short_url`), or the
 * sandbox's stand-in, which comes back to `returnTo` (a path of this store) as a real checkout's
 * callback would. Absolute, for the apps too.
 */
export function authorisationUrl(
  subscription: { id: string; shortUrl: string | null },
  { origin, returnTo }: { origin: string; returnTo: string },
  gateway: PaymentGateway = paymentGateway(),
): string | null {
  if (gateway.name === 'sandbox') {
    const query = new URLSearchParams({ subscription_id: subscription.id, return_to: returnTo })
    return `${origin}${SANDBOX_AUTHORISE_PATH}?${query}`
  }
  return subscription.shortUrl
}

/** The authorisation address of a mandate still waiting for it (asked of the gateway; null if it cannot say). */
export async function pendingAuthorisationUrl(
  mandate: Pick<MandateSummary, 'state' | 'gatewaySubscriptionId'>,
  where: { origin: string; returnTo: string },
  gateway: PaymentGateway = paymentGateway(),
): Promise<string | null> {
  if (mandate.state !== 'CREATED') return null
  if (gateway.name === 'sandbox')
    return authorisationUrl({ id: mandate.gatewaySubscriptionId, shortUrl: null }, where, gateway)
  try {
    const subscription = await gateway.fetchSubscription(mandate.gatewaySubscriptionId)
    return authorisationUrl(subscription, where, gateway)
  } catch (error) {
    log.warn(`Could not read subscription ${mandate.gatewaySubscriptionId}: ${getErrorMessage(error)}`)
    return null
  }
}

/** The mandate `mandateId` if it is `userId`'s (null for a malformed id or another's mandate). */
async function mandateOfCustomer(userId: string, mandateId: string) {
  if (!isUuid(mandateId) || !isUuid(userId)) return null
  return prisma.mandate.findFirst({
    where: { id: mandateId, userId },
    select: { id: true, service: { select: { name: true } } },
  })
}

/**
 * The customer stops their own mandate: null when it is not theirs (or no mandate at all), else
 * whether it was still live and is now stopped (stopAutoRenew).
 */
export async function stopOwnAutoRenew(
  userId: string,
  mandateId: string,
  now = new Date(),
): Promise<{ stopped: boolean; serviceName: string } | null> {
  const mandate = await mandateOfCustomer(userId, mandateId)
  if (!mandate) return null
  const stopped = await stopAutoRenew(mandate.id, { kind: 'customer' }, now)
  return { stopped, serviceName: mandate.service.name }
}

/** Longest reason an admin gives for stopping a customer's automatic renewal (docs/limits.md). */
export const ADMIN_STOP_REASON_MAX_LENGTH = 500

/**
 * An admin stops a customer's mandate from the customer's page, with a reason (audited
 * `mandate.cancel` by stopAutoRenew): what the page then says, and its status.
 */
export async function stopAutoRenewAsAdmin(
  adminId: string,
  userId: string,
  { mandateId, reason }: { mandateId: string; reason: string },
  now = new Date(),
): Promise<{ ok: boolean; status: 200 | 400 | 404; message: string }> {
  const why = reason.trim()
  if (!why || why.length > ADMIN_STOP_REASON_MAX_LENGTH)
    return { ok: false, status: 400, message: `Give a reason, at most ${ADMIN_STOP_REASON_MAX_LENGTH} characters.` }
  const mandate = await mandateOfCustomer(userId, mandateId)
  if (!mandate) return { ok: false, status: 404, message: 'There is no such mandate.' }
  const stopped = await stopAutoRenew(mandate.id, { kind: 'admin', adminId, reason: why }, now)
  return {
    ok: true,
    status: 200,
    message: stopped
      ? `Automatic renewal of ${mandate.service.name} is stopped; the customer's paid period runs to its end.`
      : `Automatic renewal of ${mandate.service.name} was already stopped.`,
  }
}
