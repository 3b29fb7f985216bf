// `npm run bench`: builds the store and the floor app, serves both, and prints the store's start-up
// time, bytes (of /services in the browser; of /auth and /pay beyond the layout, from the build's
// route manifest), the time to check a sign-in code, SSR throughput and Lighthouse figures against
// the budgets in bench/budgets.ts (where they come from: docs/testing.md, "Benchmark").
// Exits non-zero only when something could not be measured; a figure over budget is reported.
// BENCH_ONLY=large-bodies builds and starts the store and takes only the oversized-bodies and held-uploads
// figures (BENCH_ONLY=held-uploads only the held uploads'); BENCH_ONLY=memory builds and starts the store and takes
// only its idle RSS and its peak RSS under the SSR load (the store alone, no floor);
// BENCH_ONLY=lighthouse builds and starts the store and the floor and takes only the Lighthouse figures of
// every customer page; BENCH_ONLY=at-scale takes the figures on a large data set (DATABASE_URL filled by
// db:seed:large); BENCH_ONLY=at-scale-jobs takes only its jobs' figures there, BENCH_ONLY=at-scale-metrics
// only the /metrics scrape's, BENCH_ONLY=at-scale-research only research's (bench/research-at-scale.ts).
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { benchAdminMobile, measureAtScale, measureMetricsAtScale } from './at-scale'
import { autovacuumActivity } from './autovacuum'
import { allChecks, BUDGETS, check, info, kb, mb, ms, times } from './budgets'
import { assertBrowserUserAgents, CHROMIUM_PATH, hasChromium, launchChromium } from './browser'
import { cleanup } from './cleanup'
import { DUE_ROWS, measureJobsAtScale } from './jobs-at-scale'
import { HELD_UPLOADS, HOLD_MS, measureHeldUploads } from './held-uploads'
import { LARGE_BODY_BYTES_PER_CLIENT, LARGE_BODY_CLIENTS, measureLargeBodies } from './large-bodies'
import { comparePages, type PageFigures } from './lighthouse'
import { startFakeSmtp } from './fake-smtp'
import { measureResearchAtScale, RESEARCH_BENCH_READER_ITEMS, RESEARCH_BENCH_SUBSCRIBERS } from './research-at-scale'
import { customerPages } from './lighthouse-pages'
import { compareLoad, CONNECTIONS, loadStoreOnly } from './load'
import { type IdleMemory, measureIdleMemory, watchPeakMemory } from './memory'
import { type FirstLoad, measureFirstLoad, measureHtml } from './measure-bytes'
import { type ChunkSize, layoutJs, routeJsBeyondLayout } from './route-weight'
import { FLOOR_DIR, freePort, RESULTS_DIR, ROOT, runBuild, startFloor, startStore } from './servers'
import { signInThroughPages, timeCodeVerification } from './verify-code'

