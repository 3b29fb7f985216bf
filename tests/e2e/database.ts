import { readFile } from 'node:fs/promises'
import pg from 'pg'

/** Where tests/e2e/serve.ts leaves the URL of the e2e server's database (one file per port). */
export const e2eDatabaseUrlFile = (port = process.env.E2E_PORT ?? '3100') => `.data/e2e-database-url.${port}`

/**
 * The e2e server's database, for the few things a spec cannot do through the app. Writes here skip
 * the app's cache invalidation, so make them before the app first reads the affected user's data.
 */
export async function withE2eDatabase<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: (await readFile(e2eDatabaseUrlFile(), 'utf8')).trim() })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}
