// BENCH_ONLY=at-scale, the jobs (docs/testing.md, At scale): reconciliation of 10,000 gateway orders due for it,
// expiry of 10,000 manual claims past their days and 10,000 renewal reminders due, on the large data set, each job's work run to
// the end here (as the settle-payments job runs it in a store instance) while a loop on a thread of
// its own times the admin payments list and the long-time customer's /subscriptions, one request at a
// time; the same loop before each job gives the p95 to compare with. The rows are the bench's own
// (idempotency key `bench-jobs:...`; the reminders' subscriptions by their grant reason) and are deleted
// afterwards, so every run makes them again.
import { Worker } from 'node:worker_threads'
import { LONG_TIME_CUSTOMER_MOBILE } from './at-scale'
import { BUDGETS, check, info, ms } from './budgets'
import { BROWSER_USER_AGENT } from './browser'
import { percentile } from './load'
import { BENCH_PG_DIR } from './servers'
import { LARGE_SEED_PHONE_PREFIX } from '../scripts/seed-large.sql'

export const DUE_ROWS = 10_000
const BENCH_KEY_PREFIX = 'bench-jobs:'
/** Sandbox orders created at once: the sandbox answers in this process. */
const ORDER_CREATION_CONCURRENCY = 20
/** Requests per page for the p95 before a job. */
const BASELINE_REQUESTS = 40
const WARM_UP_REQUESTS = 5
/** The store's settle-payments schedule (app/server/jobs/workers.server.ts: every 5 minutes). */
const STORE_SETTLE_EVERY_MS = 5 * 60_000
/** Room the bench's two job runs need before the store's next scheduled run. */
const JOBS_WINDOW_MS = 200_000
/** Fewer requests than this during a job make no p95. */
const MIN_SAMPLES_FOR_P95 = 10

export type TimedPage = { name: string; url: string; cookie: string }
type PageTimes = { p50: number; p95: number; max: number; samples: number }

/**
 * The loop that times the pages: on a worker thread, so the job's work on this thread does not delay
 * the clock reads. `rounds` rounds of every page, or until told to stop (at least one round).
 */
