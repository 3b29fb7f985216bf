import { RECORDS_KEPT_YEARS } from '~/domain/account-closing'
import { MS_PER_DAY } from '~/domain/dates'
import { ACCOUNT_DATA_RETENTION_DAYS, UNFINISHED_ACCOUNT_ERASE_DAYS } from '~/content/legal/rules'
import { Prisma } from '~/generated/prisma/client'
import { prisma } from './db.server'
import { getFileStorage, type FileStorage } from './storage.server'

// The retention job (issue 19 item 6): erases what the privacy policy's retention table
// (app/content/legal/privacy-policy.ts, docs/regulatory.md) no longer lets us keep. A customer's row
// stays, anonymised, so that the records the law keeps longer (payments, ledger, invoices, credit
// notes, refunds, complaints) still point at it; its acceptances go once they are 5 years old: name, e-mail, date of birth, PAN and
// its image, the KRA's answers and correction requests go, and the phone becomes `erased-<id>`,
// unique and matching no number. Each step works in bounded batches, one batch per statement.

/** Rows per statement; each batch also deletes up to this many PAN card images from storage. */
export const RETENTION_BATCH_ROWS = 200

/** Who the audit log names for the job's erasures: no user has this id. */
export const RETENTION_ACTOR_ID = '00000000-0000-0000-0000-000000000000'

export type RetentionRule = 'closed-records-ended' | 'closed-never-a-client' | 'unfinished-inactive'

/** The cut-offs at `now`: a row whose period ended before its cut-off is due. */
export function retentionCutoffs(now: Date) {
  const records = new Date(now)
  records.setUTCFullYear(records.getUTCFullYear() - RECORDS_KEPT_YEARS)
  return {
    /** SEBI's records: 5 years after the account closed and after its last transaction. */
    records,
    /** Account data of a closed account that holds no client records, and family members' PANs. */
    accountData: new Date(now.getTime() - ACCOUNT_DATA_RETENTION_DAYS * MS_PER_DAY),
    /** An open account whose profile was never completed, unused this long. */
    unfinished: new Date(now.getTime() - UNFINISHED_ACCOUNT_ERASE_DAYS * MS_PER_DAY),
  }
}

/** No payment, refund, ledger entry or subscription of user `u` at or after `since`: its last transaction is older. */
const noTransactionSince = (since: Date) => Prisma.sql`
  NOT EXISTS (SELECT 1 FROM ledger_entries l WHERE l.user_id = u.id AND l.occurred_at >= ${since})
  AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.user_id = u.id
    AND (p.created_at >= ${since} OR p.paid_at >= ${since} OR p.status IN ('CREATED', 'PENDING_VERIFICATION')))
  AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.user_id = u.id
    AND (r.created_at >= ${since} OR r.processed_at >= ${since}))
  AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = u.id AND s.ends_at >= ${since})`

/** One batch of the accounts a rule erases at `now` (indexed: the partial indexes of the retention migration). */
function dueAccountsSql(rule: RetentionRule, now: Date, batchRows: number) {
  const cutoffs = retentionCutoffs(now)
  const where =
    rule === 'closed-records-ended'
      ? Prisma.sql`u.closed_at IS NOT NULL AND u.closed_at < ${cutoffs.records} AND ${noTransactionSince(cutoffs.records)}`
      : rule === 'closed-never-a-client'
        ? Prisma.sql`u.closed_at IS NOT NULL AND u.closed_at < ${cutoffs.accountData}
            AND u.agreement_accepted_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.user_id = u.id)`
        : Prisma.sql`u.closed_at IS NULL AND u.agreement_accepted_at IS NULL AND u.role = 'CUSTOMER'
            AND u.last_seen_at < ${cutoffs.unfinished}
            AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.user_id = u.id)`
  const order = rule === 'unfinished-inactive' ? Prisma.sql`u.last_seen_at` : Prisma.sql`u.closed_at`
  return Prisma.sql`SELECT u.id, u.pan_card_key FROM users u
    WHERE u.erased_at IS NULL AND ${where} ORDER BY ${order} LIMIT ${batchRows}`
}

/**
 * Erases one batch of accounts: their PAN card images first (deleting a missing file is no error,
 * so a batch that fails after that is simply done again), then in one transaction the row's
 * personal data, its sessions, family members and correction requests, and an audit entry each.
 */
