import { cp, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { migrate, MIGRATIONS_DIR } from '../../scripts/db/migrate'
import { createDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database'

// The consent records' migration backfills each user's one recorded acceptance (the users columns).
const CONSENT_MIGRATION = '20261127000000_consent_records'
const { serverUrl } = inject('testDatabase')
const databaseName = uniqueDatabaseName('consent-migrate')
const quiet = { log: () => {} }

afterAll(async () => dropDatabase(serverUrl, databaseName))

describe(`migration ${CONSENT_MIGRATION}`, () => {
  it('backfills one TERMS record per user who accepted, as the columns had it, without a channel', async () => {
    const url = await createDatabase(serverUrl, databaseName)
    const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'))
    await cp(MIGRATIONS_DIR, dir, { recursive: true })
    // The database as it was before it: later migrations may change what it creates.
    for (const entry of await readdir(dir)) {
      if (entry >= CONSENT_MIGRATION && entry !== 'migration_lock.toml')
        await rm(path.join(dir, entry), { recursive: true })
    }
    await migrate(url, { ...quiet, dir })

    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      await client.query(`
        INSERT INTO users (phone, agreement_accepted_at, agreement_version, agreement_text_sha256, agreement_ip)
        VALUES ('+919800000001', '2026-11-23T10:00:00Z', 'agreement-0123456789ab', '${'a'.repeat(64)}', '203.0.113.5'),
               ('+919800000002', NULL, NULL, NULL, NULL)`)
      await cp(path.join(MIGRATIONS_DIR, CONSENT_MIGRATION), path.join(dir, CONSENT_MIGRATION), { recursive: true })
      expect(await migrate(url, { ...quiet, dir })).toEqual([CONSENT_MIGRATION])

      const { rows } = await client.query(
        `SELECT u.phone, a.kind, a.version, a.text_sha256, a.accepted_at, a.ip, a.user_agent, a.channel
           FROM acceptances a JOIN users u ON u.id = a.user_id`,
      )
      expect(rows).toEqual([
        {
          phone: '+919800000001',
          kind: 'TERMS',
          version: 'agreement-0123456789ab',
          text_sha256: 'a'.repeat(64),
          accepted_at: new Date('2026-11-23T10:00:00Z'),
          ip: '203.0.113.5',
          user_agent: null,
          channel: null,
        },
      ])
      await expect(client.query('UPDATE acceptances SET ip = NULL')).rejects.toThrow(/append-only/)
    } finally {
      await client.end()
    }
  })
})
