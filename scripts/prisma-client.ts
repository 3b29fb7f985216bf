import { PrismaPg } from '@prisma/adapter-pg'
import { PrismaClient } from '../app/generated/prisma/client'

/** A short-lived client for scripts (seeding, fixtures); the app has its own in app/server/db.server.ts. */
export function createScriptPrisma(databaseUrl: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl, max: 2 }) })
}
