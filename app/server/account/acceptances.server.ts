import { currentConsentDocuments, type ConsentDocument } from '~/server/account/agreement-document.server'
import { acknowledgementsDue, VERSIONED_DOCUMENT_KINDS, type DueAcknowledgement } from '~/domain/document-versions'
import { formatIndiaDateTime } from '~/domain/dates'
import {
  CONSENT_DOCUMENT_KINDS,
  recordedUserAgent,
  REQUIRED_TO_PAY_KINDS,
  type ConsentDocumentKind,
} from '~/domain/consent'
import { onboardingCopyEmail } from '~/server/messaging/emails/customer-emails.server'
import type { AcceptanceChannel } from '~/generated/prisma/client'
import { businessDetails } from '../business.server'
import { prisma } from '../db.server'
import { emailContext, notifyCustomer } from '../messaging/customer-notices.server'

/** Where an acceptance came from: the client's address and user agent, and the page or the API. */
export type AcceptanceOrigin = { ip: string; userAgent: string | null; channel: AcceptanceChannel }

export type RecordedAcceptances = {
  /** True for the one acceptance that completed the profile (its terms accepted for the first time): it sends the copy. */
  completedProfile: boolean
}

/**
 * Records one acceptance row per document, append-only (the table's trigger refuses any change),
 * and, when the terms are among them, the users columns that cache the latest: in one transaction
 * under the user's row lock, so of two acceptances racing both are recorded, in order, and only
 * one of them completes the profile (and sends the copy).
 */
export async function recordAcceptances(
  userId: string,
  documents: readonly ConsentDocument[],
  origin: AcceptanceOrigin,
  now = new Date(),
): Promise<RecordedAcceptances> {
  const userAgent = recordedUserAgent(origin.userAgent)
  const terms = documents.find((document) => document.kind === 'TERMS')
  const completedProfile = await prisma.$transaction(async (tx) => {
    const [before] = await tx.$queryRaw<{ agreement_accepted_at: Date | null }[]>`
      SELECT agreement_accepted_at FROM users WHERE id = ${userId}::uuid FOR UPDATE`
    if (!before) throw new Error(`recordAcceptances: no user ${userId}`)
    await tx.acceptance.createMany({
      data: documents.map((document) => ({
        userId,
        kind: document.kind,
        version: document.version,
        textSha256: document.textSha256,
        acceptedAt: now,
        ip: origin.ip,
        userAgent,
        channel: origin.channel,
      })),
    })
    if (!terms) return false
    await tx.user.update({
      where: { id: userId },
      data: {
        agreementAcceptedAt: now,
        agreementVersion: terms.version,
        agreementTextSha256: terms.textSha256,
        agreementIp: origin.ip,
      },
    })
    return before.agreement_accepted_at === null
  })
  return { completedProfile }
}

/**
 * The e-mailed copy of what the customer acknowledged on completing the profile, with each version
 * and the time, through the job queue (never fails the acceptance: notifyCustomer logs a failure).
 */
export async function sendOnboardingCopy(userId: string, documents: readonly ConsentDocument[], acceptedAt: Date) {
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { name: true, email: true } })
  if (!user) return
  await notifyCustomer({
    email: user.email,
    userId,
    ...onboardingCopyEmail(
      {
        name: user.name,
        acceptedAt: formatIndiaDateTime(acceptedAt),
        documents: documents.map((document) => ({
          title: document.document.title,
          version: document.version,
          text: document.text,
        })),
      },
      await emailContext(),
    ),
  })
}

export type AcceptanceRecord = {
  id: string
  kind: ConsentDocumentKind
  version: string
  textSha256: string
  acceptedAt: Date
  ip: string | null
  userAgent: string | null
  channel: AcceptanceChannel | null
}

/**
 * A customer's acceptance history of the onboarding documents, newest first (the admin's customer
 * page). A mandate's consent (kind AUTOPAY_MANDATE) is shown with its mandate instead.
 */
export async function acceptanceHistory(userId: string): Promise<AcceptanceRecord[]> {
  const rows = await prisma.acceptance.findMany({
    where: { userId, kind: { in: [...CONSENT_DOCUMENT_KINDS] } },
    orderBy: [{ acceptedAt: 'desc' }, { kind: 'asc' }],
    select: {
      id: true,
      kind: true,
      version: true,
      textSha256: true,
      acceptedAt: true,
      ip: true,
      userAgent: true,
      channel: true,
    },
  })
  return rows.map((row) => ({ ...row, kind: row.kind as ConsentDocumentKind }))
}

/**
 * What the customer acknowledges before the next payment (requirePayingCustomer, requireApiCustomer, /consents/accept):
 * a document of REQUIRED_TO_PAY_KINDS never acknowledged (onboarded through the API before it asked for it), or a
 * versioned document (Privacy Policy, Investor Charter, MITC) acknowledged only at an earlier text
 * (app/domain/document-versions.ts).
 */
export async function acknowledgementsDueToPay(userId: string): Promise<DueAcknowledgement[]> {
  const given = await prisma.acceptance.findMany({
    where: { userId, kind: { in: [...new Set([...REQUIRED_TO_PAY_KINDS, ...VERSIONED_DOCUMENT_KINDS])] } },
    distinct: ['kind', 'version'],
    select: { kind: true, version: true },
  })
  const current = currentConsentDocuments(businessDetails)
  return acknowledgementsDue(
    given,
    Object.fromEntries(Object.values(current).map((document) => [document.kind, document.version])) as Record<
      ConsentDocumentKind,
      string
    >,
  )
}

/** The kinds of acknowledgementsDueToPay: what the paying guards send the customer to give. */
export async function consentsMissingToPay(userId: string): Promise<ConsentDocumentKind[]> {
  return (await acknowledgementsDueToPay(userId)).map(({ kind }) => kind)
}
