import { Prisma } from '~/generated/prisma/client'
import { executeInBatches } from '../db.server'

// The hourly clean-up of rows that only mattered for a while.

/** Longer than the longest rate-limit window (1 hour) and a code's life (5 minutes). */
export const PRUNE_AFTER_MS = 24 * 60 * 60_000
/** Rows deleted per statement by the clean-up: each statement holds its locks for one batch. */
export const PRUNE_BATCH_ROWS = 5_000

/**
 * What the hourly clean-up deletes: the table, its key, the time column (indexed) and the cut-off
 * it is compared with. Telegram stops re-sending an update after a day, so the ids kept against
 * replays can go then; a Telegram link token is of no use once it has expired, used or not.
 */
export function pruneTargets(now: Date) {
  const cutoff = new Date(now.getTime() - PRUNE_AFTER_MS)
  return [
    { table: 'rate_limit_events', key: 'id', column: 'created_at', before: cutoff },
    { table: 'otp_challenges', key: 'id', column: 'created_at', before: cutoff },
    { table: 'sessions', key: 'id', column: 'expires_at', before: now },
    { table: 'telegram_updates', key: 'update_id', column: 'received_at', before: cutoff },
    { table: 'telegram_link_tokens', key: 'token_sha256', column: 'expires_at', before: now },
  ] as const
}

/** One batch of the clean-up's DELETE for a target (trusted table and column names). */
export function pruneBatchSql(
  { table, key, column, before }: ReturnType<typeof pruneTargets>[number],
  batchRows: number,
) {
  return Prisma.sql`DELETE FROM ${Prisma.raw(table)} WHERE ${Prisma.raw(key)} IN (
    SELECT ${Prisma.raw(key)} FROM ${Prisma.raw(table)} WHERE ${Prisma.raw(column)} < ${before} LIMIT ${batchRows})`
}

export async function pruneExpiredRows(now = new Date(), batchRows = PRUNE_BATCH_ROWS): Promise<number> {
  let deleted = 0
  for (const target of pruneTargets(now)) deleted += await executeInBatches(pruneBatchSql(target, batchRows), batchRows)
  return deleted
}
