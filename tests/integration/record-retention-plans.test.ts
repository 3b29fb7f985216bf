import { beforeAll, describe, expect, it } from 'vitest'
import type { Prisma } from '~/generated/prisma/client'
import { prisma } from '~/server/db.server'
import {
  dueComplaintsSql,
  duePaymentsSql,
  grantedSubscriptionsBatchSql,
  RETENTION_BATCH_ROWS,
} from '~/server/account/retention.server'

// The retention job's selects read indexes on tables of a real shape (ANALYZEd): 20,000 accounts,
// half of them erased (the worst case: every erased account stays), two paid payments each with
// their subscription and ledger entry, a refund for a quarter, and 10,000 complaints over 8 years.
// With few rows the planner rightly scans; this many is where a missing index starts to show
// (a plain join of users and payments here chose a sequential scan of payments).

const ACCOUNTS = 20_000
const COMPLAINTS = 10_000
const NOW = new Date('2027-06-01T00:00:00Z')

beforeAll(async () => {
  await prisma.$executeRaw`INSERT INTO services (name, price_paise, duration_days, risk_level, delivery)
    VALUES ('Plans', 100000, 30, 'LOW', 'daily')`
  await prisma.$executeRaw`INSERT INTO users (phone, created_at)
    SELECT '+9191' || lpad(g::text, 8, '0'), '2019-01-01' FROM generate_series(1, ${ACCOUNTS}::int) g`
  await prisma.$executeRaw`UPDATE users SET erased_at = '2026-01-01', closed_at = '2020-06-01', phone = 'erased-' || id::text
    WHERE phone LIKE '+9191%' AND substr(phone, 6)::int % 2 = 0`
  await prisma.$executeRaw`INSERT INTO payments (user_id, method, status, amount_paise, cart, created_at, paid_at, gateway_order_id)
    SELECT u.id, 'GATEWAY', 'PAID', 100000, '[]', t.d, t.d, 'order_plans_' || u.id || '_' || extract(year FROM t.d)
    FROM users u CROSS JOIN (VALUES (timestamptz '2019-06-01'), (timestamptz '2023-06-01')) AS t(d)`
  await prisma.$executeRaw`INSERT INTO subscriptions (user_id, service_id, payment_id, starts_at, ends_at)
    SELECT p.user_id, (SELECT id FROM services WHERE name = 'Plans'), p.id, p.paid_at, p.paid_at + interval '30 days'
    FROM payments p`
  await prisma.$executeRaw`INSERT INTO ledger_entries
      (user_id, kind, payment_id, amount_paise, gst_paise, gst_rate_basis_points, document_number, occurred_at)
    SELECT p.user_id, 'PAYMENT', p.id, 100000, 0, 0, 'RCT/PLANS/' || row_number() OVER (), p.paid_at FROM payments p`
  await prisma.$executeRaw`INSERT INTO refunds
      (user_id, payment_id, subscription_id, kind, reason, amount_paise, status, created_at, processed_at)
    SELECT s.user_id, s.payment_id, s.id, 'ENDING', 'CUSTOMER_ENDED', 1000, 'PROCESSED',
      s.starts_at + interval '1 day', s.starts_at + interval '2 days'
    FROM subscriptions s WHERE (hashtext(s.id::text) % 4) = 0`
  await prisma.$executeRaw`INSERT INTO complaints
      (reference, source, category, text, status, received_at, due_on, resolved_at)
    SELECT 'CMP-PLANS-' || g, 'DIRECTLY_FROM_INVESTORS', 'OTHER', 'x', 'CLOSED',
      timestamptz '2018-01-01' + g * interval '7 hours', date '2018-01-22',
      timestamptz '2018-01-05' + g * interval '7 hours'
    FROM generate_series(1, ${COMPLAINTS}::int) g`
  await prisma.$executeRaw`INSERT INTO complaint_events (complaint_id, status, created_at)
    SELECT id, 'CLOSED', resolved_at FROM complaints`
  await prisma.$executeRaw`ANALYZE`
}, 120_000)

type Plan = { 'Node Type': string; 'Relation Name'?: string; Plans?: Plan[] }
const seqScans = (plan: Plan): string[] => [
  ...(plan['Node Type'] === 'Seq Scan' ? [plan['Relation Name']!] : []),
  ...(plan.Plans ?? []).flatMap(seqScans),
]

describe('the retention job’s selects read indexes', () => {
  it.each([
    ['payments of erased accounts', duePaymentsSql],
    ['granted subscriptions', grantedSubscriptionsBatchSql],
    ['complaints', dueComplaintsSql],
  ] as const)('%s', async (_name, sql: (now: Date, batchRows: number) => Prisma.Sql) => {
    const [row] = await prisma.$queryRaw<{ 'QUERY PLAN': [{ Plan: Plan }] }[]>`EXPLAIN (FORMAT JSON) ${sql(
      NOW,
      RETENTION_BATCH_ROWS,
    )}`
    expect(seqScans(row!['QUERY PLAN'][0].Plan)).toEqual([])
  })
})

describe('the retention job’s deletes', () => {
  it('find every row that refers to a deleted one by an index (each foreign key’s check)', async () => {
    // Foreign keys into the tables the job deletes from whose columns lead no index of their table.
    const unindexed = await prisma.$queryRaw<{ key: string }[]>`
      SELECT c.conname AS key FROM pg_constraint c
      WHERE c.contype = 'f'
        AND c.confrelid::regclass::text IN ('payments', 'subscriptions', 'refunds', 'complaints')
        AND NOT EXISTS (
          SELECT 1 FROM pg_index i
          WHERE i.indrelid = c.conrelid AND i.indpred IS NULL
            AND (i.indkey::int2[])[0:array_length(c.conkey, 1) - 1] = c.conkey)
      ORDER BY 1`
    expect(unindexed.map((row) => row.key)).toEqual([])
  })
})