function envCount(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got ${process.env[name]}`)
  return value
}

const BENCH_SELECTIONS = [
  'all',
  'large-bodies',
  'held-uploads',
  'memory',
  'lighthouse',
  'at-scale',
  'at-scale-jobs',
  'at-scale-metrics',
  'at-scale-research',
] as const

function benchSelection(): (typeof BENCH_SELECTIONS)[number] {
  const only = process.env.BENCH_ONLY ?? 'all'
  const selection = BENCH_SELECTIONS.find((name) => name === only)
  if (!selection) throw new Error(`BENCH_ONLY must be one of ${BENCH_SELECTIONS.join(', ')}, got ${only}`)
  return selection
}

const config = {
  only: benchSelection(),
  durationS: envCount('BENCH_DURATION_S', 10),
  rounds: envCount('BENCH_ROUNDS', 3),
  lighthouseRuns: envCount('BENCH_LIGHTHOUSE_RUNS', 5),
  verifyRuns: envCount('BENCH_VERIFY_RUNS', 20),
}

const lighthouseVersion = JSON.parse(
  readFileSync(path.join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8'),
).version

const results: Record<string, unknown> = {
  startedAt: new Date().toISOString(),
  machine: {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
  },
  lighthouse: lighthouseVersion,
  config,
}

/** Figures that could not be taken; any makes the bench exit non-zero after printing the rest. */
const unmeasured: string[] = []

const section = (title: string) => console.log(`\n${title}`)
// Other work on the same box (tests, builds) moves req/s and Lighthouse far more than the code does.
const loadAverage = () => `load average ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} CPUs`
const floorNote = (text: string) => `floor ${text}`
const pathOf = (url: string) => new URL(url).pathname

function chromiumVersion(): string | null {
  if (!hasChromium()) return null
  try {
    return execFileSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return 'unknown'
  }
}

function printAssets(load: FirstLoad) {
  for (const resource of load.resources.filter((resource) => resource.kind === 'js' || resource.kind === 'css')) {
    console.log(`      ${kb(resource.bodyBytes).padStart(9)}  (${kb(resource.rawBytes)} raw)  ${pathOf(resource.url)}`)
  }
}

function printChunks(chunks: ChunkSize[]) {
  for (const chunk of chunks) console.log(`      ${kb(chunk.gzipBytes).padStart(9)}  ${chunk.file}`)
}

async function main() {
  assertBrowserUserAgents()
  if (config.only === 'large-bodies' || config.only === 'held-uploads') return largeBodiesOnly()
  if (config.only.startsWith('at-scale')) return atScaleOnly()
  if (config.only === 'lighthouse') return lighthouseOnly()
  if (config.only === 'memory') return memoryOnly()
  results.chromium = chromiumVersion()
  console.log(`Bench: Node ${process.version}, ${results.chromium ?? 'no Chromium'}, ${loadAverage()}`)
  console.log(
    `Load: ${config.rounds} rounds × ${config.durationS} s; Lighthouse: ${config.lighthouseRuns} runs each; code checks: ${config.verifyRuns}`,
  )

  await buildStoreAndFloor()

  section('Servers (the store as npm start runs it: node scripts/start.mjs, built already)')
  const store = await startStore(await freePort(3400))
  info('store', store.server.origin, store.database)
  check(
    'start: spawn to first 200 of /services',
    ms(store.startupToFirst200Ms),
    `≤ ${ms(BUDGETS.startupToFirstPageMs)}`,
    store.startupToFirst200Ms <= BUDGETS.startupToFirstPageMs,
    store.rebuiltOnStart ? 'includes a rebuild by scripts/start.mjs' : '',
  )
  if (store.embeddedDatabaseStartMs === null) info('embedded database start', 'n/a', store.database)
  else if (store.firstDatabaseStart) {
    info(
      'embedded database first start',
      ms(store.embeddedDatabaseStartMs),
      `includes initdb; the ≤ ${ms(BUDGETS.embeddedDatabaseStartMs)} budget applies from the next start`,
    )
  } else {
    check(
      'embedded database start',
      ms(store.embeddedDatabaseStartMs),
      `≤ ${ms(BUDGETS.embeddedDatabaseStartMs)}`,
      store.embeddedDatabaseStartMs <= BUDGETS.embeddedDatabaseStartMs,
      'what it adds to start-up: starting PostgreSQL on an existing data folder',
    )
  }
  const floor = await startFloor(await freePort(3401))
  info('floor', floor.origin)
  results.startup = {
    database: store.database,
    spawnToFirst200Ms: store.startupToFirst200Ms,
    rebuiltOnStart: store.rebuiltOnStart,
    embeddedDatabaseStartMs: store.embeddedDatabaseStartMs,
    firstDatabaseStart: store.firstDatabaseStart,
  }
  const storeUrl = `${store.server.origin}/services`
  const floorUrl = `${floor.origin}/`

  // Before anything else reaches the store, so that idle is the started store's.
  const idle = await measureIdleMemorySection(store.server)

  section('Bytes, first visit (compressed body bytes on the wire; JS and CSS as Chromium received them)')
  if (hasChromium()) await measureBytes(storeUrl, floorUrl)
  else unmeasured.push(`JS/CSS bytes in the browser (${CHROMIUM_PATH} is missing: apt-get install -y chromium)`)
  const storeHtml = await measureHtml(storeUrl)
  const floorHtml = await measureHtml(floorUrl)
  results.html = { store: storeHtml, floor: floorHtml }
  check(
    'HTML, /services',
    kb(storeHtml.compressedBytes),
    `≤ ${kb(BUDGETS.htmlBytes)}`,
    storeHtml.compressedBytes <= BUDGETS.htmlBytes,
    `${storeHtml.contentEncoding}, ${kb(storeHtml.rawBytes)} raw; floor ${kb(floorHtml.compressedBytes)} ${floorHtml.contentEncoding}, ${kb(floorHtml.rawBytes)} raw`,
  )

  section(
    "JS beyond the layout's (the route's chunks the layout does not load, from the build's route manifest; gzip -9 as served)",
  )
  measureRouteJs()

  section(
    `Checking a sign-in code: POST /auth with the right code, request to response on localhost, ${config.verifyRuns} sign-ins`,
  )
  if (config.verifyRuns > 0) {
    const verify = await timeCodeVerification(store.server.origin, config.verifyRuns)
    results.verifyCode = verify
    check(
      'code check p95',
      ms(verify.p95Ms),
      `< ${ms(BUDGETS.verifyCodeMs)}`,
      verify.p95Ms < BUDGETS.verifyCodeMs,
      `p50 ${verify.p50Ms.toFixed(1)} ms, max ${Math.max(...verify.samplesMs).toFixed(1)} ms; includes the session and account writes of a sign-in`,
    )
  } else info('skipped', 'BENCH_VERIFY_RUNS=0')

  await measureLargeBodiesSection(store.server)
  await measureHeldUploadsSection(store.server)

  section(`SSR load: GET /services vs floor /, 50 connections, ${config.durationS} s per run, ABBA (${loadAverage()})`)
  if (config.rounds > 0) {
    const peakMemory = watchPeakMemory(store.server.pid)
    const load = await compareLoad({
      floorUrl,
      storeUrl,
      durationS: config.durationS,
      rounds: config.rounds,
      onRound: ({ round, floor, store, throughputRatio, p99Ratio }) => {
        const figures = (run: typeof floor) =>
          `${run.requestsPerSec.toFixed(1).padStart(6)} req/s  p50 ${ms(run.p50Ms).padStart(6)}  p99 ${ms(run.p99Ms).padStart(6)}${run.failed ? `  ${run.failed} failed` : ''}`
        console.log(
          `  round ${round}  floor ${figures(floor)}   store ${figures(store)}   store/floor req/s ${times(throughputRatio)} p99 ${times(p99Ratio)}`,
        )
      },
    })
    results.load = load
    check(
      'throughput store/floor (median)',
      times(load.medianThroughputRatio),
      `≥ ${times(BUDGETS.throughputRatio)}`,
      load.medianThroughputRatio >= BUDGETS.throughputRatio,
    )
    check(
      'p99 store/floor (median)',
      times(load.medianP99Ratio),
      `≤ ${times(BUDGETS.p99Ratio)}`,
      load.medianP99Ratio <= BUDGETS.p99Ratio,
    )
    checkPeakMemory(idle, peakMemory.stop(), 'after the sections above')
  } else info('skipped', 'BENCH_ROUNDS=0')

  await measureLighthouseSection(store.server.origin, floorUrl)

  printSummary()
  if (unmeasured.length) throw new Error(`not measured: ${unmeasured.join('; ')}`)
}

/** The store alone, built and started as `npm start` runs it, for the selections that measure only the store. */
async function buildAndStartStoreAlone() {
  console.log(`Bench (BENCH_ONLY=${config.only}): Node ${process.version}, ${loadAverage()}`)
  section('Build')
  info(
    'store (npm run build)',
    `${((await runBuild('build-store', 'npm', ['run', 'build'], ROOT)) / 1000).toFixed(1)} s`,
  )
  section('Server (the store as npm start runs it: node scripts/start.mjs, built already)')
  const store = await startStore(await freePort(3400))
  info('store', store.server.origin, store.database)
  return store
}

async function largeBodiesOnly() {
  const store = await buildAndStartStoreAlone()
  if (config.only === 'large-bodies') await measureLargeBodiesSection(store.server)
  await measureHeldUploadsSection(store.server)
  printSummary()
}

async function memoryOnly() {
  const store = await buildAndStartStoreAlone()
  const idle = await measureIdleMemorySection(store.server)
  section(
    `SSR load on the store alone: GET /services, ${CONNECTIONS} connections, ${config.rounds} runs of ${config.durationS} s after a warm-up (${loadAverage()})`,
  )
  if (config.rounds === 0) {
    info('skipped', 'BENCH_ROUNDS=0')
    return printSummary()
  }
  const peakMemory = watchPeakMemory(store.server.pid)
  const runs = await loadStoreOnly({
    storeUrl: `${store.server.origin}/services`,
    durationS: config.durationS,
    rounds: config.rounds,
  })
  for (const [index, run] of runs.entries())
    console.log(
      `  run ${index + 1}  ${run.requestsPerSec.toFixed(1).padStart(6)} req/s  p50 ${ms(run.p50Ms).padStart(6)}  p99 ${ms(run.p99Ms).padStart(6)}${run.failed ? `  ${run.failed} failed` : ''}`,
    )
  checkPeakMemory(idle, peakMemory.stop(), 'the store alone')
  printSummary()
}

/** The started store's resident set after a warm-up, with its split from /metrics. */
async function measureIdleMemorySection(server: { origin: string; pid: number }): Promise<IdleMemory> {
  section(
    `Memory: the store process's RSS (from /proc) after 10 rounds of /, /services, /auth and /healthz and a 2 s pause (${loadAverage()})`,
  )
  const idle = await measureIdleMemory(server.origin, server.pid)
  results.memory = { idle }
  const split = idle.split
  check(
    'store RSS idle',
    mb(idle.rssBytes),
    `≤ ${mb(BUDGETS.idleRssBytes)}`,
    idle.rssBytes <= BUDGETS.idleRssBytes,
    split
      ? `JS heap ${mb(split.heapUsedBytes)} used of ${mb(split.heapTotalBytes)}, external ${mb(split.externalBytes)}, the rest (code, native, WebAssembly) ${mb(idle.rssBytes - split.heapTotalBytes - split.externalBytes)}`
      : 'no split: /metrics did not answer',
  )
  return idle
}

