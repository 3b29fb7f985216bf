import type { Env } from '../../app/server/env.server'
import { panKeysFromEnv } from '../../app/server/kyc/pan-keys.server'
import { provideDatabase, type ProvidedDatabase } from './database'
import { migrate } from './migrate'

/**
 * What `npm start` and `npm run dev` do before serving: the database (embedded when DATABASE_URL is
 * unset, and then exported as DATABASE_URL for the app), its migrations, and in demo mode the demo data.
 */
export async function prepareDatabase(
  env: Env,
): Promise<ProvidedDatabase & { embedded: boolean; providedInMs: number }> {
  const started = performance.now()
  const provided = await provideDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.EMBEDDED_PG_DIR,
    port: env.EMBEDDED_PG_PORT,
  })
  // What the embedded database adds to start-up (nothing with DATABASE_URL); migrating and seeding happen either way.
  const database = { ...provided, providedInMs: performance.now() - started }
  try {
    process.env.DATABASE_URL = database.url
    const panKeys = panKeysFromEnv(env)
    await migrate(database.url, { panKeys })
    if (env.DEMO_MODE) {
      // Loaded in demo mode only: a deployment never seeds, and needs no second Prisma client (decision 057).
      const [{ seedDemoData }, { createScriptPrisma }] = await Promise.all([
        import('../../prisma/seed'),
        import('../prisma-client'),
      ])
      const prisma = createScriptPrisma(database.url, panKeys)
      await seedDemoData(prisma).finally(() => prisma.$disconnect())
    }
    return database
  } catch (error) {
    await database.stop()
    throw error
  }
}
