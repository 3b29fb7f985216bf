import { cp, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { migrate, MIGRATIONS_DIR } from '../../scripts/db/migrate'
import { createDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database'

// The migration that makes every service state its risk level and delivery backfills existing rows.
const RISK_MIGRATION = '20261128200000_service_risk_and_delivery'
const { serverUrl } = inject('testDatabase')
const databaseName = uniqueDatabaseName('risk-migrate')
const quiet = { log: () => {} }

afterAll(async () => dropDatabase(serverUrl, databaseName))

describe(`migration ${RISK_MIGRATION}`, () => {
  it('backfills a risk level that never understates the risk, and the delivery the store has always had', async () => {
    const url = await createDatabase(serverUrl, databaseName)
    const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'))
    await cp(MIGRATIONS_DIR, dir, { recursive: true })
    // The database as it was just before: the risk migration and every later one left out.
    for (const name of await readdir(dir))
      if (name >= RISK_MIGRATION) await rm(path.join(dir, name), { recursive: true })
    await migrate(url, { ...quiet, dir })

    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      await client.query(`
        INSERT INTO services (name, description, price_paise, duration_days) VALUES
          ('Equity Premium', ARRAY['Stock ideas', 'Risk level: HIGH'], 299900, 30),
          ('Equity Premium+', ARRAY['Index and stock option strategies', 'Risk level: VERY HIGH'], 799900, 90),
          ('Swing Trading Ideas', ARRAY['Positional ideas'], 149900, 30),
          ('Commodity Insights', ARRAY['Levels to watch for MCX contracts'], 199900, 30),
          ('Index Futures Desk', '{}', 199900, 30),
          ('Dividend Watch', ARRAY['Risk level: moderate'], 99900, 30)`)
      await cp(path.join(MIGRATIONS_DIR, RISK_MIGRATION), path.join(dir, RISK_MIGRATION), { recursive: true })
      expect(await migrate(url, { ...quiet, dir })).toEqual([RISK_MIGRATION])

      const { rows } = await client.query<{ name: string; risk_level: string; delivery: string }>(
        'SELECT name, risk_level, delivery FROM services ORDER BY name',
      )
      expect(Object.fromEntries(rows.map((row) => [row.name, row.risk_level]))).toEqual({
        'Commodity Insights': 'VERY_HIGH',
        'Dividend Watch': 'MODERATE',
        'Equity Premium': 'HIGH',
        'Equity Premium+': 'VERY_HIGH',
        'Index Futures Desk': 'VERY_HIGH',
        'Swing Trading Ideas': 'HIGH',
      })
      expect(new Set(rows.map((row) => row.delivery))).toEqual(
        new Set(['On this website, as each research report or recommendation is published, during the subscription.']),
      )
      // Required from now on: no service without a risk level or with a blank delivery.
      await expect(
        client.query(
          `INSERT INTO services (name, price_paise, duration_days, delivery) VALUES ('No risk', 100, 30, 'Daily')`,
        ),
      ).rejects.toThrow(/risk_level/)
      await expect(
        client.query(
          `INSERT INTO services (name, price_paise, duration_days, risk_level, delivery) VALUES ('Blank', 100, 30, 'LOW', '  ')`,
        ),
      ).rejects.toThrow(/services_delivery_not_blank/)
    } finally {
      await client.end()
    }
  })
})