function checkPeakMemory(idle: IdleMemory, peakRssBytes: number, note: string) {
  results.memory = { idle, ssrLoadPeakRssBytes: peakRssBytes }
  check(
    'store RSS peak, SSR load',
    mb(peakRssBytes),
    `≤ ${mb(BUDGETS.ssrLoadPeakRssBytes)}`,
    peakRssBytes <= BUDGETS.ssrLoadPeakRssBytes,
    `${mb(peakRssBytes - idle.rssBytes)} above idle; ${note}`,
  )
}

/** Builds the store as `npm run build` does and the bare floor app, printing how long each took. */
async function buildStoreAndFloor() {
  section('Build')
  info(
    'store (npm run build)',
    `${((await runBuild('build-store', 'npm', ['run', 'build'], ROOT)) / 1000).toFixed(1)} s`,
  )
  info(
    'floor (npx react-router build)',
    `${((await runBuild('build-floor', 'npx', ['react-router', 'build'], FLOOR_DIR)) / 1000).toFixed(1)} s`,
  )
}

async function lighthouseOnly() {
  results.chromium = chromiumVersion()
  console.log(
    `Bench (BENCH_ONLY=lighthouse): Node ${process.version}, ${results.chromium ?? 'no Chromium'}, ${loadAverage()}`,
  )
  await buildStoreAndFloor()
  section('Servers (the store as npm start runs it: node scripts/start.mjs, built already)')
  const store = await startStore(await freePort(3400))
  info('store', store.server.origin, store.database)
  const floor = await startFloor(await freePort(3401))
  info('floor', floor.origin)
  await measureLighthouseSection(store.server.origin, `${floor.origin}/`)
  printSummary()
}

