import { createHash, randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import { getErrorMessage } from '../../app/domain/error-message'
import { encryptPlaintextPans } from '../../app/server/kyc/pan-at-rest.server'
import type { PanKeys } from '../../app/server/kyc/pan-crypto.server'
import { loggerFor } from '../../app/server/operations/logger.server'

const migrationLog = loggerFor('migrations')

/** The nearest folder at or above `from` with a package.json: this module runs from scripts/db/ and, compiled into build/start.js, from build/. */
function packageRoot(from: string): string {
  for (let folder = from; ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'package.json'))) return folder
    if (path.dirname(folder) === folder) throw new Error(`No package.json at or above ${from}`)
  }
}

export const MIGRATIONS_DIR = path.join(packageRoot(import.meta.dirname), 'prisma/migrations')

// The key `prisma migrate deploy` takes too, so our runner and Prisma's never interleave.
const MIGRATION_ADVISORY_LOCK_KEY = 72707369

// Prisma's own bookkeeping table, so `prisma migrate deploy` can take over where the engine is available.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`

export class MigrationError extends Error {}

type MigrationFile = { name: string; sql: string; checksum: string }

export async function readMigrationFiles(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8')
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') }
    }),
  )
}

/**
 * Applies the pending migrations in name order, each in its own transaction, recording them in
 * `_prisma_migrations`. Refuses to run when an applied migration's file changed or went missing.
 * Safe to run from several processes at once: they queue on an advisory lock.
 * With `panKeys`, then runs the data step SQL cannot (encryptPlaintextPans) under the same lock.
 */
export async function migrate(
  databaseUrl: string,
  {
    dir = MIGRATIONS_DIR,
    log = (line: string) => migrationLog.info(line),
    panKeys,
  }: { dir?: string; log?: (line: string) => void; panKeys?: PanKeys } = {},
): Promise<string[]> {
  const files = await readMigrationFiles(dir)
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_ADVISORY_LOCK_KEY])
    await client.query(CREATE_MIGRATIONS_TABLE)
    const { rows: applied } = await client.query<{
      migration_name: string
      checksum: string
      finished_at: Date | null
    }>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL ORDER BY started_at',
    )
    const fileByName = new Map(files.map((file) => [file.name, file]))
    for (const row of applied) {
      const file = fileByName.get(row.migration_name)
      if (!file) throw new MigrationError(`Applied migration ${row.migration_name} has no file in ${dir}`)
      if (!row.finished_at)
        throw new MigrationError(`Migration ${row.migration_name} failed earlier; resolve it by hand`)
      if (file.checksum !== row.checksum) {
        throw new MigrationError(
          `Migration ${row.migration_name} was changed after it was applied; add a new migration instead`,
        )
      }
    }
    const appliedNames = new Set(applied.map((row) => row.migration_name))
    const pending = files.filter((file) => !appliedNames.has(file.name))
    for (const file of pending) {
      await client.query('BEGIN')
      try {
        const startedAt = new Date()
        await client.query(file.sql)
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, $4, 1)`,
          [randomUUID(), file.checksum, file.name, startedAt],
        )
        await client.query('COMMIT')
      } catch (error) {
        await client.query('ROLLBACK')
        throw new MigrationError(`Migration ${file.name} failed: ${getErrorMessage(error)}`)
      }
      log(`Applied migration ${file.name}`)
    }
    if (panKeys) {
      const encrypted = await encryptPlaintextPans(client, panKeys)
      if (encrypted) log(`Encrypted ${encrypted} stored PAN(s)`)
    }
    return pending.map((file) => file.name)
  } finally {
    // Ending the session releases the advisory lock too.
    await client.end()
  }
}