function timePagesOnThread(pages: TimedPage[], rounds: number | null) {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads')
    let stopping = false
    parentPort.on('message', () => { stopping = true })
    const samples = workerData.pages.map(() => [])
    ;(async () => {
      for (let round = 0; workerData.rounds === null ? round === 0 || !stopping : round < workerData.rounds; round++) {
        for (const [index, page] of workerData.pages.entries()) {
          const started = performance.now()
          const response = await fetch(page.url, { headers: page.headers, redirect: 'manual' })
          await response.arrayBuffer()
          if (response.status !== 200) throw new Error(page.url + ' answered ' + response.status + ', not 200')
          samples[index].push(performance.now() - started)
        }
      }
      parentPort.postMessage(samples)
      parentPort.close()
    })()`,
    {
      eval: true,
      workerData: {
        rounds,
        pages: pages.map((page) => ({
          url: page.url,
          headers: { 'User-Agent': BROWSER_USER_AGENT, Cookie: page.cookie },
        })),
      },
    },
  )
  const done = new Promise<PageTimes[]>((resolve, reject) => {
    worker.once('message', (samples: number[][]) =>
      resolve(
        samples.map((times) => ({
          p50: percentile(times, 50),
          p95: percentile(times, 95),
          max: Math.max(...times),
          samples: times.length,
        })),
      ),
    )
    worker.once('error', reject)
  })
  return { stop: () => worker.postMessage('stop'), done }
}

/** The store's functions, loaded with its settings (DATABASE_URL, demo mode, the bench's data folder). */
async function storeFunctions() {
  process.env.DEMO_MODE = '1'
  process.env.EMBEDDED_PG_DIR = BENCH_PG_DIR
  const [db, session, reconciliation, claims, cacheSync, sandbox, paymentStatus, queue, reminders] = await Promise.all([
    import('../app/server/db.server'),
    import('../app/server/session.server'),
    import('../app/server/payments/reconciliation.server'),
    import('../app/server/payments/manual-claims.server'),
    import('../app/server/cache-sync.server'),
    import('../app/demo/razorpay-sandbox.server'),
    import('../app/domain/payment-status'),
    import('../app/server/jobs/queue.server'),
    import('../app/server/payments/renewal-reminders.server'),
  ])
  return {
    prisma: db.prisma,
    session,
    reconciliation,
    claims,
    cacheSync,
    sandbox,
    paymentStatus,
    settleQueue: queue.SETTLE_PAYMENTS_QUEUE,
    reminders,
  }
}

type Store = Awaited<ReturnType<typeof storeFunctions>>

const REMINDERS_GRANT_REASON = `${BENCH_KEY_PREFIX}renewal reminders`
const REMINDERS_SERVICE_NAME = 'Bench: renewal reminders'

async function deleteBenchRows(store: Store): Promise<number> {
  return (
    (await store.prisma.$executeRaw`DELETE FROM payments WHERE idempotency_key LIKE ${`${BENCH_KEY_PREFIX}%`}`) +
    (await store.prisma.$executeRaw`DELETE FROM subscriptions WHERE grant_reason = ${REMINDERS_GRANT_REASON}`)
  )
}

/**
 * 10,000 running subscriptions ending in 6 days, one per seeded customer, each due its week-before
 * reminder; of a service of the bench's own, so no later period of the data set renews them.
 */
async function makeDueReminders(store: Store, now: Date) {
  await store.prisma.$executeRaw`
    INSERT INTO services (name, description, price_paise, duration_days, sort_order, risk_level, delivery)
    VALUES (${REMINDERS_SERVICE_NAME}, ARRAY['Bench renewal reminders'], 100000, 30, 998, 'HIGH',
            'Research on the website and by e-mail')
    ON CONFLICT (name) DO NOTHING`
  await store.prisma.$executeRaw`
    INSERT INTO subscriptions (user_id, service_id, starts_at, ends_at, grant_reason, granted_by)
    SELECT u.id, svc.id, ${new Date(now.getTime() - 24 * 86_400_000)}, ${new Date(now.getTime() + 6 * 86_400_000)},
           ${REMINDERS_GRANT_REASON}, u.id
    FROM (SELECT id FROM users WHERE phone LIKE ${`${LARGE_SEED_PHONE_PREFIX}%`} ORDER BY phone LIMIT ${DUE_ROWS}) u
    CROSS JOIN (SELECT id FROM services WHERE name = ${REMINDERS_SERVICE_NAME}) svc`
}

/** Whether the reminder job's read of due rows uses subscriptions_reminder_due_idx (its plan, as EXPLAIN gives it). */
async function remindersReadByIndex(store: Store, now: Date): Promise<boolean> {
  const plan = await store.prisma.$queryRaw<{ 'QUERY PLAN': string }[]>`
    EXPLAIN SELECT s.id FROM subscriptions s
     WHERE s.ended_at IS NULL AND s.reminder_stage < 3
       AND s.ends_at > ${new Date(now.getTime() - 86_400_000)} AND s.ends_at <= ${new Date(now.getTime() + 7 * 86_400_000)}
     ORDER BY s.ends_at, s.id LIMIT ${store.reminders.REMINDER_BATCH_ROWS}`
  return plan.some((line) => line['QUERY PLAN'].includes('subscriptions_reminder_due_idx'))
}

/** Gateway orders this many ms old: past RECONCILE_AFTER_MS, inside the late-authorisation window. */
const ORDER_AGE_MS = 60 * 60_000

/** The service in every bench row's cart, as a cart snapshot. */
async function benchCart(store: Store) {
  const service = await store.prisma.service.findFirstOrThrow({
    orderBy: { sortOrder: 'asc' },
    select: { id: true, name: true, pricePaise: true, durationDays: true },
  })
  const { id: serviceId, ...rest } = service
  return { pricePaise: service.pricePaise, json: JSON.stringify([{ serviceId, ...rest }]) }
}

const runKey = (now: Date) => `${BENCH_KEY_PREFIX}${now.getTime()}:`

/** 10,000 open gateway orders an hour old with no payment attempt (the sandbox knows them), one per seeded customer. */
async function makeDueOrders(store: Store, orderIds: string[], now: Date) {
  const cart = await benchCart(store)
  await store.prisma.$executeRaw`
    INSERT INTO payments (user_id, method, status, amount_paise, cart, gateway_order_id, idempotency_key, created_at)
    SELECT u.id, 'GATEWAY', 'CREATED', ${cart.pricePaise}, ${cart.json}::jsonb, o.order_id, ${runKey(now)} || 'order:' || o.n,
           ${new Date(now.getTime() - ORDER_AGE_MS)}
    FROM (SELECT id, row_number() OVER (ORDER BY phone) AS n FROM users WHERE phone LIKE ${`${LARGE_SEED_PHONE_PREFIX}%`}
          ORDER BY phone LIMIT ${DUE_ROWS}) u
    JOIN unnest(${orderIds}::text[]) WITH ORDINALITY AS o(order_id, n) ON o.n = u.n`
}

/** 10,000 bank transfer claims a day past their expiry, one per seeded customer. */
async function makeOverdueClaims(store: Store, now: Date) {
  const cart = await benchCart(store)
  await store.prisma.$executeRaw`
    INSERT INTO payments (user_id, method, status, amount_paise, cart, utr, idempotency_key, created_at, expires_at)
    SELECT u.id, 'MANUAL', 'PENDING_VERIFICATION', ${cart.pricePaise}, ${cart.json}::jsonb, lpad(u.n::text, 12, '0'),
           ${runKey(now)} || 'claim:' || u.n, ${new Date(now.getTime() - 8 * 86_400_000)}, ${new Date(now.getTime() - 86_400_000)}
    FROM (SELECT id, row_number() OVER (ORDER BY phone DESC) AS n FROM users WHERE phone LIKE ${`${LARGE_SEED_PHONE_PREFIX}%`}
          ORDER BY phone DESC LIMIT ${DUE_ROWS}) u`
}

/**
 * Gateway orders of the data set itself that reconciliation asks about (open ones past
 * RECONCILE_AFTER_MS; failed or cancelled ones inside the late-authorisation window). The bench's
 * sandbox never saw them: each is an error, asked again on every run, by the store's runs too.
 */
function dueOrdersOfTheDataSet(store: Store, now: Date): Promise<number> {
  const windowStart = new Date(now.getTime() - store.paymentStatus.GATEWAY_LATE_AUTHORISATION_WINDOW_MS)
  return store.prisma.payment.count({
    where: {
      method: 'GATEWAY',
      gatewayOrderId: { not: null },
      createdAt: { lte: new Date(now.getTime() - store.reconciliation.RECONCILE_AFTER_MS) },
      OR: [
        { status: { in: store.paymentStatus.statusesFor('GATEWAY', 'paid') }, createdAt: { gt: windowStart } },
        { status: 'CREATED' },
      ],
      AND: [{ OR: [{ idempotencyKey: null }, { NOT: { idempotencyKey: { startsWith: BENCH_KEY_PREFIX } } }] }],
    },
  })
}

async function countBenchRows(store: Store, where: 'gateway-due' | 'claims-due'): Promise<number> {
  const now = new Date()
  const key = { startsWith: BENCH_KEY_PREFIX }
  if (where === 'claims-due')
    return store.prisma.payment.count({
      where: { ...store.paymentStatus.overdueManualClaimWhere(now), idempotencyKey: key },
    })
  return store.prisma.payment.count({ where: { method: 'GATEWAY', status: 'CREATED', idempotencyKey: key } })
}

const settleRunsActive = async (store: Store) =>
  (
    await store.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${store.settleQueue} AND state = 'active'`
  )[0]!.n

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Whether a run of the store's settle-payments created at or after `since` has ended. */
const settleRunEndedSince = async (store: Store, since: Date) =>
  (
    await store.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${store.settleQueue} AND created_on >= ${since}
      AND state IN ('completed', 'failed', 'cancelled')`
  )[0]!.n > 0

/** pg-boss creates a scheduled job within a minute or so of its time; a run on the data set takes minutes. */
const STORE_RUN_WAIT_MS = 4 * 60_000
const GAP_WAIT_MAX_MS = 12 * 60_000

/**
 * The store runs settle-payments itself every 5 minutes, on the same rows (and the data set's due
 * orders make its run take minutes): the bench's runs start when no run of the store's is active and
 * JOBS_WINDOW_MS are left before the next, else once the next run has ended. Polled: the state of a
 * run is a row in pg-boss's table, with no notification.
 */
async function awaitGapInStoreSchedule(store: Store): Promise<void> {
  const started = Date.now()
  const untilNextRun = () => STORE_SETTLE_EVERY_MS - (Date.now() % STORE_SETTLE_EVERY_MS)
  while (Date.now() - started < GAP_WAIT_MAX_MS) {
    while ((await settleRunsActive(store)) > 0) await delay(1_000)
    if (untilNextRun() >= JOBS_WINDOW_MS) break
    const nextRun = new Date(Date.now() + untilNextRun())
    const deadline = nextRun.getTime() + STORE_RUN_WAIT_MS
    while (Date.now() < deadline && !(await settleRunEndedSince(store, nextRun))) await delay(1_000)
  }
  const waitedS = Math.round((Date.now() - started) / 1000)
  if (waitedS > 0)
    info('waited for the store', `${waitedS} s`, 'its own settle-payments runs, so as not to run beside one')
}

/** Whether a run of the store's own settle-payments overlapped [from, to]: its figures then include that run's work. */
async function storeRunsDuring(store: Store, from: Date, to: Date): Promise<number> {
  return (
    await store.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${store.settleQueue}
      AND started_on <= ${to} AND (completed_on IS NULL OR completed_on >= ${from})`
  )[0]!.n
}