async function atScaleOnly() {
  if (!process.env.DATABASE_URL)
    throw new Error(
      `BENCH_ONLY=${config.only} measures the store on a large data set: set DATABASE_URL to a database filled by ` +
        '`npm run db:seed:large` (docs/testing.md, "A large data set")',
    )
  const databaseUrl = process.env.DATABASE_URL
  console.log(`Bench (BENCH_ONLY=${config.only}): Node ${process.version}, ${loadAverage()}`)
  section(`Build (${loadAverage()})`)
  info(
    'store (npm run build)',
    `${((await runBuild('build-store', 'npm', ['run', 'build'], ROOT)) / 1000).toFixed(1)} s`,
  )
  section(
    `Server (npm start on DATABASE_URL, demo mode, with an admin number of this run in ADMIN_PHONES) (${loadAverage()})`,
  )
  const adminMobile = benchAdminMobile()
  // Research's figures include its e-mails, sent by the store to a mail server of the bench's.
  const smtp = config.only === 'at-scale-research' ? await startFakeSmtp() : null
  const mail: Record<string, string> = smtp ? { SMTP_URL: smtp.url, MAIL_FROM: 'research@bench.example' } : {}
  const store = await startStore(await freePort(3400), { ADMIN_PHONES: `+91${adminMobile}`, ...mail })
  info('store', store.server.origin, store.database)
  if (config.only === 'at-scale-metrics') {
    section(`At scale: /metrics as Prometheus scrapes it, one request at a time (${loadAverage()})`)
    await printAutovacuum(databaseUrl)
    await measureMetricsAtScale(store.server.origin)
    return printSummary()
  }
  if (config.only === 'at-scale-research') {
    section(
      `At scale, research: publishing to ${RESEARCH_BENCH_SUBSCRIBERS.toLocaleString('en-IN')} subscribers, /research with ${RESEARCH_BENCH_READER_ITEMS.toLocaleString('en-IN')} items, the date-range audit pack (${loadAverage()})`,
    )
    await measureResearchAtScale(store.server, adminMobile, smtp!)
    return printSummary()
  }
  if (config.only === 'at-scale-jobs') {
    // The jobs time the admin payments list: the admin signs in as measureAtScale would have.
    await signInThroughPages(store.server.origin, adminMobile)
  } else {
    section(`At scale: pages and API one request at a time, then the CSV export of every payment (${loadAverage()})`)
    await printAutovacuum(databaseUrl)
    await measureAtScale(store.server, adminMobile)
  }
  section(
    `At scale, jobs: expiring ${DUE_ROWS.toLocaleString('en-IN')} overdue claims, then reconciling ${DUE_ROWS.toLocaleString('en-IN')} due gateway orders, with two pages timed meanwhile (${loadAverage()})`,
  )
  await printAutovacuum(databaseUrl)
  await measureJobsAtScale(store.server.origin, adminMobile)
  await printAutovacuum(databaseUrl)
  printSummary()
}

