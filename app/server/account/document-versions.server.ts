import { CONSENT_DOCUMENTS, type ConsentDocumentKind } from '~/domain/consent'
import { formatIndiaLongDate } from '~/domain/dates'
import { VERSIONED_DOCUMENT_KINDS, type VersionedDocumentKind } from '~/domain/document-versions'
import { documentChangedEmail } from '~/server/messaging/emails/customer-emails.server'
import { loggerFor } from '~/server/operations/logger.server'
import { businessDetails } from '../business.server'
import { prisma } from '../db.server'
import { emailContext, notifyCustomer } from '../messaging/customer-notices.server'
import { acknowledgementsDueToPay } from './acceptances.server'
import { currentConsentDocuments } from './agreement-document.server'
import { officialTexts } from './official-texts.server'

const log = loggerFor('account')

// Versions of the Privacy Policy, the Investor Charter and the MITC (docs/decisions/053-document-versions.md): the
// store records each current text the first time it starts with it (publishCurrentDocuments), the pages' "Last
// updated" is that record's date, and customers who acknowledged an earlier text are told by banner and e-mail and
// acknowledge the new one before their next payment (acknowledgementsDueToPay).

export type RecordedDocumentVersion = { kind: VersionedDocumentKind; version: string; publishedAt: Date }

/**
 * Records each versioned document's current text, the first time a store starts with it: published (and in force)
 * now. Of two instances starting at once, one records it (the version is the key); a recorded version keeps its date.
 */
export async function publishCurrentDocuments(now = new Date()): Promise<RecordedDocumentVersion[]> {
  const documents = currentConsentDocuments(businessDetails)
  const created = await prisma.documentVersion.createMany({
    data: VERSIONED_DOCUMENT_KINDS.map((kind) => ({
      version: documents[kind].version,
      kind,
      textSha256: documents[kind].textSha256,
      text: documents[kind].text,
      official: kind in officialTexts,
      publishedAt: now,
    })),
    skipDuplicates: true,
  })
  const recorded = await currentDocumentVersions()
  if (created.count) {
    log.info(
      `Published ${recorded
        .filter((version) => version.publishedAt.getTime() === now.getTime())
        .map((version) => version.version)
        .join(', ')}`,
    )
  }
  return recorded
}

/** The recorded rows of the current texts (none before the store's first start with them). */
export async function currentDocumentVersions(): Promise<RecordedDocumentVersion[]> {
  const documents = currentConsentDocuments(businessDetails)
  const rows = await prisma.documentVersion.findMany({
    where: { version: { in: VERSIONED_DOCUMENT_KINDS.map((kind) => documents[kind].version) } },
    select: { kind: true, version: true, publishedAt: true },
  })
  return rows.flatMap((row) => {
    const kind = VERSIONED_DOCUMENT_KINDS.find((versioned) => versioned === row.kind)
    return kind ? [{ kind, version: row.version, publishedAt: row.publishedAt }] : []
  })
}

/** "29 November 2026": when the current text of `kind` was published, or null before it is recorded. */
export async function publishedOn(kind: VersionedDocumentKind): Promise<string | null> {
  const recorded = (await currentDocumentVersions()).find((version) => version.kind === kind)
  return recorded ? formatIndiaLongDate(recorded.publishedAt) : null
}

export type ChangedDocument = { kind: ConsentDocumentKind; title: string; version: string; publishedOn: string | null }

/** The documents whose new text a customer with a complete profile has not acknowledged yet: the site-wide banner. */
export async function changedDocumentsFor(user: { id: string; agreementAcceptedAt: Date | null }) {
  if (!user.agreementAcceptedAt) return []
  const changed = (await acknowledgementsDueToPay(user.id)).filter((due) => due.changed)
  if (!changed.length) return []
  const recorded = await currentDocumentVersions()
  const documents = currentConsentDocuments(businessDetails)
  return changed.map(({ kind }): ChangedDocument => {
    const published = recorded.find((version) => version.kind === kind)
    return {
      kind,
      title: CONSENT_DOCUMENTS[kind].title,
      version: documents[kind].version,
      publishedOn: published ? formatIndiaLongDate(published.publishedAt) : null,
    }
  })
}

/**
 * The e-mail announcing each current text, once per customer and version: every open account with an e-mail address
 * that acknowledged the document at an earlier version, and never at this one, gets a document_notices row claimed
 * with ON CONFLICT DO NOTHING; only the run whose insert made the row queues the e-mail (two instances send it once).
 * Returns how many were queued.
 */
export async function sendDocumentNotices(now = new Date()): Promise<number> {
  const recorded = await currentDocumentVersions()
  const context = await emailContext()
  let queued = 0
  for (const version of recorded) {
    const claimed = await prisma.$queryRaw<{ user_id: string }[]>`
      INSERT INTO document_notices (user_id, version, queued_at)
      SELECT u.id, ${version.version}, ${now}
        FROM users u
       WHERE u.email IS NOT NULL
         AND u.closed_at IS NULL
         AND u.agreement_accepted_at IS NOT NULL
         AND EXISTS (SELECT 1 FROM acceptances a
                      WHERE a.user_id = u.id AND a.kind = ${version.kind}::"ConsentDocumentKind" AND a.version <> ${version.version})
         AND NOT EXISTS (SELECT 1 FROM acceptances a
                          WHERE a.user_id = u.id AND a.kind = ${version.kind}::"ConsentDocumentKind" AND a.version = ${version.version})
      ON CONFLICT DO NOTHING
      RETURNING user_id`
    if (!claimed.length) continue
    const users = await prisma.user.findMany({
      where: { id: { in: claimed.map((row) => row.user_id) } },
      select: { id: true, name: true, email: true },
    })
    const info = CONSENT_DOCUMENTS[version.kind]
    for (const user of users) {
      const sent = await notifyCustomer({
        email: user.email,
        userId: user.id,
        ...documentChangedEmail(
          {
            name: user.name,
            title: info.title,
            path: info.path,
            version: version.version,
            publishedOn: formatIndiaLongDate(version.publishedAt),
            consent: version.kind === 'PERSONAL_DATA',
          },
          context,
        ),
      })
      if (sent) queued++
    }
  }
  return queued
}
