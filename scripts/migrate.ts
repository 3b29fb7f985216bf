// `npm run db:migrate`: apply pending migrations to DATABASE_URL (or to the embedded database when unset).
import { panKeysFromEnv } from '../app/server/kyc/pan-keys.server'
import { provideDatabase } from './db/database'
import { migrate } from './db/migrate'
import { loadEnvironment } from './environment'
import { loggerFor } from '../app/server/operations/logger.server'

const log = loggerFor('migrations')

const env = await loadEnvironment()
const database = await provideDatabase({
  databaseUrl: env.DATABASE_URL,
  dataDir: env.EMBEDDED_PG_DIR,
  port: env.EMBEDDED_PG_PORT,
})
try {
  const applied = await migrate(database.url, { panKeys: panKeysFromEnv(env) })
  log.info(applied.length ? `Applied ${applied.length} migration(s)` : 'The database is up to date')
} finally {
  await database.stop()
}