/** Autovacuum on a big table during a section makes p95 tails (db:seed:large ends with VACUUM (ANALYZE) against that). */
async function printAutovacuum(databaseUrl: string) {
  const activity = await autovacuumActivity(databaseUrl)
  info('autovacuum now', activity.length ? `${activity.length} running` : 'none', activity.join('; '))
}

function printSummary() {
  const over = allChecks().filter((item) => !item.pass)
  section(
    `Budgets: ${allChecks().length - over.length} PASS, ${over.length} OVER${over.length ? ` (${over.map((item) => item.name).join('; ')})` : ''}`,
  )
}

/**
 * Lighthouse on every customer page (bench/lighthouse-pages.ts), BENCH_LIGHTHOUSE_RUNS rounds of the
 * floor once then each page once; each page's medians against the budgets, its LCP against the
 * floor's median LCP of the same rounds.
 */
async function measureLighthouseSection(storeOrigin: string, floorUrl: string) {
  section(
    `Lighthouse ${lighthouseVersion} mobile (simulated Slow 4G, 4× CPU) on every customer page, median of ${config.lighthouseRuns} rounds (the floor, then each page) (${loadAverage()})`,
  )
  if (!hasChromium()) return info('skipped', `no ${CHROMIUM_PATH}`)
  if (config.lighthouseRuns === 0) return info('skipped', 'BENCH_LIGHTHOUSE_RUNS=0')
  const pages = await customerPages(storeOrigin)
  const started = performance.now()
  const lighthouse = await comparePages(floorUrl, pages, config.lighthouseRuns, (round) =>
    console.log(
      `  round ${round} of ${config.lighthouseRuns} done after ${((performance.now() - started) / 60_000).toFixed(1)} min (${loadAverage()})`,
    ),
  )
  results.lighthouse = lighthouse
  const { floor } = lighthouse
  info(
    'floor /',
    `score ${floor.score}`,
    `LCP ${ms(floor.lcpMs)} (runs ${floor.runs.map((run) => Math.round(run.lcpMs)).join('/')}), TBT ${ms(floor.tbtMs)}, CLS ${floor.cls.toFixed(3)}`,
  )
  for (const page of lighthouse.pages) printPageChecks(page)
}

