import { readFile } from 'node:fs/promises'
import pg from 'pg'
import { decryptPan, encryptPan, panLookupHash } from '../../app/server/kyc/pan-crypto.server'
import { panKeysFromEnv } from '../../app/server/kyc/pan-keys.server'

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

/** The e2e server's PAN keys: demo mode's, made once in the data folder it shares with the specs. */
const e2ePanKeys = () =>
  panKeysFromEnv({ EMBEDDED_PG_DIR: process.env.EMBEDDED_PG_DIR ?? '.data/postgres', PAN_ENCRYPTION_OLD_KEYS: [] })

/** A PAN as the store keeps it (pan_encrypted, pan_hash), for rows a spec writes straight into the database. */
export function storedPan(pan: string): [encrypted: string, hash: string] {
  const keys = e2ePanKeys()
  return [encryptPan(keys, pan), panLookupHash(keys, pan)]
}

/** The PAN in a pan_encrypted column a spec read straight from the database. */
export const readStoredPan = (encrypted: string) => decryptPan(e2ePanKeys(), encrypted)
