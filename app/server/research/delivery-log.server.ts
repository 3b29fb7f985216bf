import { ADMIN_PAGE_SIZE } from '~/domain/admin'
import type { PageRequest } from '~/domain/keyset'
import type { ResearchChannel, ResearchDeliveryStatus } from '~/generated/prisma/client'
import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'
import { keysetSql, readKeysetPage } from '../keyset.server'

// The delivery log of one published item, as the admin's item page shows it (docs/research.md):
// counts per channel and state, the roll a page at a time, the failed deliveries and their Retry.
// Each read uses an index of the item's rows, so the page stays fast with a 100,000 roll.

/** Failed deliveries the item page lists, newest first (docs/limits.md); Retry takes them all. */
export const FAILED_DELIVERIES_LIST_SIZE = 50

export type DeliveryCounts = {
  channel: ResearchChannel
  queued: number
  sent: number
  /** Reported delivered by the provider (MSG91's delivery reports): sent, and then received. */
  delivered: number
  failed: number
}[]

const COUNT_OF: Record<ResearchDeliveryStatus, keyof Omit<DeliveryCounts[number], 'channel'>> = {
  QUEUED: 'queued',
  SENT: 'sent',
  DELIVERED: 'delivered',
  FAILED: 'failed',
}

/** Per channel, how many deliveries are queued, sent, delivered and failed: one index-only aggregate. */
export async function deliveryCounts(itemId: string): Promise<DeliveryCounts> {
  const rows = await prisma.$queryRaw<{ channel: ResearchChannel; status: ResearchDeliveryStatus; count: number }[]>`
    SELECT channel::text AS channel, status::text AS status, count(*)::int AS count
    FROM research_deliveries WHERE item_id = ${itemId}::uuid
    GROUP BY channel, status ORDER BY channel`
  const byChannel = new Map<ResearchChannel, DeliveryCounts[number]>()
  for (const { channel, status, count } of rows) {
    const counts = byChannel.get(channel) ?? { channel, queued: 0, sent: 0, delivered: 0, failed: 0 }
    counts[COUNT_OF[status]] = count
    byChannel.set(channel, counts)
  }
  return [...byChannel.values()]
}

export type RollRow = {
  userId: string
  name: string | null
  phone: string
  deliveredAt: Date
  channels: { channel: ResearchChannel; status: ResearchDeliveryStatus }[]
}

/**
 * One page of the roll in customer-id order (the roll's primary key), each with its deliveries. The page is
 * cut from the roll before anything is joined to it: planned for the few rows an average item has, a join
 * first read a just-published roll of 100,000 whole, each row with its customer, to keep 51 (186 ms).
 */
export async function rollPage(itemId: string, page: PageRequest, size = ADMIN_PAGE_SIZE) {
  return readKeysetPage(
    page,
    size,
    async (at, take) => {
      const keyset = keysetSql(at, null, 'r.user_id', 'uuid')
      return prisma.$queryRaw<RollRow[]>`
        SELECT r.user_id::text AS "userId", u.name, u.phone, r.delivered_at AS "deliveredAt",
               coalesce((SELECT json_agg(json_build_object('channel', d.channel, 'status', d.status) ORDER BY d.channel)
                         FROM research_deliveries d WHERE d.item_id = r.item_id AND d.user_id = r.user_id), '[]') AS channels
        FROM (
          SELECT r.item_id, r.user_id, r.delivered_at FROM research_roll r
          WHERE r.item_id = ${itemId}::uuid AND ${keyset.where}
          ${keyset.orderBy}
          LIMIT ${take}
        ) r
        JOIN users u ON u.id = r.user_id
        ${keyset.orderBy}`
    },
    (row) => ({ id: row.userId }),
  )
}

export type FailedDelivery = {
  id: string
  userId: string
  name: string | null
  phone: string
  channel: ResearchChannel
  attempts: number
  failedAt: Date
  reason: string
}

/** The newest failed deliveries of the item, from the partial index of failed rows. */
export async function failedDeliveries(itemId: string, limit = FAILED_DELIVERIES_LIST_SIZE): Promise<FailedDelivery[]> {
  return prisma.$queryRaw<FailedDelivery[]>`
    SELECT d.id::text, d.user_id::text AS "userId", u.name, u.phone, d.channel::text AS channel, d.attempts,
           d.failed_at AS "failedAt", d.last_error AS reason
    FROM research_deliveries d JOIN users u ON u.id = d.user_id
    WHERE d.item_id = ${itemId}::uuid AND d.status = 'FAILED'
    ORDER BY d.failed_at DESC, d.id DESC
    LIMIT ${limit}`
}

/**
 * Retry: every FAILED delivery of the item goes back to QUEUED, its tries counted from none, due
 * now; the research-deliveries job sends them. Audited with the count, in the same transaction.
 * The last reason stays on the row until a try succeeds.
 */
export async function retryFailedDeliveries(itemId: string, adminId: string, now = new Date()): Promise<number> {
  return prisma.$transaction(async (tx) => {
    const retried = await tx.$executeRaw`
      UPDATE research_deliveries
      SET status = 'QUEUED', attempts = 0, next_attempt_at = ${now}::timestamptz, failed_at = NULL
      WHERE item_id = ${itemId}::uuid AND status = 'FAILED'`
    if (retried > 0)
      await recordAudit(
        tx,
        {
          actorId: adminId,
          action: 'research.retry-deliveries',
          subjectType: 'research_item',
          subjectId: itemId,
          before: { status: 'FAILED', deliveries: retried },
          after: { status: 'QUEUED', deliveries: retried },
        },
        now,
      )
    return retried
  })
}
