import { researchRetentionCutoff } from '~/domain/research-retention'
import { Prisma } from '~/generated/prisma/client'
import { executeInBatches, prisma } from '../db.server'
import { deleteResearchAttachments } from './attachment.server'

// Research records (docs/research.md, "Retention"): an item with its roll, its delivery log and its
// readers' marks is kept 5 years from publication, as SEBI's Research Analyst Regulations ask of
// research and its records, then erased by the daily retention job (app/server/account/retention.server.ts),
// as the privacy policy's table says. Each step deletes a bounded batch per statement.

/** Rows per statement of the research step; items per transaction (docs/limits.md). */
export const RESEARCH_RETENTION_BATCH_ROWS = 5_000

/**
 * An item `i` whose records are due for erasure: published before `cutoff`, and every follow-up of
 * it (correction, withdrawal, a call's outcome) too, so a record is never erased while a younger
 * one that names it is kept (and the follow-up's reference to it holds).
 */
function dueItemSql(cutoff: Date) {
  return Prisma.sql`i.status = 'PUBLISHED' AND i.published_at < ${cutoff}
    AND NOT EXISTS (SELECT 1 FROM research_items f WHERE f.original_id = i.id
      AND (f.status <> 'PUBLISHED' OR f.published_at >= ${cutoff}))`
}

/** One batch of a dependent table's rows of due items (`table` has an index led by item_id; trusted name). */
function dependentsBatchSql(table: string, key: string, cutoff: Date, batchRows: number) {
  return Prisma.sql`DELETE FROM ${Prisma.raw(table)} WHERE (${Prisma.raw(key)}) IN (
    SELECT ${Prisma.raw(
      key
        .split(', ')
        .map((column) => `d.${column}`)
        .join(', '),
    )}
    FROM research_items i JOIN ${Prisma.raw(table)} d ON d.item_id = i.id
    WHERE ${dueItemSql(cutoff)} LIMIT ${batchRows})`
}

/**
 * Erases the items published more than RESEARCH_KEPT_YEARS before `now`: their delivery rows, reads
 * and roll first, batch by batch, then the items themselves with an audit entry each naming
 * `actorId` (the retention job's), and their PDF attachments' files. Running it again does nothing.
 */
export async function eraseExpiredResearch(now: Date, actorId: string, batchRows = RESEARCH_RETENTION_BATCH_ROWS) {
  const cutoff = researchRetentionCutoff(now)
  let rows = 0
  rows += await executeInBatches(dependentsBatchSql('research_deliveries', 'id', cutoff, batchRows), batchRows)
  rows += await executeInBatches(dependentsBatchSql('research_reads', 'user_id, item_id', cutoff, batchRows), batchRows)
  rows += await executeInBatches(dependentsBatchSql('research_roll', 'item_id, user_id', cutoff, batchRows), batchRows)
  let items = 0
  for (;;) {
    const erased = await prisma.$transaction(async (tx) => {
      const due = await tx.$queryRaw<
        { id: string; published_at: Date; content_sha256: string | null; attachment_key: string | null }[]
      >`
        SELECT i.id::text AS id, i.published_at, i.content_sha256, i.attachment_key FROM research_items i
        WHERE ${dueItemSql(cutoff)}
        ORDER BY i.original_id IS NULL, i.published_at, i.id LIMIT ${batchRows} FOR UPDATE`
      if (due.length === 0) return { count: 0, attachmentKeys: [] }
      const ids = due.map((item) => item.id)
      await tx.researchItemService.deleteMany({ where: { itemId: { in: ids } } })
      // Follow-ups first (they sort first, so an original never comes in a batch before its own).
      await tx.researchItem.deleteMany({ where: { id: { in: ids }, originalId: { not: null } } })
      await tx.researchItem.deleteMany({ where: { id: { in: ids } } })
      await tx.auditLog.createMany({
        data: due.map((item) => ({
          actorId,
          action: 'retention.erase',
          subjectType: 'ResearchItem',
          subjectId: item.id,
          after: {
            rule: 'research-records-ended',
            publishedAt: item.published_at.toISOString(),
            contentSha256: item.content_sha256,
            erasedAt: now.toISOString(),
          },
          createdAt: now,
        })),
      })
      return { count: due.length, attachmentKeys: due.flatMap((item) => item.attachment_key ?? []) }
    })
    // The files go once their rows are gone for good (a failed transaction keeps both).
    await deleteResearchAttachments(erased.attachmentKeys)
    items += erased.count
    if (erased.count < batchRows) break
  }
  return { researchItems: items, researchRecords: rows }
}
