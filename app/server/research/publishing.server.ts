import { KYC_STATUSES, kycAllowsPayment } from '~/domain/kyc'
import { recordAudit } from '../audit.server'
import { businessDetails } from '../business.server'
import { prisma } from '../db.server'
import type { Prisma } from '~/generated/prisma/client'
import { researchItemSelect, researchRecordOf, type ResearchItemRow } from './items.server'
import { researchSigningKey, signResearch, verifyResearch, type ResearchSigningKey } from './signing.server'
import { termsAcceptedSql } from './servable.server'

// Publishing (docs/research.md): one transaction locks the draft, freezes and signs it, and takes
// its roll. A second Publish of the same item, from any instance, waits for the lock and then finds
// it published: the roll is taken once.

/** The publishing transaction writes the whole roll (docs/limits.md). */
export const PUBLISH_TRANSACTION_TIMEOUT_MS = 30_000

/** The KYC answers that allow serving a customer: the same rule as paying (app/domain/kyc.ts). */
const SERVABLE_KYC_STATUSES = KYC_STATUSES.filter((status) => kycAllowsPayment(status))

export type PublishResult =
  { ok: true; rollSize: number; publishedAt: Date } | { ok: false; reason: 'not-found' | 'already-published' }

export async function publishResearchItem(
  itemId: string,
  adminId: string,
  now = new Date(),
  key: ResearchSigningKey = researchSigningKey(),
): Promise<PublishResult> {
  return prisma.$transaction(
    async (tx) => {
      const locked = await tx.$queryRaw<{ status: string }[]>`
        SELECT status::text AS status FROM research_items WHERE id = ${itemId}::uuid FOR UPDATE`
      if (locked.length === 0) return { ok: false, reason: 'not-found' } as const
      if (locked[0]!.status !== 'DRAFT') return { ok: false, reason: 'already-published' } as const
      const draft = await tx.researchItem.findUniqueOrThrow({ where: { id: itemId }, select: researchItemSelect })
      const frozen: ResearchItemRow = {
        ...draft,
        status: 'PUBLISHED',
        publishedAt: now,
        analystName: businessDetails.name,
        sebiRegistrationNumber: businessDetails.sebiRegistrationNumber,
        bseEnlistmentNumber: businessDetails.bseEnlistmentNumber,
      }
      const signed = signResearch(researchRecordOf(frozen)!, key)
      // Conditional as well as locked: a row that is no longer a draft is never written again.
      const updated = await tx.researchItem.updateMany({
        where: { id: itemId, status: 'DRAFT' },
        data: {
          status: 'PUBLISHED',
          publishedAt: now,
          analystName: frozen.analystName,
          sebiRegistrationNumber: frozen.sebiRegistrationNumber,
          bseEnlistmentNumber: frozen.bseEnlistmentNumber,
          ...signed,
        },
      })
      if (updated.count !== 1) throw new Error(`research item ${itemId} changed while locked`)
      const rollSize = await takeRoll(tx, itemId, now)
      await queueDeliveries(tx, itemId, now)
      await recordAudit(
        tx,
        {
          actorId: adminId,
          action: 'research.publish',
          subjectType: 'research_item',
          subjectId: itemId,
          before: { status: 'DRAFT' },
          after: { status: 'PUBLISHED', contentSha256: signed.contentSha256, rollSize },
        },
        now,
      )
      return { ok: true, rollSize, publishedAt: now } as const
    },
    { timeout: PUBLISH_TRANSACTION_TIMEOUT_MS },
  )
}

/**
 * The roll, in one set-based statement: every customer with a subscription to one of the item's
 * services running at `now` (paid or granted), account open and not erased, KYC allowing service,
 * the terms binding them at `now` accepted (servable.server.ts).
 */
async function takeRoll(tx: Prisma.TransactionClient, itemId: string, now: Date): Promise<number> {
  const termsAccepted = await termsAcceptedSql(tx, now)
  return tx.$executeRaw`
    INSERT INTO research_roll (item_id, user_id, delivered_at)
    SELECT DISTINCT ${itemId}::uuid, s.user_id, ${now}::timestamptz
    FROM research_item_services ris
    JOIN subscriptions s ON s.service_id = ris.service_id
    JOIN users u ON u.id = s.user_id
    WHERE ris.item_id = ${itemId}::uuid
      AND s.starts_at <= ${now}::timestamptz AND s.ends_at > ${now}::timestamptz
      AND u.closed_at IS NULL AND u.erased_at IS NULL
      AND u.kyc_status::text = ANY(${SERVABLE_KYC_STATUSES}::text[])
      AND ${termsAccepted}
    ON CONFLICT DO NOTHING`
}

/**
 * The delivery log's rows, with the roll (docs/research.md, "Delivery"): one QUEUED e-mail for each
 * recipient with an address, due now; the research-deliveries job sends them.
 */
async function queueDeliveries(tx: Prisma.TransactionClient, itemId: string, now: Date): Promise<number> {
  return tx.$executeRaw`
    INSERT INTO research_deliveries (item_id, user_id, channel, queued_at, next_attempt_at)
    SELECT r.item_id, r.user_id, 'EMAIL', ${now}::timestamptz, ${now}::timestamptz
    FROM research_roll r
    JOIN users u ON u.id = r.user_id
    WHERE r.item_id = ${itemId}::uuid AND u.email IS NOT NULL AND u.email <> ''
    ON CONFLICT DO NOTHING`
}

export type Verification = 'verified' | 'altered' | 'draft' | 'not-found'

/** Whether a stored item still matches its signature under the store's key. */
export async function verifyStoredResearchItem(
  itemId: string,
  key: ResearchSigningKey = researchSigningKey(),
): Promise<Verification> {
  const item = await prisma.researchItem.findUnique({ where: { id: itemId }, select: researchItemSelect })
  if (!item) return 'not-found'
  const record = researchRecordOf(item)
  if (!record || !item.signature) return 'draft'
  return verifyResearch(record, item.signature, key.publicKey) ? 'verified' : 'altered'
}