function printPageChecks(page: PageFigures) {
  const runsOf = (figure: (run: PageFigures['runs'][number]) => number) =>
    `runs ${page.runs.map((run) => figure(run)).join('/')}`
  const scoreBudget = page.name === '/services' ? BUDGETS.servicesLighthouseScore : BUDGETS.lighthouseScore
  const checks = [
    check(
      `${page.name}: score`,
      String(page.score),
      `≥ ${scoreBudget}`,
      page.score >= scoreBudget,
      runsOf((run) => run.score),
    ),
    check(
      `${page.name}: LCP/floor`,
      times(page.lcpRatio),
      `≤ ${times(BUDGETS.lcpRatio)}`,
      page.lcpRatio <= BUDGETS.lcpRatio,
      `${ms(page.lcpMs)}; ${runsOf((run) => Math.round(run.lcpMs))}`,
    ),
    check(
      `${page.name}: TBT`,
      ms(page.tbtMs),
      `≤ ${ms(BUDGETS.tbtMs)}`,
      page.tbtMs <= BUDGETS.tbtMs,
      runsOf((run) => Math.round(run.tbtMs)),
    ),
    check(
      `${page.name}: CLS`,
      page.cls.toFixed(3),
      `≤ ${BUDGETS.cls}`,
      page.cls <= BUDGETS.cls,
      runsOf((run) => Number(run.cls.toFixed(3))),
    ),
  ]
  // Where to look, from the run with the largest LCP: what the page's LCP is, what held the first paint, what moved.
  if (checks.includes(false)) {
    const slowest = page.runs.reduce((worst, run) => (run.lcpMs > worst.lcpMs ? run : worst))
    console.log(`      why: ${slowest.why}`)
  }
}

