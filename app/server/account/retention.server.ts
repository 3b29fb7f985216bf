import { RECORDS_KEPT_YEARS } from '~/domain/account-closing'
import { latestAdultBirthDate, MS_PER_DAY } from '~/domain/dates'
import { complaintCutoff, paymentRecordsCutoffs } from '~/domain/record-retention'
import { ACCOUNT_DATA_RETENTION_DAYS, UNFINISHED_ACCOUNT_ERASE_DAYS } from '~/content/legal/rules'
import { Prisma } from '~/generated/prisma/client'
import { executeInBatches, prisma } from '../db.server'
import { getFileStorage, type FileStorage } from '../storage.server'
import { eraseExpiredResearch } from '../research/retention.server'

// The retention job: erases what the privacy policy's retention table
// (app/content/legal/privacy-policy.ts, docs/regulatory.md) no longer lets us keep. A customer's row
// stays, anonymised, so that the records the law keeps longer (payments, ledger, invoices, credit
// notes, refunds, complaints) still point at it: name, e-mail, date of birth, PAN and its image, the
// KRA's answers and correction requests go, and the phone becomes `erased-<id>`, unique and matching
// no number. Those records go later, each when its own period ends (app/domain/record-retention.ts):
// an erased account's acceptances at 5 years, its payments with everything hanging off them at the
// later of 5 years and the GST period, and anyone's complaints 5 years after their last step. The row
// itself stays even when nothing points at it any more: the audit log names it (no foreign key) and
// it holds no personal data. Each step works in bounded batches, one batch per statement.

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
        kyc_name_on_record = NULL, kyc_dob_on_record = NULL,
        kyc_record_reviewed_for = NULL, agreement_ip = NULL, phone = 'erased-' || id::text,
        erased_at = ${now}, updated_at = ${now}
      WHERE id = ANY(${ids}::uuid[]) AND erased_at IS NULL
      RETURNING id::text AS id`
    const erasedIds = erased.map((row) => row.id)
    if (erasedIds.length === 0) return 0
    await tx.session.deleteMany({ where: { userId: { in: erasedIds } } })
    await tx.familyMember.deleteMany({ where: { userId: { in: erasedIds } } })
    await tx.dataNominee.deleteMany({ where: { userId: { in: erasedIds } } })
    await tx.correctionRequest.deleteMany({ where: { userId: { in: erasedIds } } })
    // The Telegram chat id is personal data too; the delivery log keeps what was sent.
    await tx.researchChannelChoice.deleteMany({ where: { userId: { in: erasedIds } } })
    await tx.telegramLinkToken.deleteMany({ where: { userId: { in: erasedIds } } })
    await tx.sentMessage.deleteMany({ where: { userId: { in: erasedIds } } })
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

/** Payments that can never be erased: money still on its way. */
const OPEN_PAYMENT_STATUSES = Prisma.sql`('CREATED', 'PENDING_VERIFICATION')`

/**
 * One batch of payments of erased accounts whose records' periods have all ended: no open payment,
 * no refund still to be paid. Erased accounts in erased_at order from `from`, where the run's last
 * batch ended (the users_erased partial index), each one's payments by its payment index: the
 * LATERAL subquery's LIMIT keeps the planner from scanning every old payment instead, and `from`
 * keeps a run from walking again the accounts it already emptied; only the accounts erased at that
 * same instant (one earlier run's) are read again (docs/limits.md has the figures).
 */
export function duePaymentsSql(now: Date, batchRows: number, from: Date | null = null) {
  const { taxRecords, records } = paymentRecordsCutoffs(now)
  const taxAndRecords = taxRecords < records ? taxRecords : records
  const resume = from ? Prisma.sql`AND u.erased_at >= ${from}` : Prisma.empty
  return Prisma.sql`SELECT p.id, u.erased_at FROM users u CROSS JOIN LATERAL (
      SELECT p.id::text AS id FROM payments p
      WHERE p.user_id = u.id AND p.status NOT IN ${OPEN_PAYMENT_STATUSES}
        AND p.created_at < ${taxAndRecords} AND (p.paid_at IS NULL OR p.paid_at < ${taxAndRecords})
        AND NOT EXISTS (SELECT 1 FROM ledger_entries l WHERE l.payment_id = p.id AND l.occurred_at >= ${taxAndRecords})
        AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.payment_id = p.id
          AND (r.status <> 'PROCESSED' OR r.created_at >= ${records} OR r.processed_at >= ${records}))
        AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.payment_id = p.id AND s.ends_at >= ${records})
      LIMIT ${batchRows}) p
    WHERE u.erased_at IS NOT NULL ${resume} ORDER BY u.erased_at LIMIT ${batchRows}`
}

/**
 * Erases one batch of payments with their ledger entries (invoice, receipt, credit notes), refunds
 * and subscriptions, in foreign key order, in one transaction with an audit entry each. The document
 * numbers go in the audit entry; document_sequences is never touched, so no number is issued twice.
 */
async function erasePayments(ids: string[], now: Date): Promise<number> {
  return prisma.$transaction(async (tx) => {
    const documents = await tx.ledgerEntry.findMany({
      where: { paymentId: { in: ids } },
      select: { paymentId: true, documentNumber: true },
      orderBy: { id: 'asc' },
    })
    await tx.ledgerEntry.deleteMany({ where: { paymentId: { in: ids } } })
    await tx.refund.deleteMany({ where: { paymentId: { in: ids } } })
    await tx.subscription.deleteMany({ where: { paymentId: { in: ids } } })
    const erased = await tx.$queryRaw<{ id: string; user_id: string }[]>`
      DELETE FROM payments WHERE id = ANY(${ids}::uuid[]) RETURNING id::text AS id, user_id::text AS user_id`
    await tx.auditLog.createMany({
      data: erased.map((payment) => ({
        actorId: RETENTION_ACTOR_ID,
        action: 'retention.erase',
        subjectType: 'Payment',
        subjectId: payment.id,
        after: {
          rule: 'payment-records-ended',
          userId: payment.user_id,
          documentNumbers: documents.filter((row) => row.paymentId === payment.id).map((row) => row.documentNumber),
          erasedAt: now.toISOString(),
        },
        createdAt: now,
      })),
    })
    return erased.length
  })
}

/** One batch of an erased account's subscriptions an admin granted (no payment), 5 years after they ended. */
export function grantedSubscriptionsBatchSql(now: Date, batchRows: number) {
  return Prisma.sql`DELETE FROM subscriptions WHERE id IN (
    SELECT s.id FROM users u JOIN subscriptions s ON s.user_id = u.id
    WHERE u.erased_at IS NOT NULL AND s.payment_id IS NULL AND s.ends_at < ${paymentRecordsCutoffs(now).records}
      AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.subscription_id = s.id)
    LIMIT ${batchRows})`
}

/** One batch of resolved or closed complaints whose last step is over 5 years old (by the resolved_at index). */
export function dueComplaintsSql(now: Date, batchRows: number) {
  const cutoff = complaintCutoff(now)
  return Prisma.sql`SELECT c.id::text AS id, c.attachment_key FROM complaints c
    WHERE c.status IN ('RESOLVED', 'CLOSED') AND c.resolved_at < ${cutoff}
      AND NOT EXISTS (SELECT 1 FROM complaint_events e WHERE e.complaint_id = c.id AND e.created_at >= ${cutoff})
    ORDER BY c.resolved_at LIMIT ${batchRows}`
}

/**
 * Erases one batch of complaints: their attachments first (as PAN card images), then the rows, whose
 * steps and messages go with them (ON DELETE CASCADE), with an audit entry each naming the reference.
 * The complaint board's published months are stored figures and stay as published.
 */
async function eraseComplaints(
  rows: { id: string; attachment_key: string | null }[],
  now: Date,
  storage: FileStorage,
): Promise<number> {
  for (const row of rows) if (row.attachment_key) await storage.delete(row.attachment_key)
  return prisma.$transaction(async (tx) => {
    const erased = await tx.$queryRaw<{ id: string; reference: string }[]>`
      DELETE FROM complaints WHERE id = ANY(${rows.map((row) => row.id)}::uuid[]) RETURNING id::text AS id, reference`
    await tx.auditLog.createMany({
      data: erased.map((complaint) => ({
        actorId: RETENTION_ACTOR_ID,
        action: 'retention.erase',
        subjectType: 'Complaint',
        subjectId: complaint.id,
        after: { rule: 'complaint-records-ended', reference: complaint.reference, erasedAt: now.toISOString() },
        createdAt: now,
      })),
    })
    return erased.length
  })
}

/**
 * One batch of accounts holding what only a client's profile may hold (a PAN card image, an
 * acceptance) without an adult date of birth saved, and no payment: left by someone refused as
 * under 18 (or who skipped the date) through the API before it refused them. Every acceptance sets
 * agreement_accepted_at, so the two columns find them all.
 */
function minorLeftoversSql(now: Date, batchRows: number) {
  return Prisma.sql`SELECT u.id::text AS id, u.pan_card_key FROM users u
    WHERE u.erased_at IS NULL AND (u.pan_card_key IS NOT NULL OR u.agreement_accepted_at IS NOT NULL)
      AND (u.date_of_birth IS NULL OR u.date_of_birth > ${latestAdultBirthDate(now)}::date)
      AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.user_id = u.id)
    ORDER BY u.id LIMIT ${batchRows}`
}

/**
 * Erases one batch of a minor's leftovers: the PAN card images first (as eraseAccounts), then in one
 * transaction, re-checking that no adult date of birth was saved meanwhile, the acceptances (the
 * trigger allows exactly these), the cached agreement columns and the image's key, with an audit
 * entry each. The account stays open: its owner may sign in, and at 18 onboard afresh.
 */
async function eraseMinorLeftovers(
  rows: { id: string; pan_card_key: string | null }[],
  now: Date,
  storage: FileStorage,
): Promise<number> {
  for (const row of rows) if (row.pan_card_key) await storage.delete(row.pan_card_key)
  const withImage = new Set(rows.filter((row) => row.pan_card_key).map((row) => row.id))
  const latestAdult = latestAdultBirthDate(now)
  return prisma.$transaction(async (tx) => {
    const due = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM users
      WHERE id = ANY(${rows.map((row) => row.id)}::uuid[]) AND erased_at IS NULL
        AND (date_of_birth IS NULL OR date_of_birth > ${latestAdult}::date)
      FOR UPDATE`
    const ids = due.map((row) => row.id)
    if (ids.length === 0) return 0
    const acceptances = await tx.$queryRaw<{ user_id: string }[]>`
      DELETE FROM acceptances WHERE user_id = ANY(${ids}::uuid[]) RETURNING user_id::text AS user_id`
    await tx.$executeRaw`
      UPDATE users SET pan_card_key = NULL, agreement_accepted_at = NULL, agreement_version = NULL,
        agreement_text_sha256 = NULL, agreement_ip = NULL, updated_at = ${now}
      WHERE id = ANY(${ids}::uuid[])`
    await tx.auditLog.createMany({
      data: ids.map((id) => ({
        actorId: RETENTION_ACTOR_ID,
        action: 'retention.erase',
        subjectType: 'User',
        subjectId: id,
        after: {
          rule: 'minor-leftovers',
          erasedAt: now.toISOString(),
          panCardImageDeleted: withImage.has(id),
          acceptancesDeleted: acceptances.filter((row) => row.user_id === id).length,
        },
        createdAt: now,
      })),
    })
    return ids.length
  })
}