/**
 * Runs `job` with the lines it logs counted instead of printed (the store's logger: captureLogLines):
 * the data set's due orders are an error each, thousands of lines that would bury the figures.
 */
async function countingErrorLines<T>(job: () => Promise<T>): Promise<{ result: T; errorLines: number }> {
  const { captureLogLines } = await import('../app/server/operations/logger.server')
  const captured = captureLogLines()
  try {
    const result = await job()
    return { result, errorLines: captured.lines().filter((line) => line.level === 'error').length }
  } finally {
    captured.stop()
  }
}

/** Times `job` while the pages are timed on the other thread; then the pages' p95 against the one before. */
async function timeJobAgainstPages<T>(
  title: string,
  pages: TimedPage[],
  job: () => Promise<T>,
): Promise<{ seconds: number; result: T }> {
  const before = await timePagesOnThread(pages, BASELINE_REQUESTS).done
  const during = timePagesOnThread(pages, null)
  const started = performance.now()
  let result: T
  try {
    result = await job()
  } finally {
    during.stop()
  }
  const seconds = (performance.now() - started) / 1000
  const timesDuring = await during.done
  for (const [index, page] of pages.entries()) {
    const was = before[index]!
    const now = timesDuring[index]!
    const allowedMs = Math.max(BUDGETS.atScaleJobPageP95Ratio * was.p95, was.p95 + BUDGETS.atScaleJobPageP95AddedMs)
    if (now.samples < MIN_SAMPLES_FOR_P95) {
      info(
        `${page.name} during ${title}`,
        `${now.samples} requests`,
        `too few for a p95 (the job took ${ms(seconds * 1000)}): max ${ms(now.max)}, before p95 ${ms(was.p95)}`,
      )
      continue
    }
    check(
      `${page.name} p95 during ${title}`,
      ms(now.p95),
      `≤ ${ms(allowedMs)}`,
      now.p95 <= allowedMs,
      `before ${ms(was.p95)} (p50 ${was.p50.toFixed(1)} ms, ${was.samples} requests); during p50 ${now.p50.toFixed(1)} ms, ${now.samples} requests`,
    )
  }
  return { seconds, result }
}