async function measureLargeBodiesSection(server: { origin: string; pid: number }) {
  section(
    `Oversized bodies: ${LARGE_BODY_CLIENTS} clients each send ${mb(LARGE_BODY_BYTES_PER_CLIENT)} to POST /auth (half chunked), reconnecting when refused; /healthz asked meanwhile (${loadAverage()})`,
  )
  const figures = await measureLargeBodies(server.origin, server.pid)
  results.largeBodies = figures
  const statuses = Object.entries(figures.statuses)
    .map(([status, count]) => `${count}× ${status === '0' ? 'no answer' : status}`)
    .join(', ')
  check(
    'store RSS peak above idle',
    mb(figures.peakAboveIdleBytes),
    `< ${mb(BUDGETS.largeBodiesPeakRssAboveIdleBytes)}`,
    figures.peakAboveIdleBytes < BUDGETS.largeBodiesPeakRssAboveIdleBytes,
    `idle ${mb(figures.idleRssBytes)}, peak ${mb(figures.peakRssBytes)}; ${figures.requests} requests in ${ms(figures.attackMs)}: ${statuses}`,
  )
  check(
    '/healthz p99 meanwhile',
    ms(figures.healthz.p99Ms),
    `< ${ms(BUDGETS.healthzDuringLargeBodiesP99Ms)}`,
    figures.healthz.p99Ms < BUDGETS.healthzDuringLargeBodiesP99Ms,
    `p50 ${figures.healthz.p50Ms.toFixed(1)} ms, max ${ms(figures.healthz.maxMs)}, ${figures.healthz.samples} requests, ${figures.healthz.failed} failed`,
  )
}

async function measureHeldUploadsSection(server: { origin: string; pid: number }) {
  section(
    `Held uploads: ${HELD_UPLOADS} PAN card uploads of 10 MB to /details, each from its own address, all but the last KiB sent, held ${ms(HOLD_MS)}; /healthz asked meanwhile (${loadAverage()})`,
  )
  const figures = await measureHeldUploads(server.origin, server.pid)
  results.heldUploads = figures
  const statuses = Object.entries(figures.statuses)
    .map(([status, count]) => `${count}× ${status}`)
    .join(', ')
  check(
    'store RSS peak above idle',
    mb(figures.peakAboveIdleBytes),
    `< ${mb(BUDGETS.heldUploadsPeakRssAboveIdleBytes)}`,
    figures.peakAboveIdleBytes < BUDGETS.heldUploadsPeakRssAboveIdleBytes,
    `idle ${mb(figures.idleRssBytes)}, peak ${mb(figures.peakRssBytes)}; answers: ${statuses}`,
  )
  check(
    '/healthz p99 meanwhile',
    ms(figures.healthz.p99Ms),
    `< ${ms(BUDGETS.healthzDuringHeldUploadsP99Ms)}`,
    figures.healthz.p99Ms < BUDGETS.healthzDuringHeldUploadsP99Ms,
    `p50 ${figures.healthz.p50Ms.toFixed(1)} ms, max ${ms(figures.healthz.maxMs)}, ${figures.healthz.samples} requests, ${figures.healthz.failed} failed`,
  )
}

function measureRouteJs() {
  const clientDir = path.join(ROOT, 'build/client')
  const layout = layoutJs(clientDir)
  const auth = routeJsBeyondLayout(clientDir, 'routes/auth')
  const pay = routeJsBeyondLayout(clientDir, 'routes/pay')
  results.routeJs = { layout, auth, pay }
  info(
    'layout (entry, root, route manifest)',
    kb(layout.gzipBytes),
    `${layout.chunks.length} files, loaded by every page`,
  )
  check(
    'JS beyond the layout, /auth',
    kb(auth.gzipBytes),
    `≤ ${kb(BUDGETS.authRouteJsGzipBytes)}`,
    auth.gzipBytes <= BUDGETS.authRouteJsGzipBytes,
  )
  printChunks(auth.chunks)
  check(
    'JS beyond the layout, /pay',
    kb(pay.gzipBytes),
    `≤ ${kb(BUDGETS.payRouteJsGzipBytes)}`,
    pay.gzipBytes <= BUDGETS.payRouteJsGzipBytes,
  )
  printChunks(pay.chunks)
}

