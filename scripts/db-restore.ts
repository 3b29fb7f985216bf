// `npm run db:restore -- FILE`: a backup made by `npm run db:backup` into the database DATABASE_URL
// names (or the embedded one), which must be empty or not exist yet. Its PANs are read with this
// store's keys first: a backup this store cannot read is refused before anything is restored
// (docs/operations.md, "Backup and restore"). Start the store on the database afterwards: it migrates it.
import { getErrorMessage } from '../app/domain/error-message'
import { panKeysFromEnv } from '../app/server/kyc/pan-keys.server'
import { BackupRefusal, backupLog as log, describeCounts, restoreDatabase } from './db/backup'
import { provideDatabase } from './db/database'
import { loadEnvironment } from './environment'

const file = process.argv[2]
if (!file || file.startsWith('-')) {
  log.error('Usage: npm run db:restore -- FILE (a backup made by npm run db:backup)')
  process.exit(2)
}
const env = await loadEnvironment()
const database = await provideDatabase({
  databaseUrl: env.DATABASE_URL,
  dataDir: env.EMBEDDED_PG_DIR,
  port: env.EMBEDDED_PG_PORT,
})
let failed = false
try {
  const { counts, pans } = await restoreDatabase({ databaseUrl: database.url, file, panKeys: panKeysFromEnv(env) })
  log.info(
    { file, counts, pans },
    `Restored ${file} (${describeCounts(counts)}); its ${pans.encrypted} encrypted PANs read with this store's keys`,
  )
} catch (error) {
  failed = true
  log.error(
    error instanceof BackupRefusal
      ? `Restore refused: ${error.message}`
      : `The restore failed: ${getErrorMessage(error)}`,
  )
} finally {
  await database.stop()
}
process.exit(failed ? 1 : 0)
