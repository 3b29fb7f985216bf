import pg from 'pg'
import { beforeAll, describe, expect, it } from 'vitest'
import { encodeCursor, type PageRequest } from '~/domain/keyset'
import { GATEWAY_LATE_AUTHORISATION_WINDOW_MS, statusesFor } from '~/domain/payment-status'
import { Prisma } from '~/generated/prisma/client'
import * as customersRoute from '~/routes/admin/customers'
import * as paymentsRoute from '~/routes/admin/payments'
import * as auditRoute from '~/routes/admin/audit'
import * as refundsRoute from '~/routes/admin/refunds'
import { customerSearchCondition, customerSearchSql, searchCustomers } from '~/server/admin/customers.server'
import { overLimitSql, paymentListSql, paymentsForAdmin } from '~/server/admin/payments.server'
import { auditEntriesPage } from '~/server/audit.server'
import { prisma } from '~/server/db.server'
import { env } from '~/server/env.server'
import { PRUNE_AFTER_MS, PRUNE_BATCH_ROWS, pruneBatchSql, pruneTargets } from '~/server/jobs/prune.server'
import { encryptPlaintextPans } from '~/server/kyc/pan-at-rest.server'
import { panKeysFromEnv } from '~/server/kyc/pan-keys.server'
import { EXPIRE_BATCH_ROWS } from '~/server/payments/manual-claims.server'
import { RECONCILE_BATCH_SIZE } from '~/server/payments/reconciliation.server'
import { refundQueue } from '~/server/payments/refunds/refund-queue.server'
import { largeSeedSteps } from '../../scripts/seed-large.sql'
import { getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

// A store of 20,000 customers and 20,000 payments from db:seed:large, 80,000 more customers with other
// names, and a refund for most paid periods, so the planner sees tables of a real shape (ANALYZEd), not a handful of rows it would
// rather read whole.
const CUSTOMERS = 20_000
const PAYMENTS = 20_000
const UNTIL = new Date('2026-11-27T00:00:00Z')

beforeAll(async () => {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  try {
    await client.query('BEGIN')
    for (const step of largeSeedSteps({ customers: CUSTOMERS, payments: PAYMENTS, seed: 7, until: UNTIL })) {
      if (step.label !== 'analyze') await client.query(step.sql)
    }
    await client.query('COMMIT')
    // The large seed writes plaintext PANs, as a store migrated from before encryption holds them.
    await encryptPlaintextPans(client, panKeysFromEnv(env))
    await client.query('BEGIN')
    await client.query(`INSERT INTO users (phone, name, email, created_at)
      SELECT '+9156' || lpad(i::text, 8, '0'), 'guest ' || md5(i::text), 'guest.' || md5(i::text) || '@example.net',
             timestamptz '2022-01-01' + i * interval '15 minutes'
      FROM generate_series(1, 80000) i`)
    await client.query(`
      INSERT INTO refunds (user_id, payment_id, subscription_id, kind, reason, amount_paise, status, created_at, processed_at)
      SELECT s.user_id, s.payment_id, s.id, 'ENDING', 'CUSTOMER_ENDED', 100, 'PROCESSED', s.starts_at + interval '1 day',
             s.starts_at + interval '2 days'
      FROM subscriptions s
      WHERE s.payment_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.subscription_id = s.id)`)
    await client.query('COMMIT')
    await client.query('ANALYZE')
  } finally {
    await client.end()
  }
}, 180_000)

type Row = { id: string; createdAt: Date }
const key = (row: Row) => `${row.createdAt.toISOString()} ${row.id}`

/** Every row of a list, read page by page forward, then back again from the last page. */
async function walk<T extends Row>(
  read: (page: PageRequest) => Promise<{ rows: T[]; next: string | null; previous: string | null }>,
  cursorKey: (cursor: string) => { at: Date; id: string },
) {
  const forward: T[][] = []
  let page = await read(null)
  forward.push(page.rows)
  while (page.next) {
    page = await read({ direction: 'after', key: cursorKey(page.next) })
    forward.push(page.rows)
  }
  const backward: T[][] = [page.rows]
  while (page.previous) {
    page = await read({ direction: 'before', key: cursorKey(page.previous) })
    backward.unshift(page.rows)
  }
  return { forward, backward }
}
const decode = (cursor: string) => {
  const [ms, id] = cursor.split('_')
  return { at: new Date(Number(ms)), id: id! }
}

describe('the payments list at size', () => {
  it('pages forward and back over a filter, each row once, newest first', async () => {
    const filter = { method: 'MANUAL' as const, status: 'EXPIRED' as const, from: '2024-01-01', to: '2024-06-30' }
    const expected = await prisma.payment.findMany({
      where: {
        method: 'MANUAL',
        status: 'EXPIRED',
        createdAt: { gte: new Date('2023-12-31T18:30:00Z'), lt: new Date('2024-06-30T18:30:00Z') },
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { id: true, createdAt: true },
    })
    expect(expected.length).toBeGreaterThan(60)
    const { forward, backward } = await walk((page) => paymentsForAdmin(filter, page, 25), decode)
    expect(forward.flat().map(key)).toEqual(expected.map(key))
    expect(backward.flat().map(key)).toEqual(expected.map(key))
    expect(forward.slice(0, -1).every((rows) => rows.length === 25)).toBe(true)
    for (const row of forward.flat()) expect(row).toMatchObject({ method: 'MANUAL', status: 'EXPIRED' })
  })

  it('stays put when payments arrive between page loads', async () => {
    const first = await paymentsForAdmin({}, null, 10)
    const second = await paymentsForAdmin({}, { direction: 'after', key: decode(first.next!) }, 10)
    const customer = await prisma.user.findFirstOrThrow({ where: { phone: '+915500000001' } })
    const cart = [{ serviceId: 'x', name: 'New', pricePaise: 100, durationDays: 1 }]
    // One newer than everything, one in the middle of the second page's time span.
    for (const createdAt of [new Date(), new Date(second.rows[4]!.createdAt.getTime() + 1)])
      await prisma.payment.create({
        data: { userId: customer.id, method: 'GATEWAY', status: 'CREATED', amountPaise: 100, cart, createdAt },
      })
    const secondAgain = await paymentsForAdmin({}, { direction: 'after', key: decode(first.next!) }, 10)
    expect(secondAgain.rows.map(key).filter((row) => !second.rows.map(key).includes(row))).toHaveLength(1)
    expect(secondAgain.rows[0]).toEqual(second.rows[0])
    const back = await paymentsForAdmin({}, { direction: 'before', key: decode(second.previous!) }, 10)
    expect(back.rows.map(key)).toEqual(first.rows.map(key))
  })

  it('filters by method, status and India dates', async () => {
    const gateway = await paymentsForAdmin({ method: 'GATEWAY', status: 'FAILED' }, null, 50)
    expect(gateway.rows.length).toBe(50)
    for (const row of gateway.rows) expect(row).toMatchObject({ method: 'GATEWAY', status: 'FAILED' })
    const day = await paymentsForAdmin({ from: '2025-03-10', to: '2025-03-10' }, null, 500)
    for (const row of day.rows) {
      expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(Date.parse('2025-03-09T18:30:00Z'))
      expect(row.createdAt.getTime()).toBeLessThan(Date.parse('2025-03-10T18:30:00Z'))
    }
  })
})

describe('customer search at size', () => {
  it('finds by full phone, part of a phone, name, e-mail and PAN', async () => {
    const customer = await prisma.user.findFirstOrThrow({ where: { phone: '+915500001234' } })
    expect(customer.pan).toBeTruthy()
    for (const query of [
      '+915500001234',
      '5500001234',
      '001234',
      customer.name!,
      customer.email!,
      customer.pan!.toLowerCase(),
    ])
      expect(
        (await searchCustomers(query)).rows.map((row) => row.id),
        query,
      ).toContain(customer.id)
  })

  it('pages a broad search forward and back, each customer once', async () => {
    const expected = await prisma.user.findMany({
      where: {
        OR: [
          { name: { contains: 'sharma', mode: 'insensitive' } },
          { email: { contains: 'sharma', mode: 'insensitive' } },
        ],
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { id: true, createdAt: true },
    })
    expect(expected.length).toBeGreaterThan(40)
    const { forward, backward } = await walk((page) => searchCustomers('Sharma', page, 20), decode)
    expect(forward.flat().map(key)).toEqual(expected.map(key))
    expect(backward.flat().map(key)).toEqual(expected.map(key))
  })
})

describe('the refunds and audit lists', () => {
  it('page each refund state and the audit log', async () => {
    const processed = await refundQueue('PROCESSED', null, 5)
    expect(processed.rows).toHaveLength(5)
    const after = await refundQueue('PROCESSED', { direction: 'after', key: decode(processed.next!) }, 5)
    expect(after.rows.map((row) => row.id).some((id) => processed.rows.some((row) => row.id === id))).toBe(false)
    const audit = await auditEntriesPage(null, 10)
    const olderAudit = await auditEntriesPage({ direction: 'after', key: { id: audit.next! } }, 10)
    expect(Math.max(...olderAudit.rows.map((row) => row.id))).toBeLessThan(Math.min(...audit.rows.map((row) => row.id)))
    const back = await auditEntriesPage({ direction: 'before', key: { id: olderAudit.previous! } }, 10)
    expect(back.rows.map((row) => row.id)).toEqual(audit.rows.map((row) => row.id))
  })
})

describe('tampered cursors', () => {
  it('show the first page and say the link was not valid, never a 500', async () => {
    const { cookie } = await signedInUser({ role: 'ADMIN' })
    const load = (route: { loader: (args: never) => unknown }, path: string) =>
      route.loader(routeArgs(getRequest(path, cookie))) as Promise<Record<string, unknown>>
    const firstPayments = await load(paymentsRoute, '/admin/payments')
    for (const bad of ['after=garbage', "before=1700000000000_x'--", `after=1&before=2`, 'after=' + '9'.repeat(300)]) {
      const payments = await load(paymentsRoute, `/admin/payments?${bad}`)
      expect(payments.invalidCursor, bad).toBe(true)
      expect(payments.payments).toEqual(firstPayments.payments)
      expect((await load(customersRoute, `/admin/customers?q=sharma&${bad}`)).invalidCursor).toBe(true)
      expect((await load(auditRoute, `/admin/audit?${bad}`)).invalidCursor).toBe(true)
      expect((await load(refundsRoute, `/admin/refunds?status=DUE&${bad}`)).invalidCursor).toBe(true)
    }
    const next = await load(
      paymentsRoute,
      `/admin/payments?after=${encodeCursor({ at: UNTIL, id: '0f8b1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4' })}`,
    )
    expect(next.invalidCursor).toBe(false)
  })
})

type Plan = { 'Node Type': string; 'Relation Name'?: string; Plans?: Plan[] }
const GROWING = [
  'users',
  'payments',
  'subscriptions',
  'ledger_entries',
  'audit_logs',
  'refunds',
  'sessions',
  'otp_challenges',
]
function seqScans(plan: Plan): string[] {
  const own =
    plan['Node Type'] === 'Seq Scan' && GROWING.includes(plan['Relation Name'] ?? '') ? [plan['Relation Name']!] : []
  return [...own, ...(plan.Plans ?? []).flatMap(seqScans)]
}
async function explain(sql: Prisma.Sql): Promise<string[]> {
  const [row] = await prisma.$queryRaw<{ 'QUERY PLAN': [{ Plan: Plan }] }[]>`EXPLAIN (FORMAT JSON) ${sql}`
  return seqScans(row!['QUERY PLAN'][0].Plan)
}

describe('every list and search query reads indexes', () => {
  const later: PageRequest = {
    direction: 'after',
    key: { at: new Date('2024-06-01T00:00:00Z'), id: '0f8b1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4' },
  }
  const earlier: PageRequest = { direction: 'before', key: later!.key }

  it.each([
    ['first page', {}, null],
    ['a later page', {}, later],
    ['a previous page', {}, earlier],
    ['by method', { method: 'MANUAL' }, later],
    ['by status', { status: 'REJECTED' }, later],
    ['by method and status', { method: 'GATEWAY', status: 'CANCELLED' }, null],
    ['by dates', { from: '2024-01-01', to: '2024-01-31' }, null],
    ['by everything', { method: 'GATEWAY', status: 'PAID', from: '2023-01-01', to: '2023-12-31' }, later],
  ] as const)('payments: %s', async (_, filter, page) => {
    expect(await explain(paymentListSql(filter, page, 51))).toEqual([])
  })

  it.each(['+915500001234', '5500001234', '00123', 'sharma', 'meera nair', 'x@example.com', 'AAAPI0001G'])(
    'customer search for %j',
    async (query) => {
      const condition = customerSearchCondition(query)!
      expect(await explain(customerSearchSql(condition, null, 51))).toEqual([])
      expect(await explain(customerSearchSql(condition, later, 51))).toEqual([])
    },
  )

  it('periods beyond the one-year advance limit', async () => {
    expect(await explain(overLimitSql(UNTIL))).toEqual([])
  })

  it('refunds by state and the audit log', async () => {
    // The same shape of SQL as the Prisma queries of refundQueue and auditEntriesPage.
    expect(
      await explain(Prisma.sql`SELECT * FROM refunds WHERE status = 'PROCESSED' AND created_at <= ${later!.key.at}
        AND (created_at < ${later!.key.at} OR id < ${later!.key.id}::uuid) ORDER BY created_at DESC, id DESC LIMIT 51`),
    ).toEqual([])
    expect(await explain(Prisma.sql`SELECT * FROM audit_logs WHERE id < 1000 ORDER BY id DESC LIMIT 51`)).toEqual([])
  })
})

describe('every job query reads indexes', () => {
  it('the clean-up, a batch of each table', async () => {
    // In steady state the hourly run finds about an hour of rows past their time, not years of them.
    const firstHour = new Date(new Date('2021-11-28T00:00:00Z').getTime() + PRUNE_AFTER_MS)
    for (const target of pruneTargets(firstHour))
      expect(await explain(pruneBatchSql(target, PRUNE_BATCH_ROWS)), target.table).toEqual([])
  })

  it('claim expiry and reconciliation, a batch of each', async () => {
    // The same shape of SQL as the Prisma queries of expireManualPayments and reconcileOpenOrders.
    expect(
      await explain(Prisma.sql`SELECT id FROM payments WHERE method = 'MANUAL' AND status = 'PENDING_VERIFICATION'
        AND expires_at <= ${UNTIL} LIMIT ${EXPIRE_BATCH_ROWS}`),
    ).toEqual([])
    const retried = Prisma.join(statusesFor('GATEWAY', 'paid').map((status) => Prisma.sql`${status}::"PaymentStatus"`))
    const key = { at: new Date('2026-11-20T00:00:00Z'), id: '0f8b1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4' }
    expect(
      await explain(Prisma.sql`SELECT id, user_id, created_at, gateway_order_id, amount_paise, currency FROM payments
        WHERE method = 'GATEWAY' AND gateway_order_id IS NOT NULL AND created_at <= ${UNTIL}
          AND ((status IN (${retried}) AND created_at > ${new Date(UNTIL.getTime() - GATEWAY_LATE_AUTHORISATION_WINDOW_MS)})
               OR status = 'CREATED')
          AND (created_at > ${key.at} OR (created_at = ${key.at} AND id > ${key.id}::uuid))
        ORDER BY created_at, id LIMIT ${RECONCILE_BATCH_SIZE}`),
    ).toEqual([])
  })
})

describe('a long-time customer (500 payments, 200 subscriptions)', () => {
  let userId = ''
  beforeAll(async () => {
    userId = (await signedInUser({ completeProfile: true })).userId
    await prisma.$executeRaw`
      WITH services AS (SELECT id, row_number() OVER (ORDER BY id) AS n, count(*) OVER () AS total FROM services),
      paid AS (
        INSERT INTO payments (user_id, method, status, amount_paise, cart, gateway_order_id, created_at, paid_at)
        SELECT ${userId}::uuid, 'GATEWAY', 'PAID', 100000, '[]'::jsonb, 'order_longtime_' || i,
               ${UNTIL}::timestamptz - i * interval '3 days', ${UNTIL}::timestamptz - i * interval '3 days'
        FROM generate_series(1, 500) i
        RETURNING id, created_at, substring(gateway_order_id FROM 16)::int AS i)
      INSERT INTO subscriptions (user_id, service_id, payment_id, starts_at, ends_at)
      SELECT ${userId}::uuid, s.id, p.id, p.created_at, p.created_at + interval '30 days'
      FROM paid p JOIN services s ON s.n = p.i % s.total + 1
      WHERE p.i <= 200`
    await prisma.$executeRaw`ANALYZE payments`
    await prisma.$executeRaw`ANALYZE subscriptions`
  })

  it('reads their subscriptions, pending payments, rejected and open claims through indexes', async () => {
    expect(await prisma.payment.count({ where: { userId } })).toBe(500)
    expect(await prisma.subscription.count({ where: { userId } })).toBe(200)
    // The same shape of SQL as the Prisma queries behind /subscriptions, /pay and the API's lists.
    const since = new Date(UNTIL.getTime() - 30 * 86_400_000)
    for (const sql of [
      Prisma.sql`SELECT service_id, max(ends_at) FROM subscriptions WHERE user_id = ${userId}::uuid GROUP BY service_id`,
      Prisma.sql`SELECT * FROM payments WHERE user_id = ${userId}::uuid
        AND status IN ('PENDING_VERIFICATION', 'CREATED') ORDER BY created_at DESC`,
      Prisma.sql`SELECT * FROM payments WHERE user_id = ${userId}::uuid AND method = 'MANUAL' AND status = 'REJECTED'
        AND created_at > ${since} ORDER BY created_at DESC`,
      Prisma.sql`SELECT * FROM payments WHERE user_id = ${userId}::uuid AND method = 'GATEWAY' AND status = 'CREATED'
        AND gateway_order_id IS NOT NULL AND created_at > ${since}`,
      Prisma.sql`SELECT * FROM ledger_entries WHERE user_id = ${userId}::uuid ORDER BY occurred_at DESC`,
    ])
      expect(await explain(sql)).toEqual([])
  })
})
