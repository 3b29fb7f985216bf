import { PrismaPg } from '@prisma/adapter-pg'
import { PrismaClient } from '../app/generated/prisma/client'
import { withPanAtRest } from '../app/server/kyc/pan-at-rest.server'
import type { PanKeys } from '../app/server/kyc/pan-crypto.server'

/**
 * A short-lived client for scripts (seeding, fixtures); the app has its own in app/server/db.server.ts.
 * Give it the PAN keys when it writes or reads PANs, so they are stored encrypted like the app's.
 */
export function createScriptPrisma(databaseUrl: string, panKeys?: PanKeys): PrismaClient {
  const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl, max: 2 }) })
  return panKeys ? withPanAtRest(client, panKeys) : client
}
