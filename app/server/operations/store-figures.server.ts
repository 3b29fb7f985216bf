import { MS_PER_HOUR } from '~/domain/durations'
import { Prisma } from '~/generated/prisma/client'
import { PaymentStatus } from '~/generated/prisma/enums'
import { databasePoolStats, prisma } from '../db.server'
import { env } from '../env.server'
import { loggerFor } from './logger.server'
import { metrics, PAYMENTS_RECENT_WINDOW_HOURS } from './metrics.server'

// The figures /metrics reads from the database at each scrape: the same for every instance (they
// describe the store, not the process; docs/architecture.md, "Running several instances", says how to
// aggregate them). Every query reads a bounded range of an index, never a whole table: open payments
// and refunds are few by nature, the last day's payments are one day of rows, and pending jobs sit in
// pg-boss' partial index of jobs not yet started. The bench's at-scale run times /metrics on
// 1,000,000 payments (docs/testing.md).

const log = loggerFor('metrics')

const PAYMENT_STATES: readonly string[] = Object.values(PaymentStatus)
const OPEN_PAYMENT_STATES = ['CREATED', 'PENDING_VERIFICATION'] as const
const OPEN_REFUND_STATES = ['DUE', 'PENDING', 'FAILED'] as const

type FigureRow = {
  figure: 'open' | 'recent' | 'order' | 'refund' | 'job'
  key: string | null
  count: bigint
  oldest_seconds: number | null
}

/** Whether pg-boss has made its schema in this database (once true, it stays: checked until then). */
let jobTablesExist = false
async function haveJobTables(): Promise<boolean> {
  if (jobTablesExist) return true
  const [schema] = await prisma.$queryRaw<{ exists: boolean }[]>`
    SELECT to_regclass('pgboss.job') IS NOT NULL AND to_regclass('pgboss.queue') IS NOT NULL AS exists`
  return (jobTablesExist = schema?.exists === true)
}

/**
 * Every figure in one statement (one round trip, one connection of the pool), each part over an
 * index range, read from the index alone: payments' (status, created_at, id) index for the open
 * states and for each state's last day, the (method, status, created_at, id) index for the oldest
 * open order, the refunds'
 * (status, created_at, id) index, and pg-boss' job_i5 (name, start_after) WHERE state < 'active'.
 */
function figuresQuery(since: Date, now: Date, withJobs: boolean): Prisma.Sql {
  const store = Prisma.sql`
    SELECT 'open' AS figure, status::text AS key, count(*) AS count, NULL::float8 AS oldest_seconds
      FROM payments WHERE status IN ('CREATED', 'PENDING_VERIFICATION') GROUP BY status
    UNION ALL
    SELECT 'recent', state::text, (SELECT count(*) FROM payments WHERE status = state AND created_at >= ${since}), NULL
      FROM unnest(enum_range(NULL::"PaymentStatus")) AS state
    UNION ALL
    SELECT 'order', NULL, count(*), EXTRACT(EPOCH FROM ${now}::timestamptz - min(created_at))::float8
      FROM payments WHERE method = 'GATEWAY' AND status = 'CREATED'
    UNION ALL
    SELECT 'refund', status::text, count(*), EXTRACT(EPOCH FROM ${now}::timestamptz - min(created_at))::float8
      FROM refunds WHERE status IN ('DUE', 'PENDING', 'FAILED') GROUP BY status`
  if (!withJobs) return store
  return Prisma.sql`${store}
    UNION ALL
    SELECT 'job', queue.name, count(job.name), EXTRACT(EPOCH FROM ${now}::timestamptz - min(job.start_after))::float8
      FROM pgboss.queue AS queue
      LEFT JOIN pgboss.job AS job ON job.name = queue.name AND job.state < 'active' AND job.start_after <= ${now}
     GROUP BY queue.name`
}

/** Reads the store's figures into the gauges; false (and database_up 0, the gauges emptied) when the database did not answer. */
export async function refreshStoreFigures(now = new Date()): Promise<boolean> {
  const pool = databasePoolStats()
  metrics.databasePool.set({ state: 'in_use' }, pool.open - pool.idle)
  metrics.databasePool.set({ state: 'idle' }, pool.idle)
  metrics.databasePool.set({ state: 'max' }, pool.max)
  metrics.databasePoolWaiting.set(pool.waiting)
  try {
    const since = new Date(now.getTime() - PAYMENTS_RECENT_WINDOW_HOURS * MS_PER_HOUR)
    const rows = await prisma.$queryRaw<FigureRow[]>(figuresQuery(since, now, await haveJobTables()))
    const of = (figure: FigureRow['figure']) => rows.filter((row) => row.figure === figure)
    const openPayments = of('open')
    const recentPayments = of('recent')
    const [oldestOrder] = of('order')
    const openRefunds = of('refund')
    const jobs = of('job')
    setByKey(metrics.paymentsOpen, 'state', OPEN_PAYMENT_STATES, openPayments)
    setByKey(metrics.paymentsLastDay, 'state', PAYMENT_STATES, recentPayments)
    metrics.oldestOpenGatewayOrderSeconds.set(Math.max(0, oldestOrder?.oldest_seconds ?? 0))
    setByKey(metrics.refundsOpen, 'status', OPEN_REFUND_STATES, openRefunds)
    const oldestRefund = Math.max(0, ...openRefunds.map((row) => row.oldest_seconds ?? 0))
    metrics.oldestOpenRefundSeconds.set(oldestRefund)
    metrics.jobQueueDepth.reset()
    metrics.jobQueueOldestSeconds.reset()
    for (const row of jobs) {
      metrics.jobQueueDepth.set({ queue: row.key ?? '' }, Number(row.count))
      metrics.jobQueueOldestSeconds.set({ queue: row.key ?? '' }, Math.max(0, row.oldest_seconds ?? 0))
    }
    metrics.databaseUp.set(1)
    return true
  } catch (error) {
    log.error({ err: error }, 'the store figures for /metrics could not be read from the database')
    for (const gauge of [
      metrics.paymentsOpen,
      metrics.paymentsLastDay,
      metrics.oldestOpenGatewayOrderSeconds,
      metrics.refundsOpen,
      metrics.oldestOpenRefundSeconds,
      metrics.jobQueueDepth,
      metrics.jobQueueOldestSeconds,
    ])
      gauge.reset()
    metrics.databaseUp.set(0)
    return false
  }
}

/** Every known key gets a value (0 when the database had no row for it), so a series never vanishes. */
function setByKey<L extends string>(
  gauge: { set: (labels: Partial<Record<L, string>>, value: number) => void },
  label: L,
  keys: readonly string[],
  rows: FigureRow[],
): void {
  const counted = new Map(rows.map((row) => [row.key ?? '', Number(row.count)]))
  for (const key of new Set([...keys, ...counted.keys()]))
    gauge.set({ [label]: key } as Partial<Record<L, string>>, counted.get(key) ?? 0)
}

/** The /metrics answer for someone allowed to read it: the store figures, then Prometheus' text. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  await refreshStoreFigures()
  return { contentType: metrics.registry.contentType, body: await metrics.registry.metrics() }
}

/** METRICS_TOKEN, for server/app.ts. */
export const metricsToken = (): string | undefined => env.METRICS_TOKEN
