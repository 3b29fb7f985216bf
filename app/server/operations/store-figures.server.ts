import { MS_PER_HOUR } from '~/domain/durations'
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

type CountRow = { key: string; count: bigint; oldest_seconds: number | null }

/** Pending jobs by queue; nothing when pg-boss has not yet made its schema in this database. */
async function jobQueueRows(): Promise<CountRow[]> {
  const [schema] = await prisma.$queryRaw<{ exists: boolean }[]>`
    SELECT to_regclass('pgboss.job') IS NOT NULL AND to_regclass('pgboss.queue') IS NOT NULL AS exists`
  if (!schema?.exists) return []
  // job_i5 (name, start_after) WHERE state < 'active' holds exactly the jobs not yet started.
  return prisma.$queryRaw<CountRow[]>`
    SELECT queue.name AS key,
           count(job.name) AS count,
           EXTRACT(EPOCH FROM now() - min(job.start_after))::float8 AS oldest_seconds
      FROM pgboss.queue AS queue
      LEFT JOIN pgboss.job AS job
        ON job.name = queue.name AND job.state < 'active' AND job.start_after <= now()
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
    const [openPayments, recentPayments, [oldestOrder], openRefunds, jobs] = await Promise.all([
      prisma.$queryRaw<CountRow[]>`
        SELECT status::text AS key, count(*) AS count, NULL::float8 AS oldest_seconds
          FROM payments WHERE status IN ('CREATED', 'PENDING_VERIFICATION') GROUP BY status`,
      prisma.$queryRaw<CountRow[]>`
        SELECT status::text AS key, count(*) AS count, NULL::float8 AS oldest_seconds
          FROM payments WHERE created_at >= ${since} GROUP BY status`,
      // The (method, status, created_at, id) index gives the oldest open order in one probe.
      prisma.$queryRaw<{ oldest_seconds: number | null }[]>`
        SELECT EXTRACT(EPOCH FROM ${now}::timestamptz - min(created_at))::float8 AS oldest_seconds
          FROM payments WHERE method = 'GATEWAY' AND status = 'CREATED'`,
      prisma.$queryRaw<CountRow[]>`
        SELECT status::text AS key, count(*) AS count,
               EXTRACT(EPOCH FROM ${now}::timestamptz - min(created_at))::float8 AS oldest_seconds
          FROM refunds WHERE status IN ('DUE', 'PENDING', 'FAILED') GROUP BY status`,
      jobQueueRows(),
    ])
    setByKey(metrics.paymentsOpen, 'state', OPEN_PAYMENT_STATES, openPayments)
    setByKey(metrics.paymentsLastDay, 'state', PAYMENT_STATES, recentPayments)
    metrics.oldestOpenGatewayOrderSeconds.set(Math.max(0, oldestOrder?.oldest_seconds ?? 0))
    setByKey(metrics.refundsOpen, 'status', OPEN_REFUND_STATES, openRefunds)
    const oldestRefund = Math.max(0, ...openRefunds.map((row) => row.oldest_seconds ?? 0))
    metrics.oldestOpenRefundSeconds.set(oldestRefund)
    metrics.jobQueueDepth.reset()
    metrics.jobQueueOldestSeconds.reset()
    for (const row of jobs) {
      metrics.jobQueueDepth.set({ queue: row.key }, Number(row.count))
      metrics.jobQueueOldestSeconds.set({ queue: row.key }, Math.max(0, row.oldest_seconds ?? 0))
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
  rows: CountRow[],
): void {
  const counted = new Map(rows.map((row) => [row.key, Number(row.count)]))
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
