import { currentAgreement } from '~/server/account/agreement-document.server'
import { formatIndiaDateTime, formatIndiaLongDate } from '~/domain/dates'
import {
  customerTerms,
  effectiveFromFor,
  termsNotAcceptedMessage,
  termsState,
  type CustomerTerms,
  type TermsVersionDates,
} from '~/domain/terms-versions'
import { termsChangedEmail } from '~/server/messaging/emails/customer-emails.server'
import { businessDetails } from '../business.server'
import { prisma } from '../db.server'
import { env } from '../env.server'
import { emailContext, notifyCustomer } from '../messaging/customer-notices.server'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('account')

// Versions of the terms (docs/regulatory.md, A new version of the terms). The text is code: a store that starts with a
// text whose version is not recorded publishes it (publishCurrentTerms), effective 15 days later or on the operator's
// TERMS_EFFECTIVE_FROM; the rules of what is in force are app/domain/terms-versions.ts.

export type PublishedTermsVersion = TermsVersionDates & { textSha256: string }

const versionSelect = { version: true, textSha256: true, publishedAt: true, effectiveFrom: true } as const

/** Every version recorded (a handful: one per change of the text), read per request so every instance agrees at once. */
export function termsVersions(): Promise<PublishedTermsVersion[]> {
  return prisma.termsVersion.findMany({ select: versionSelect, orderBy: { publishedAt: 'asc' } })
}

export class TermsPublicationError extends Error {
  override name = 'TermsPublicationError'
}

/**
 * Records the code's terms as a version, the first time a store starts with them: published now,
 * effective `effectiveFrom` (TERMS_EFFECTIVE_FROM) or 15 days on; a sooner date stops the start.
 * Of two instances starting at once, one records it (the version is the key). A version already
 * recorded keeps its dates.
 */
export async function publishCurrentTerms(
  now = new Date(),
  chosen: Date | undefined = env.TERMS_EFFECTIVE_FROM,
): Promise<{ published: boolean; version: PublishedTermsVersion }> {
  const agreement = currentAgreement(businessDetails)
  const existing = await prisma.termsVersion.findUnique({
    where: { version: agreement.version },
    select: versionSelect,
  })
  if (existing) return { published: false, version: existing }
  const effective = effectiveFromFor(now, chosen)
  if (!effective.ok) throw new TermsPublicationError(effective.message)
  const created = await prisma.termsVersion.createMany({
    data: {
      version: agreement.version,
      textSha256: agreement.textSha256,
      text: agreement.text,
      publishedAt: now,
      effectiveFrom: effective.effectiveFrom,
    },
    skipDuplicates: true,
  })
  const version = await prisma.termsVersion.findUniqueOrThrow({
    where: { version: agreement.version },
    select: versionSelect,
  })
  if (created.count === 1) {
    log.info(`Published version ${version.version}, in force from ${version.effectiveFrom.toISOString()}`)
  }
  return { published: created.count === 1, version }
}

/**
 * The date line of /terms-and-conditions, from the recorded version of the text it shows (never a constant):
 * "Effective date: 14 December 2026", a date still to come while the version is announced; null before it is recorded.
 */
export async function termsDateLine(version: string): Promise<string | null> {
  const recorded = await prisma.termsVersion.findUnique({ where: { version }, select: { effectiveFrom: true } })
  return recorded ? `Effective date: ${formatIndiaLongDate(recorded.effectiveFrom)}` : null
}

/** What a signed-in customer must do about the terms now (nothing before they first accept). */
export async function termsForCustomer(
  user: { agreementVersion: string | null; agreementAcceptedAt: Date | null },
  now = new Date(),
): Promise<CustomerTerms<PublishedTermsVersion>> {
  if (!user.agreementAcceptedAt) return { mustAccept: null, announced: null }
  return customerTerms(await termsVersions(), user.agreementVersion ?? 'unrecorded', now)
}

