import { recordAudit } from '../audit.server'
import { businessDetails } from '../business.server'
import { prisma } from '../db.server'
import { Prisma } from '~/generated/prisma/client'
import { copyOriginalRoll, followUpStillAllowed } from './follow-ups.server'
import { researchItemSelect, researchRecordOf, type ResearchItemRow } from './items.server'
import { entitledCustomersSql, researchChannelReachRows } from './reach.server'
import { researchSigningKey, signResearch, verifyResearch, type ResearchSigningKey } from './signing.server'

// Publishing (docs/research.md): one transaction locks the draft, freezes and signs it, and takes
// its roll. A second Publish of the same item, from any instance, waits for the lock and then finds
// it published: the roll is taken once.

/** The publishing transaction writes the whole roll (docs/limits.md). */
export const PUBLISH_TRANSACTION_TIMEOUT_MS = 30_000

export type PublishResult =
  | { ok: true; rollSize: number; publishedAt: Date }
  | { ok: false; reason: 'not-found' | 'already-published' | 'not-scheduled' }
  /** A follow-up whose original was ended (withdrawn, stopped out, closed) since it was written. */
  | { ok: false; reason: 'original-ended' }

/** `scheduledOnly`: the scheduled-publishing job's call, which publishes only an item still scheduled and due. */
type PublishOptions = { scheduledOnly?: boolean }

export async function publishResearchItem(
  itemId: string,
  adminId: string,
  now = new Date(),
  key: ResearchSigningKey = researchSigningKey(),
  { scheduledOnly = false }: PublishOptions = {},
): Promise<PublishResult> {
  return prisma.$transaction(
    async (tx) => {
      const locked = await tx.$queryRaw<{ status: string; due: boolean }[]>`
        SELECT status::text AS status, coalesce(scheduled_at <= ${now}::timestamptz, false) AS due
        FROM research_items WHERE id = ${itemId}::uuid FOR UPDATE`
      if (locked.length === 0) return { ok: false, reason: 'not-found' } as const
      const { status, due } = locked[0]!
      if (status === 'PUBLISHED') return { ok: false, reason: 'already-published' } as const
      // A schedule cancelled, or moved, after the job read it: not this run's to publish.
      if (scheduledOnly && (status !== 'SCHEDULED' || !due)) return { ok: false, reason: 'not-scheduled' } as const
      const draft = await tx.researchItem.findUniqueOrThrow({ where: { id: itemId }, select: researchItemSelect })
      if (
        draft.originalId &&
        draft.followUpKind &&
        !(await followUpStillAllowed(tx, draft.originalId, draft.followUpKind))
      )
        return { ok: false, reason: 'original-ended' } as const
      const frozen: ResearchItemRow = {
        ...draft,
        status: 'PUBLISHED',
        publishedAt: now,
        analystName: businessDetails.name,
        sebiRegistrationNumber: businessDetails.sebiRegistrationNumber,
        bseEnlistmentNumber: businessDetails.bseEnlistmentNumber,
      }
      const signed = signResearch(researchRecordOf(frozen)!, key)
      const rollSize = draft.originalId
        ? await copyOriginalRoll(tx, itemId, draft.originalId, now)
        : await takeRoll(tx, itemId, now)
      // Conditional as well as locked: a row that is no longer a draft is never written again. The roll's
      // size is kept with the row, so lists never count a roll of 100,000 per item shown.
      const updated = await tx.researchItem.updateMany({
        where: { id: itemId, status: { in: ['DRAFT', 'SCHEDULED'] } },
        data: {
          status: 'PUBLISHED',
          publishedAt: now,
          analystName: frozen.analystName,
          sebiRegistrationNumber: frozen.sebiRegistrationNumber,
          bseEnlistmentNumber: frozen.bseEnlistmentNumber,
          rollSize,
          ...signed,
        },
      })
      if (updated.count !== 1) throw new Error(`research item ${itemId} changed while locked`)
      await queueDeliveries(tx, itemId, now)
      await recordAudit(
        tx,
        {
          actorId: adminId,
          action: 'research.publish',
          subjectType: 'research_item',
          subjectId: itemId,
          before: { status },
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
 * The roll, in one set-based statement: every customer entitled at `now` (reach.server.ts), which
 * includes having accepted the terms binding them then (servable.server.ts). The item's roll is empty
 * (it is a draft, locked) and the customers distinct, so nothing can conflict: no ON CONFLICT, whose
 * speculative insertion probed the key and wrote one more WAL record a row (decision 063). A
 * duplicate would be an error, as it should be.
 */
async function takeRoll(tx: Prisma.TransactionClient, itemId: string, now: Date): Promise<number> {
  return tx.$executeRaw`
    INSERT INTO research_roll (item_id, user_id, delivered_at)
    SELECT ${itemId}::uuid, entitled.user_id, ${now}::timestamptz
    FROM (${await entitledCustomersSql(itemId, now, tx)}) entitled`
}

/**
 * A UUID of version 7 (RFC 9562: the Unix time in milliseconds, then random bits), as PostgreSQL 18's
 * uuidv7() makes one, written for the PostgreSQL 15 and later the store runs on. A publication's
 * delivery rows then go to the end of the log's primary key instead of 100,000 random places in it
 * (decision 059: 0.6 to 1.4 s of a publication's CPU).
 */
const TIME_ORDERED_UUID = Prisma.sql`encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
  placing substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
  52, 1), 53, 1), 'hex')::uuid`

/**
 * The delivery log's rows, with the roll (docs/research.md, "Delivery" and "Channels"): one QUEUED
 * row per recipient and channel they chose, due now; the research-deliveries job sends them. No
 * choice made: e-mail on (with an address), SMS off, Telegram off (research_channel_choices). The roll
 * was taken by this transaction, one row a customer, so no (item, customer, channel) can repeat: no
 * ON CONFLICT (every unique index was its arbiter, probed before each row; decision 063).
 */
async function queueDeliveries(tx: Prisma.TransactionClient, itemId: string, now: Date): Promise<number> {
  return tx.$executeRaw`
    INSERT INTO research_deliveries (id, item_id, user_id, channel, queued_at, next_attempt_at)
    SELECT ${TIME_ORDERED_UUID}, r.item_id, r.user_id, c.channel::"ResearchChannel", ${now}::timestamptz, ${now}::timestamptz
    FROM research_roll r
    JOIN users u ON u.id = r.user_id
    LEFT JOIN research_channel_choices p ON p.user_id = r.user_id
    CROSS JOIN LATERAL (VALUES ${researchChannelReachRows()}) AS c(channel, chosen)
    WHERE r.item_id = ${itemId}::uuid AND c.chosen`
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