async function eraseAccounts(
  rows: { id: string; pan_card_key: string | null }[],
  rule: RetentionRule,
  now: Date,
  storage: FileStorage,
): Promise<number> {
  for (const row of rows) if (row.pan_card_key) await storage.delete(row.pan_card_key)
  const ids = rows.map((row) => row.id)
  const withImage = new Set(rows.filter((row) => row.pan_card_key).map((row) => row.id))
  return prisma.$transaction(async (tx) => {
    const erased = await tx.$queryRaw<{ id: string }[]>`
      UPDATE users SET name = NULL, email = NULL, date_of_birth = NULL, pan_encrypted = NULL, pan_hash = NULL,
        pan_card_key = NULL, kyc_status = NULL, kyc_checked_at = NULL, kyc_reference = NULL,
        kyc_name_on_record = NULL, agreement_ip = NULL, phone = 'erased-' || id::text,
        erased_at = ${now}, updated_at = ${now}
      WHERE id = ANY(${ids}::uuid[]) AND erased_at IS NULL
      RETURNING id::text AS id`
    const erasedIds = erased.map((row) => row.id)
    if (erasedIds.length === 0) return 0
    await tx.session.deleteMany({ where: { userId: { in: erasedIds } } })
    await tx.familyMember.deleteMany({ where: { userId: { in: erasedIds } } })
    await tx.correctionRequest.deleteMany({ where: { userId: { in: erasedIds } } })
    await tx.auditLog.createMany({
      data: erasedIds.map((id) => ({
        actorId: RETENTION_ACTOR_ID,
        action: 'retention.erase',
        subjectType: 'User',
        subjectId: id,
        after: { rule, erasedAt: now.toISOString(), panCardImageDeleted: withImage.has(id) },
        createdAt: now,
      })),
    })
    return erasedIds.length
  })
}

/** One batch of family members' PANs of accounts closed more than ACCOUNT_DATA_RETENTION_DAYS ago. */
function familyMembersBatchSql(now: Date, batchRows: number) {
  return Prisma.sql`DELETE FROM family_members WHERE id IN (
    SELECT f.id FROM users u JOIN family_members f ON f.user_id = u.id
    WHERE u.erased_at IS NULL AND u.closed_at IS NOT NULL AND u.closed_at < ${retentionCutoffs(now).accountData}
    LIMIT ${batchRows})`
}

/**
 * One batch of acceptances of erased accounts once they are 5 years old (the acceptances trigger
 * allows no earlier DELETE; its own clock is the database's, hence both conditions).
 */
function acceptancesBatchSql(now: Date, batchRows: number) {
  return Prisma.sql`DELETE FROM acceptances WHERE id IN (
    SELECT a.id FROM users u JOIN acceptances a ON a.user_id = u.id
    WHERE u.erased_at IS NOT NULL AND a.accepted_at < ${retentionCutoffs(now).records}
      AND a.accepted_at < now() - interval '5 years'
    LIMIT ${batchRows})`
}

export type RetentionReport = Record<RetentionRule, number> & { familyMembers: number; acceptances: number }

/** The daily retention job: every rule, batch after batch, until nothing is due. Running it again does nothing. */
export async function eraseExpiredData(
  now = new Date(),
  { batchRows = RETENTION_BATCH_ROWS, storage = getFileStorage() }: { batchRows?: number; storage?: FileStorage } = {},
): Promise<RetentionReport> {
  const report: RetentionReport = {
    'closed-records-ended': 0,
    'closed-never-a-client': 0,
    'unfinished-inactive': 0,
    familyMembers: 0,
    acceptances: 0,
  }
  for (;;) {
    const batch = await prisma.$executeRaw(familyMembersBatchSql(now, batchRows))
    report.familyMembers += batch
    if (batch < batchRows) break
  }
  for (const rule of ['closed-records-ended', 'closed-never-a-client', 'unfinished-inactive'] as const) {
    for (;;) {
      const rows = await prisma.$queryRaw<{ id: string; pan_card_key: string | null }[]>(
        dueAccountsSql(rule, now, batchRows),
      )
      if (rows.length > 0) report[rule] += await eraseAccounts(rows, rule, now, storage)
      if (rows.length < batchRows) break
    }
  }
  for (;;) {
    const batch = await prisma.$executeRaw(acceptancesBatchSql(now, batchRows))
    report.acceptances += batch
    if (batch < batchRows) break
  }
  return report
}