/** A session of the user with this phone, as a sign-in makes it: the admin of this run (signed in by measureAtScale) or the long-time customer. */
async function sessionCookieOf(store: Store, phone: string): Promise<string> {
  const user = await store.prisma.user.findUniqueOrThrow({ where: { phone }, select: { id: true } })
  return (await store.session.createSession(user.id)).split(';')[0]!
}

/** After measureAtScale, which signed `adminMobile` in: the jobs' figures. */
export async function measureJobsAtScale(origin: string, adminMobile: string): Promise<void> {
  const store = await storeFunctions()
  const timedPages: TimedPage[] = [
    {
      name: 'admin payments list',
      url: `${origin}/admin/payments`,
      cookie: await sessionCookieOf(store, `+91${adminMobile}`),
    },
    {
      name: '/subscriptions, long-time customer',
      url: `${origin}/subscriptions`,
      cookie: await sessionCookieOf(store, `+91${LONG_TIME_CUSTOMER_MOBILE}`),
    },
  ]
  // As an instance does: the customers the jobs touch are invalidated in the store's cache too.
  const cacheSync = await store.cacheSync.startCacheSync()
  try {
    const leftOver = await deleteBenchRows(store)
    if (leftOver) info('rows of an interrupted run deleted', String(leftOver))
    const gateway = store.sandbox.sandboxGateway()
    const orderIds: string[] = []
    for (let start = 0; start < DUE_ROWS; start += ORDER_CREATION_CONCURRENCY) {
      const batch = Array.from({ length: Math.min(ORDER_CREATION_CONCURRENCY, DUE_ROWS - start) }, (_, index) =>
        gateway.createOrder({ amountPaise: 100, receipt: `bench-jobs-${start + index}`, notes: {} }),
      )
      orderIds.push(...(await Promise.all(batch)).map((order) => order.id))
    }
    await timePagesOnThread(timedPages, WARM_UP_REQUESTS).done
    await awaitGapInStoreSchedule(store)
    const jobsFrom = new Date()

    // The short job first, its rows made just before it: the store's next run would expire them too.
    await makeOverdueClaims(store, new Date())
    const expiry = await timeJobAgainstPages('claim expiry', timedPages, () =>
      store.claims.expireManualPayments(new Date()),
    )
    const claimsLeft = await countBenchRows(store, 'claims-due')
    check(
      `expiry of ${DUE_ROWS.toLocaleString('en-IN')} overdue claims`,
      `${expiry.seconds.toFixed(1)} s`,
      `< ${BUDGETS.atScaleJobSeconds} s`,
      expiry.seconds < BUDGETS.atScaleJobSeconds && claimsLeft === 0 && expiry.result >= DUE_ROWS,
      `${expiry.result} expired in batches of ${store.claims.EXPIRE_BATCH_ROWS}; ${claimsLeft} of the bench's still due` +
        (expiry.result < DUE_ROWS ? ' (fewer than made: a run of the store expired some)' : ''),
    )

    const alsoDue = await dueOrdersOfTheDataSet(store, new Date())
    info(
      'due orders of the data set',
      String(alsoDue),
      "asked about with the bench's (the bench's sandbox never saw them: each an error); the budget is per 10,000 asked",
    )
    await makeDueOrders(store, orderIds, new Date())
    const reconciled = await timeJobAgainstPages('reconciliation', timedPages, () =>
      countingErrorLines(() => store.reconciliation.reconcileOpenOrders(new Date(), { gateway })),
    )
    const ordersLeft = await countBenchRows(store, 'gateway-due')
    const { result: report, errorLines } = reconciled.result
    const secondsPerDueRows = (reconciled.seconds * DUE_ROWS) / Math.max(report.checked, 1)
    check(
      `reconciliation, ${DUE_ROWS.toLocaleString('en-IN')} due orders`,
      `${secondsPerDueRows.toFixed(1)} s`,
      `< ${BUDGETS.atScaleJobSeconds} s`,
      secondsPerDueRows < BUDGETS.atScaleJobSeconds && ordersLeft === 0,
      `${report.checked} asked about in ${reconciled.seconds.toFixed(1)} s: ${report.abandoned} given up, ${report.paid} paid, ${report.errors} errors (${errorLines} lines not printed); ${ordersLeft} of the bench's still open`,
    )

    // Last: the reminders queue an e-mail each, which the store's workers then send.
    await makeDueReminders(store, new Date())
    const byIndex = await remindersReadByIndex(store, new Date())
    const reminded = await timeJobAgainstPages('renewal reminders', timedPages, () =>
      store.reminders.sendRenewalReminders({ now: new Date() }),
    )
    const benchReminded = (
      await store.prisma.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM subscriptions WHERE grant_reason = ${REMINDERS_GRANT_REASON} AND reminder_stage >= 1`
    )[0]!.n
    check(
      `renewal reminders, ${DUE_ROWS.toLocaleString('en-IN')} due`,
      `${reminded.seconds.toFixed(1)} s`,
      `< ${BUDGETS.atScaleJobSeconds} s`,
      reminded.seconds < BUDGETS.atScaleJobSeconds && benchReminded === DUE_ROWS && byIndex,
      `${reminded.result} reminders queued (the data set's own due ones too); ${benchReminded} of the bench's reminded; ` +
        `due rows read ${byIndex ? 'by subscriptions_reminder_due_idx' : 'WITHOUT the index'}`,
    )

    const overlapping = await storeRunsDuring(store, jobsFrom, new Date())
    if (overlapping > 0)
      info(
        "the store's own settle-payments",
        `${overlapping} run(s)`,
        "ran beside the bench's jobs: the page figures include its work",
      )
  } finally {
    await deleteBenchRows(store)
    await cacheSync.stop()
    await store.prisma.$disconnect()
  }
}
