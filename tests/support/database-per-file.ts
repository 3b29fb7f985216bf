import { afterAll, inject } from 'vitest'
import { createDatabase, dropDatabase, uniqueDatabaseName } from './test-database'

// Each test file gets its own copy of the migrated template: files never see each other's data.
const { serverUrl, template } = inject('testDatabase')
const databaseName = uniqueDatabaseName('file')
process.env.DATABASE_URL = await createDatabase(serverUrl, databaseName, template)

afterAll(async () => {
  // Paying a payment queues its confirmation e-mail, which starts pg-boss: stop it before the drop.
  if ((globalThis as { jobQueue?: unknown }).jobQueue) await (await import('~/server/jobs/queue.server')).stopJobs()
  const globalForPrisma = globalThis as { prisma?: { $disconnect: () => Promise<void> } }
  await globalForPrisma.prisma?.$disconnect()
  delete globalForPrisma.prisma
  await dropDatabase(serverUrl, databaseName)
})