async function measureBytes(storeUrl: string, floorUrl: string) {
  const browser = await launchChromium()
  const storeLoad = await measureFirstLoad(browser, storeUrl, true)
  const storeNoJs = await measureFirstLoad(browser, storeUrl, false)
  const floorLoad = await measureFirstLoad(browser, floorUrl, true)
  const floorNoJs = await measureFirstLoad(browser, floorUrl, false)
  await browser.close()
  results.bytes = {
    store: { withJs: storeLoad, withoutJs: storeNoJs },
    floor: { withJs: floorLoad, withoutJs: floorNoJs },
  }

  check(
    'JS, /services',
    kb(storeLoad.jsBytes),
    `≤ ${kb(BUDGETS.jsBytes)}`,
    storeLoad.jsBytes <= BUDGETS.jsBytes,
    `${storeLoad.scriptRequests} files, ${kb(storeLoad.jsRawBytes)} raw; ${floorNote(`${kb(floorLoad.jsBytes)}, ${floorLoad.scriptRequests} files, ${kb(floorLoad.jsRawBytes)} raw`)}`,
  )
  check(
    'CSS, /services',
    `${kb(storeLoad.cssBytes)} / ${storeLoad.cssFiles}`,
    `≤ ${kb(BUDGETS.cssBytes)} / ${BUDGETS.cssFiles}`,
    storeLoad.cssBytes <= BUDGETS.cssBytes && storeLoad.cssFiles === BUDGETS.cssFiles,
    floorNote(`${kb(floorLoad.cssBytes)} / ${floorLoad.cssFiles}`),
  )
  info(
    'all responses, with JS',
    kb(storeLoad.totalBytes),
    `${storeLoad.requests} requests; ${floorNote(`${kb(floorLoad.totalBytes)}, ${floorLoad.requests} requests`)}`,
  )
  console.log('    store JS and CSS, largest first:')
  printAssets(storeLoad)
  check(
    'JS disabled: total',
    kb(storeNoJs.totalBytes),
    `≤ ${kb(BUDGETS.noJsTotalBytes)}`,
    storeNoJs.totalBytes <= BUDGETS.noJsTotalBytes,
    `${storeNoJs.requests} requests; ${floorNote(`${kb(floorNoJs.totalBytes)}, ${floorNoJs.requests} requests`)}`,
  )
  check(
    'JS disabled: script requests',
    String(storeNoJs.scriptRequests),
    `= ${BUDGETS.noJsScriptRequests}`,
    storeNoJs.scriptRequests === BUDGETS.noJsScriptRequests,
  )
}

let finishing = false

/** Stops everything the bench started and writes what was measured, also after an error or Ctrl-C. */
async function finish(exitCode: number): Promise<never> {
  finishing = true
  await cleanup()
  results.checks = allChecks()
  results.loadAverageAtEnd = os.loadavg()[0]
  results.finishedAt = new Date().toISOString()
  mkdirSync(RESULTS_DIR, { recursive: true })
  const output = path.join(RESULTS_DIR, 'latest.json')
  writeFileSync(output, `${JSON.stringify(results, null, 2)}\n`)
  console.log(
    `\nFigures written to ${path.relative(ROOT, output)}; server and build logs in ${path.relative(ROOT, RESULTS_DIR)}/`,
  )
  process.exit(exitCode)
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (finishing) return
    results.error = `interrupted by ${signal}`
    console.error(`\n${signal}: stopping everything the bench started`)
    void finish(130)
  })
}

// A stray rejection (a late browser event, say) must still stop the servers and the database.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error: unknown) => {
    if (finishing) return
    results.error = `${event}: ${error instanceof Error ? error.message : String(error)}`
    console.error(`\nCould not measure: ${results.error}`)
    void finish(1)
  })
}

let exitCode = 0
try {
  await main()
} catch (error) {
  if (finishing) await new Promise(() => {}) // a signal is already finishing the run
  exitCode = 1
  results.error = error instanceof Error ? error.message : String(error)
  console.error(`\nCould not measure: ${results.error}`)
}
await finish(exitCode)