/**
 * THE check of every paying path (the /pay page and its actions, the /subscriptions actions but
 * ending one, the API's create-order and manual-payment): the version in force the customer has
 * not accepted, or null when they may pay.
 */
export async function termsToAccept(
  user: { agreementVersion: string | null; agreementAcceptedAt: Date | null },
  now = new Date(),
): Promise<PublishedTermsVersion | null> {
  return (await termsForCustomer(user, now)).mustAccept
}

export { termsNotAcceptedMessage }

/**
 * The text of the newest version (announced, else in force), and of the one to compare it with, for
 * the change summary: the version the signed-in customer accepted when it is a recorded earlier one
 * (what changed for them), else the one in force, else the one before it.
 */
export async function termsChange(
  now = new Date(),
  acceptedVersion: string | null = null,
): Promise<{
  before: { version: string; text: string; effectiveFrom: Date; accepted: boolean } | null
  after: { version: string; text: string; publishedAt: Date; effectiveFrom: Date }
} | null> {
  const versions = await termsVersions()
  const { inForce, upcoming } = termsState(versions, now)
  const after = upcoming ?? inForce
  if (!after) return null
  const accepted = versions.find(
    (version) => version.version === acceptedVersion && version.publishedAt.getTime() < after.publishedAt.getTime(),
  )
  const before =
    accepted ??
    (upcoming
      ? inForce
      : ([...versions].reverse().find((version) => version.publishedAt.getTime() < after.publishedAt.getTime()) ??
        null))
  const texts = await prisma.termsVersion.findMany({
    where: { version: { in: [after.version, ...(before ? [before.version] : [])] } },
    select: { version: true, text: true },
  })
  const textOf = (version: string) => texts.find((row) => row.version === version)?.text ?? ''
  return {
    before: before
      ? {
          version: before.version,
          text: textOf(before.version),
          effectiveFrom: before.effectiveFrom,
          accepted: before === accepted,
        }
      : null,
    after: {
      version: after.version,
      text: textOf(after.version),
      publishedAt: after.publishedAt,
      effectiveFrom: after.effectiveFrom,
    },
  }
}

/**
 * The e-mail announcing the newest version, once per customer and version: each customer who has
 * accepted some terms but not this version (nor a later one) gets a terms_notices row, claimed
 * with ON CONFLICT DO NOTHING, and only the run whose insert made the row queues the e-mail, so
 * two runs (or two instances) at once send it once. Returns how many were queued.
 */
export async function sendTermsNotices(now = new Date()): Promise<number> {
  const versions = await termsVersions()
  const newest = versions.at(-1)
  if (!newest) return 0
  const { inForce, upcoming } = termsState(versions, now)
  const announced = upcoming ?? inForce
  if (!announced) return 0
  const claimed = await prisma.$queryRaw<{ user_id: string }[]>`
    INSERT INTO terms_notices (user_id, version, queued_at)
    SELECT u.id, ${announced.version}, ${now}
      FROM users u
     WHERE u.agreement_accepted_at IS NOT NULL
       AND u.email IS NOT NULL
       AND u.closed_at IS NULL
       AND COALESCE(u.agreement_version, '') NOT IN (
         SELECT version FROM terms_versions WHERE published_at >= ${announced.publishedAt})
    ON CONFLICT DO NOTHING
    RETURNING user_id`
  if (!claimed.length) return 0
  const users = await prisma.user.findMany({
    where: { id: { in: claimed.map((row) => row.user_id) } },
    select: { id: true, name: true, email: true },
  })
  const context = await emailContext()
  let queued = 0
  for (const user of users) {
    const sent = await notifyCustomer({
      email: user.email,
      userId: user.id,
      ...termsChangedEmail(
        {
          name: user.name,
          version: announced.version,
          effectiveFrom: formatIndiaDateTime(announced.effectiveFrom),
          inForceNow: announced.effectiveFrom.getTime() <= now.getTime(),
        },
        context,
      ),
    })
    if (sent) queued++
  }
  return queued
}