/** One batch of the archived messages sent before the records' cut-off (5 years), by the sent_at index. */
function sentMessagesBatchSql(now: Date, batchRows: number) {
  return Prisma.sql`DELETE FROM sent_messages WHERE id IN (
    SELECT id FROM sent_messages WHERE sent_at < ${retentionCutoffs(now).records} LIMIT ${batchRows})`
}

export type RetentionReport = Record<RetentionRule, number> & {
  /** Accounts without an adult date of birth whose PAN card image and acceptances were erased. */
  minorLeftovers: number
  familyMembers: number
  acceptances: number
  payments: number
  grantedSubscriptions: number
  complaints: number
  /** Research items published over 5 years ago, and the roll, delivery and read rows erased with them. */
  researchItems: number
  researchRecords: number
  /** Archived messages sent over 5 years ago. */
  sentMessages: number
}

/** The daily retention job: every rule, batch after batch, until nothing is due. Running it again does nothing. */
export async function eraseExpiredData(
  now = new Date(),
  { batchRows = RETENTION_BATCH_ROWS, storage = getFileStorage() }: { batchRows?: number; storage?: FileStorage } = {},
): Promise<RetentionReport> {
  const report: RetentionReport = {
    'closed-records-ended': 0,
    'closed-never-a-client': 0,
    'unfinished-inactive': 0,
    minorLeftovers: 0,
    familyMembers: 0,
    acceptances: 0,
    payments: 0,
    grantedSubscriptions: 0,
    complaints: 0,
    researchItems: 0,
    researchRecords: 0,
    sentMessages: 0,
  }
  report.familyMembers = await executeInBatches(familyMembersBatchSql(now, batchRows), batchRows)
  for (;;) {
    const rows = await prisma.$queryRaw<{ id: string; pan_card_key: string | null }[]>(
      minorLeftoversSql(now, batchRows),
    )
    if (rows.length > 0) report.minorLeftovers += await eraseMinorLeftovers(rows, now, storage)
    if (rows.length < batchRows) break
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
  report.acceptances = await executeInBatches(acceptancesBatchSql(now, batchRows), batchRows)
  let from: Date | null = null
  for (;;) {
    const rows: { id: string; erased_at: Date }[] = await prisma.$queryRaw(duePaymentsSql(now, batchRows, from))
    const erased =
      rows.length > 0
        ? await erasePayments(
            rows.map((row) => row.id),
            now,
          )
        : 0
    report.payments += erased
    if (rows.length < batchRows || erased === 0) break
    from = rows.at(-1)!.erased_at
  }
  report.grantedSubscriptions = await executeInBatches(grantedSubscriptionsBatchSql(now, batchRows), batchRows)
  for (;;) {
    const rows = await prisma.$queryRaw<{ id: string; attachment_key: string | null }[]>(
      dueComplaintsSql(now, batchRows),
    )
    if (rows.length > 0) report.complaints += await eraseComplaints(rows, now, storage)
    if (rows.length < batchRows) break
  }
  Object.assign(report, await eraseExpiredResearch(now, RETENTION_ACTOR_ID))
  report.sentMessages = await executeInBatches(sentMessagesBatchSql(now, batchRows), batchRows)
  return report
}
