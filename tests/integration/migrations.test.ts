import { createHash } from 'node:crypto'
import { cp, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { migrate, MIGRATIONS_DIR, MigrationError } from '../../scripts/db/migrate'
import { createDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database'

const { serverUrl } = inject('testDatabase')
const created: string[] = []

async function emptyDatabase(): Promise<string> {
  const name = uniqueDatabaseName('migrate')
  created.push(name)
  return createDatabase(serverUrl, name)
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(sql)).rows
  } finally {
    await client.end()
  }
}

async function copyOfMigrations(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'))
  await cp(MIGRATIONS_DIR, dir, { recursive: true })
  return dir
}

const quiet = { log: () => {} }

afterAll(async () => {
  for (const name of created) await dropDatabase(serverUrl, name)
})

describe('migrate', () => {
  it('applies every migration once and records it the way Prisma does', async () => {
    const url = await emptyDatabase()
    const names = (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort()

    expect(await migrate(url, quiet)).toEqual(names)
    expect(await migrate(url, quiet)).toEqual([])

    const rows = await query<{
      migration_name: string
      checksum: string
      finished_at: Date
      applied_steps_count: number
    }>(
      url,
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    )
    expect(rows.map((row) => row.migration_name)).toEqual(names)
    for (const row of rows) {
      const sql = await readFile(path.join(MIGRATIONS_DIR, row.migration_name, 'migration.sql'))
      expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'))
      expect(row.finished_at).toBeInstanceOf(Date)
      expect(row.applied_steps_count).toBe(1)
    }
  })

  it('applies each migration exactly once when two processes migrate at the same moment', async () => {
    const url = await emptyDatabase()
    const [first, second] = await Promise.all([migrate(url, quiet), migrate(url, quiet)])
    expect([...first, ...second].sort()).toEqual([...new Set([...first, ...second])].sort())
    const rows = await query<{ count: string }>(url, 'SELECT count(*) FROM "_prisma_migrations"')
    expect(Number(rows[0]!.count)).toBe(first.length + second.length)
  })

  it('refuses to run when an applied migration was edited afterwards', async () => {
    const url = await emptyDatabase()
    const dir = await copyOfMigrations()
    await migrate(url, { ...quiet, dir })
    const [firstName] = (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort()
    await writeFile(path.join(dir, firstName!, 'migration.sql'), '-- edited\nSELECT 1;\n')
    await expect(migrate(url, { ...quiet, dir })).rejects.toThrow(MigrationError)
    await expect(migrate(url, { ...quiet, dir })).rejects.toThrow(/was changed after it was applied/)
  })

  it('rolls back a failing migration whole and records nothing for it', async () => {
    const url = await emptyDatabase()
    const dir = await copyOfMigrations()
    await migrate(url, { ...quiet, dir })
    const broken = path.join(dir, '99999999999999_broken')
    await mkdir(broken)
    await writeFile(
      path.join(broken, 'migration.sql'),
      'CREATE TABLE "half_made" (id int);\nSELECT no_such_function();\n',
    )
    await expect(migrate(url, { ...quiet, dir })).rejects.toThrow(/99999999999999_broken failed/)
    expect(await query(url, `SELECT 1 FROM pg_tables WHERE tablename = 'half_made'`)).toEqual([])
    expect(
      await query(url, `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '99999999999999_broken'`),
    ).toEqual([])
  })
})
