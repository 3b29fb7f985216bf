import { createHash, timingSafeEqual } from 'node:crypto'
import { isIP } from 'node:net'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'

// What GET /metrics shows (Prometheus text; docs/operations.md says what each figure means and when
// it is trouble). Figures an instance counts itself (requests, messages, the process) live here;
// figures read from the database at each scrape are set by store-figures.server.ts.
//
// Like the logger, the registry lives on globalThis: `npm start` loads this module from server/http.ts
// and again inside the server build, and both must count into the same figures.

/** Seconds: from a fast page to a slow export's first byte; Prometheus' usual spread, with 2.5 s and 10 s. */
export const HTTP_DURATION_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** How often the event-loop delay is sampled, in milliseconds (prom-client's default is 10). */
export const EVENT_LOOP_SAMPLE_MS = 10

/** The window of `research_store_payments_last_day`, in hours. */
export const PAYMENTS_RECENT_WINDOW_HOURS = 24

export const MESSAGE_CHANNELS = ['sms', 'email', 'telegram'] as const
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number]

function createMetrics() {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS })
  const registers = [registry]
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request arriving to its answer finishing, by method, route pattern and status class (2xx, 4xx, 5xx...).',
      labelNames: ['method', 'route', 'status_class'] as const,
      buckets: HTTP_DURATION_BUCKETS_S,
      registers,
    }),
    messages: new Counter({
      name: 'research_store_messages_total',
      help: 'Outbound SMS and e-mail tries by this instance: sent, or failed (each failed try; a retried message can fail several times).',
      labelNames: ['channel', 'outcome'] as const,
      registers,
    }),
    paymentsPaid: new Counter({
      name: 'research_store_payments_paid_total',
      help: 'Payments this instance marked paid, by the path that did it (checkout, callback, webhook, reconciliation, admin).',
      labelNames: ['via'] as const,
      registers,
    }),
    jobQueueDepth: new Gauge({
      name: 'research_store_job_queue_depth',
      help: 'Jobs ready to run and not yet started, by queue (all instances).',
      labelNames: ['queue'] as const,
      registers,
    }),
    jobQueueOldestSeconds: new Gauge({
      name: 'research_store_job_queue_oldest_age_seconds',
      help: 'How long the oldest job ready to run has waited, by queue; 0 when none waits (all instances).',
      labelNames: ['queue'] as const,
      registers,
    }),
    paymentsOpen: new Gauge({
      name: 'research_store_payments_open',
      help: 'Payments not yet settled, by state: CREATED (gateway orders) and PENDING_VERIFICATION (bank transfer claims).',
      labelNames: ['state'] as const,
      registers,
    }),
    paymentsLastDay: new Gauge({
      name: 'research_store_payments_last_day',
      help: 'Payments created in the last 24 hours, by their state now.',
      labelNames: ['state'] as const,
      registers,
    }),
    oldestOpenGatewayOrderSeconds: new Gauge({
      name: 'research_store_gateway_order_oldest_open_age_seconds',
      help: 'Age of the oldest gateway order still open (CREATED): how far reconciliation lags; 0 when none is open.',
      registers,
    }),
    refundsOpen: new Gauge({
      name: 'research_store_refunds_open',
      help: 'Refunds not yet paid out, by status: DUE (a bank transfer for the admin), PENDING (with the gateway), FAILED (the admin must retry).',
      labelNames: ['status'] as const,
      registers,
    }),
    oldestOpenRefundSeconds: new Gauge({
      name: 'research_store_refund_oldest_open_age_seconds',
      help: 'Age of the oldest refund not yet paid out; 0 when none is open.',
      registers,
    }),
    databaseUp: new Gauge({
      name: 'research_store_database_up',
      help: '1 when this scrape could read the store figures from the database, 0 when it could not.',
      registers,
    }),
    databasePool: new Gauge({
      name: 'research_store_db_pool_connections',
      help: "This instance's database pool: connections in use, idle, and the pool's maximum.",
      labelNames: ['state'] as const,
      registers,
    }),
    databasePoolWaiting: new Gauge({
      name: 'research_store_db_pool_waiting_queries',
      help: 'Queries of this instance waiting for a free database connection.',
      registers,
    }),
  }
}

export type StoreMetrics = ReturnType<typeof createMetrics>

const METRICS_KEY = Symbol.for('research-store.metrics')
const globalForMetrics = globalThis as { [METRICS_KEY]?: StoreMetrics }
export const metrics: StoreMetrics = (globalForMetrics[METRICS_KEY] ??= createMetrics())

/** One outbound message's try, counted by channel. */
export function countMessage(channel: MessageChannel, outcome: 'sent' | 'failed'): void {
  metrics.messages.inc({ channel, outcome })
}

const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** One answered request: its method (other methods as OTHER), route pattern and status class. */
export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  metrics.httpRequestDuration.observe(
    { method: HTTP_METHODS.has(method) ? method : 'OTHER', route, status_class: `${Math.floor(status / 100)}xx` },
    seconds,
  )
}

/** Headers a proxy adds: a request carrying one came through a proxy, whatever its socket's address. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const

/** Whether the address is the machine's own (127.0.0.0/8, ::1, or IPv4-mapped 127.x). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false
  const bare = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address
  if (isIP(bare) === 4) return bare.startsWith('127.')
  return bare === '::1'
}

const digest = (text: string) => createHash('sha256').update(text).digest()

/**
 * Who may read /metrics: a request straight from this machine (a loopback socket and no proxy's
 * forwarding header, so a proxy on the same machine does not make the world local), or one bearing
 * METRICS_TOKEN. Anyone else gets the store's 404: for them the page does not exist.
 */
export function mayReadMetrics(
  request: { remoteAddress: string | undefined; headers: Record<string, string | string[] | undefined> },
  token: string | undefined,
): boolean {
  const authorization = request.headers.authorization
  if (token && typeof authorization === 'string') {
    const [scheme, presented] = authorization.split(/\s+/, 2)
    if (scheme?.toLowerCase() === 'bearer' && presented) return timingSafeEqual(digest(presented), digest(token))
    return false
  }
  if (authorization !== undefined) return false
  const forwarded = FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined)
  return !forwarded && isLoopbackAddress(request.remoteAddress)
}
