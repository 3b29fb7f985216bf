// `npm run db:backup -- FILE`: the database (DATABASE_URL, or the embedded one) into FILE, in pg_dump's
// custom format, readable by its owner only (docs/operations.md, "Backup and restore").
import { getErrorMessage } from '../app/domain/error-message'
import { BackupRefusal, backupDatabase, backupLog as log, describeCounts } from './db/backup'
import { provideDatabase } from './db/database'
import { loadEnvironment } from './environment'

const file = process.argv[2]
if (!file || file.startsWith('-')) {
  log.error('Usage: npm run db:backup -- FILE (a new file; the backup is written in pg_dump custom format)')
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
  const { bytes, counts, panKeyIds } = await backupDatabase({ databaseUrl: database.url, file })
  log.info({ file, bytes, counts }, `Backed up the store (${describeCounts(counts)}) to ${file} (${bytes} bytes)`)
  if (panKeyIds.length)
    log.warn(
      `Its PANs are encrypted with PAN key ${panKeyIds.join(', ')}: keep PAN_ENCRYPTION_KEY and PAN_LOOKUP_KEY with the backup (not in the same place); without them its PANs cannot be read`,
    )
} catch (error) {
  failed = true
  log.error(error instanceof BackupRefusal ? error.message : `The backup failed: ${getErrorMessage(error)}`)
} finally {
  await database.stop()
}
process.exit(failed ? 1 : 0)
