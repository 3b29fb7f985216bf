// BENCH_ONLY=at-scale: the store on the database DATABASE_URL names, filled by `npm run db:seed:large`
// (100,000 customers and 1,000,000 payments by default). Page and API p95 on localhost, one request
// at a time after a warm-up, for an admin (a new number the bench puts in ADMIN_PHONES, signed in
// through the pages) and the long-time customer (+915500000001, 500 payments, a session made as a
// sign-in makes it); /admin/insights (its own budget); then the CSV export of every payment.
import { randomInt } from 'node:crypto'
import { readFileSync } from 'node:fs'
import pg from 'pg'
import { BUDGETS, check, info, mb, ms } from './budgets'
import { BROWSER_USER_AGENT } from './browser'
import { percentile } from './load'
import { BENCH_PG_DIR } from './servers'
import { signInThroughPages } from './verify-code'

const WARM_UP_REQUESTS = 5
export const TIMED_REQUESTS = 30
export const LONG_TIME_CUSTOMER_MOBILE = '5500000001'
const RSS_SAMPLE_MS = 50

type Timed = { p50: number; p95: number; max: number }

/** p50, p95 and max of GETs of `url` as a browser makes them, after a warm-up; anything but 200 ends the bench. */
export async function timeRequests(
  url: string,
  cookie: string | undefined,
  agent = BROWSER_USER_AGENT,
): Promise<Timed> {
  const headers = { 'User-Agent': agent, ...(cookie ? { Cookie: cookie } : {}) }
  const once = async () => {
    const started = performance.now()
    const response = await fetch(url, { headers, redirect: 'manual' })
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}, not 200`)
    return performance.now() - started
  }
  for (let index = 0; index < WARM_UP_REQUESTS; index++) await once()
  const samples: number[] = []
  for (let index = 0; index < TIMED_REQUESTS; index++) samples.push(await once())
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), max: Math.max(...samples) }
}

/** The process's resident set in bytes, from /proc (Linux). */
export function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m)
  return line ? Number(line[1]) * 1024 : 0
}

/** Downloads the CSV of every payment, counting its rows, while sampling the store's memory. */
async function timeFullExport(origin: string, cookie: string, pid: number) {
  const idle = rssBytes(pid)
  let peak = idle
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), RSS_SAMPLE_MS)
  const started = performance.now()
  try {
    const to = new Date().toISOString().slice(0, 10)
    const response = await fetch(`${origin}/admin/export.csv?kind=payments&from=2000-01-01&to=${to}`, {
      headers: { Cookie: cookie, 'User-Agent': BROWSER_USER_AGENT },
    })
    if (response.status !== 200 || !response.body) throw new Error(`the export answered ${response.status}`)
    let firstByteMs: number | null = null
    let newlines = 0
    const reader = response.body.getReader()
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      firstByteMs ??= performance.now() - started
      // indexOf, not a loop over every byte: the bench shares the machine with the store it measures.
      for (let at = read.value.indexOf(10); at !== -1; at = read.value.indexOf(10, at + 1)) newlines++
    }
    const seconds = (performance.now() - started) / 1000
    // The header line ends with a newline too; no field of the seeded data holds one (a field that did would be quoted).
    const rows = newlines - 1
    return { rows, seconds, firstByteMs: firstByteMs ?? 0, rssGrowth: peak - idle, idle }
  } finally {
    clearInterval(sampler)
  }
}

/** A mobile number of its own for each run: a number signed in again within minutes must wait for its code. */
export const benchAdminMobile = () => `9${String(randomInt(0, 1e9)).padStart(9, '0')}`

/**
 * A session of the customer with this phone, made as a sign-in makes it (app/server/session.server.ts,
 * with the store's settings): the long-time customer is measured on every run, and a number asking
 * for codes again within minutes must wait for them.
 */
export async function sessionCookieFor(phone: string): Promise<string> {
  process.env.DEMO_MODE = '1'
  process.env.EMBEDDED_PG_DIR = BENCH_PG_DIR
  const [{ prisma }, { createSession }] = await Promise.all([
    import('../app/server/db.server'),
    import('../app/server/session.server'),
  ])
  const user = await prisma.user.findUniqueOrThrow({ where: { phone }, select: { id: true } })
  const cookie = (await createSession(user.id)).split(';')[0]!
  await prisma.$disconnect()
  return cookie
}

/** The longest the bench waits for a run of the store's settle-payments to end before timing /metrics or research. */
const SETTLE_RUN_WAIT_MS = 5 * 60_000

/**
 * The store runs settle-payments at its start and every 5 minutes, for minutes on the data set (its
 * sandbox does not know the data set's due orders): /metrics and research are timed once no run is
 * active, so the figures are theirs, not the job's CPU on the shared cores.
 */
export async function awaitNoSettleRun(): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  const started = Date.now()
  try {
    const active = async () =>
      (
        await client.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'settle-payments' AND state = 'active'",
        )
      ).rows[0]!.n
    while ((await active()) > 0 && Date.now() - started < SETTLE_RUN_WAIT_MS)
      await new Promise((resolve) => setTimeout(resolve, 1_000))
  } finally {
    await client.end()
  }
  const waitedS = Math.round((Date.now() - started) / 1000)
  if (waitedS > 0)
    info('waited for the store', `${waitedS} s`, 'its own settle-payments run, so as not to time beside one')
}

/** Prometheus' user agent: /metrics is read by a scraper on this machine (loopback, no token). */
const SCRAPER_USER_AGENT = 'Prometheus/3.0.0'

/**
 * GET /metrics as Prometheus scrapes it, one at a time: every figure the store reads from the
 * database at each scrape (payments by state, the oldest open order, refunds, job queues) over a
 * bounded index range, never a whole table (app/server/operations/store-figures.server.ts).
 */
export async function measureMetricsAtScale(origin: string): Promise<void> {
  await awaitNoSettleRun()
  const scrape = await fetch(`${origin}/metrics`, { headers: { 'User-Agent': SCRAPER_USER_AGENT } })
  if (scrape.status !== 200) throw new Error(`/metrics answered ${scrape.status} to the bench on this machine`)
  const series = (await scrape.text()).split('\n').filter((line) => line && !line.startsWith('#')).length
  // The floor under the same load: /healthz is one SELECT 1 through the same stack.
  const floor = await timeRequests(`${origin}/healthz`, undefined, SCRAPER_USER_AGENT)
  info('/healthz (the floor) p95', ms(floor.p95), `p50 ${floor.p50.toFixed(1)} ms, for comparison`)
  const timed = await timeRequests(`${origin}/metrics`, undefined, SCRAPER_USER_AGENT)
  check(
    '/metrics (a scrape) p95',
    ms(timed.p95),
    `< ${BUDGETS.atScaleMetricsP95Ms} ms`,
    timed.p95 < BUDGETS.atScaleMetricsP95Ms,
    `p50 ${timed.p50.toFixed(1)} ms, max ${timed.max.toFixed(1)} ms, ${TIMED_REQUESTS} requests, ${series} series`,
  )
}

export async function measureAtScale(server: { origin: string; pid: number }, adminMobile: string): Promise<void> {
  const { origin, pid } = server
  await measureMetricsAtScale(origin)
  const admin = await signInThroughPages(origin, adminMobile)
  const adminHome = await fetch(`${origin}/admin/payments`, { headers: { Cookie: admin.cookie }, redirect: 'manual' })
  if (adminHome.status !== 200)
    throw new Error(`+91${adminMobile} gets ${adminHome.status} from /admin/payments: is it in ADMIN_PHONES?`)
  const customer = { cookie: await sessionCookieFor(`+91${LONG_TIME_CUSTOMER_MOBILE}`) }

  const pages: [string, string, string | undefined][] = [
    ['admin payments list (the admin home)', '/admin/payments', admin.cookie],
    ['admin customers list', '/admin/customers', admin.cookie],
    ['admin customer search "sharma"', '/admin/customers?q=sharma', admin.cookie],
    ['complaint board', '/complaint-board', undefined],
    ['/subscriptions, long-time customer', '/subscriptions', customer.cookie],
    ['API active subscriptions, same', '/api/v1/subscriptions/get-active-subscriptions', customer.cookie],
    ['API pending payments, same', '/api/v1/payments/pending-payments', customer.cookie],
  ]
  for (const [name, path, cookie] of pages) {
    const timed = await timeRequests(`${origin}${path}`, cookie)
    check(
      `${name} p95`,
      ms(timed.p95),
      `< ${BUDGETS.atScaleRequestP95Ms} ms`,
      timed.p95 < BUDGETS.atScaleRequestP95Ms,
      `p50 ${timed.p50.toFixed(1)} ms, max ${timed.max.toFixed(1)} ms, ${TIMED_REQUESTS} requests`,
    )
  }

  const insights = await timeRequests(`${origin}/admin/insights`, admin.cookie)
  check(
    'admin insights (every chart) p95',
    ms(insights.p95),
    `< ${BUDGETS.atScaleInsightsP95Ms} ms`,
    insights.p95 < BUDGETS.atScaleInsightsP95Ms,
    `p50 ${insights.p50.toFixed(1)} ms, max ${insights.max.toFixed(1)} ms, ${TIMED_REQUESTS} requests`,
  )

  const exported = await timeFullExport(origin, admin.cookie, pid)
  const rowsPerSecond = exported.rows / exported.seconds
  info(
    'CSV export of every payment',
    `${exported.rows.toLocaleString('en-IN')} rows`,
    `in ${exported.seconds.toFixed(1)} s, first byte after ${ms(exported.firstByteMs)}`,
  )
  check(
    'export rows per second',
    `${Math.round(rowsPerSecond).toLocaleString('en-IN')}`,
    `>= ${BUDGETS.atScaleExportRowsPerSecond.toLocaleString('en-IN')}`,
    rowsPerSecond >= BUDGETS.atScaleExportRowsPerSecond,
  )
  check(
    'export store RSS peak above idle',
    mb(exported.rssGrowth),
    `< ${mb(BUDGETS.atScaleExportRssGrowthBytes)}`,
    exported.rssGrowth < BUDGETS.atScaleExportRssGrowthBytes,
    `idle ${mb(exported.idle)}`,
  )
}
