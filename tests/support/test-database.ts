import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { startEmbeddedPostgres, type ProvidedDatabase } from '../../scripts/db/database'
import { migrate } from '../../scripts/db/migrate'

/** Every database the suites create is named `rs_<pid>_...`, so leftovers of dead runs can be found. */
const TEST_DATABASE_PREFIX = 'rs_'

export function databaseUrlFor(serverUrl: string, databaseName: string): string {
  const url = new URL(serverUrl)
  url.pathname = `/${databaseName}`
  return url.toString()
}

/**
 * The PostgreSQL server the tests use: TEST_DATABASE_URL, else DATABASE_URL, else an embedded
 * server of its own (so tests never touch the data of a developer's running store).
 */
export async function provideTestServer(embedded: { dataDir: string; port: number }): Promise<ProvidedDatabase> {
  const configured = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL
  if (configured) return { url: configured, stop: async () => {} }
  return startEmbeddedPostgres({ ...embedded, databaseName: 'postgres' })
}

async function withClient<T>(serverUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

export function uniqueDatabaseName(label: string): string {
  return `${TEST_DATABASE_PREFIX}${process.pid}_${label}_${randomBytes(4).toString('hex')}`
}

/** Creates an empty database (or a copy of `template`) and returns its URL. */
export async function createDatabase(serverUrl: string, name: string, template?: string): Promise<string> {
  await withClient(serverUrl, (client) =>
    client.query(
      `CREATE DATABASE ${pg.escapeIdentifier(name)}${template ? ` TEMPLATE ${pg.escapeIdentifier(template)}` : ''}`,
    ),
  )
  return databaseUrlFor(serverUrl, name)
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withClient(serverUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`),
  )
}

/** Creates a database with every migration applied, for test files to copy. */
export async function createMigratedTemplate(serverUrl: string): Promise<string> {
  await dropDatabasesOfDeadRuns(serverUrl)
  const name = uniqueDatabaseName('template')
  await migrate(await createDatabase(serverUrl, name), { log: () => {} })
  return name
}

/** Drops the databases that runs which died before cleaning up left behind. */
export async function dropDatabasesOfDeadRuns(serverUrl: string): Promise<void> {
  const { rows } = await withClient(serverUrl, (client) =>
    client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `${TEST_DATABASE_PREFIX}%`,
    ]),
  )
  for (const { datname } of rows) {
    const pid = Number(datname.slice(TEST_DATABASE_PREFIX.length).split('_')[0])
    if (Number.isInteger(pid) && !isRunning(pid)) await dropDatabase(serverUrl, datname)
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
