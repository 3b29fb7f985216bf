// `npm run db:seed`: the demo catalogue into DATABASE_URL (or the embedded database), when it has no services.
import { seedDemoData } from '../prisma/seed'
import { provideDatabase } from './db/database'
import { migrate } from './db/migrate'
import { panKeysFromEnv } from '../app/server/kyc/pan-keys.server'
import { createScriptPrisma } from './prisma-client'
import { loadEnvironment } from './environment'

const env = await loadEnvironment()
const database = await provideDatabase({
  databaseUrl: env.DATABASE_URL,
  dataDir: env.EMBEDDED_PG_DIR,
  port: env.EMBEDDED_PG_PORT,
})
const panKeys = panKeysFromEnv(env)
const prisma = createScriptPrisma(database.url, panKeys)
try {
  await migrate(database.url, { panKeys })
  await seedDemoData(prisma)
} finally {
  await prisma.$disconnect()
  await database.stop()
}
