import { PrismaPg } from '@prisma/adapter-pg'
import pg from 'pg'
import { type Prisma, PrismaClient } from '~/generated/prisma/client'
import { env } from './env.server'
import { withPanAtRest } from './kyc/pan-at-rest.server'
import { panKeysFromEnv } from './kyc/pan-keys.server'

/** The PAN keys from configuration, for code that reads PANs through raw SQL. */
export const panKeys = panKeysFromEnv(env)

/** Connections the app's pool opens at most, per instance (docs/limits.md). */
export const DATABASE_POOL_MAX_CONNECTIONS = 10

// Vite's dev server re-evaluates modules on change; keep one pool per process.
const globalForPrisma = globalThis as {
  prisma?: PrismaClient
  prismaPool?: pg.Pool
  /** The pool's connections whose sockets are still open. */
  connectedClients?: Set<pg.PoolClient>
}
const connectedClients = (globalForPrisma.connectedClients ??= new Set())

function createPrisma(): PrismaClient {
  if (!env.DATABASE_URL) throw new Error('DATABASE_URL is not set: start the app through `npm start` or `npm run dev`')
  // The pool is ours, so /metrics can say how many connections are in use and how many queries wait for one.
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: DATABASE_POOL_MAX_CONNECTIONS })
  pool.on('connect', (client) => {
    connectedClients.add(client)
    client.once('end', () => connectedClients.delete(client))
  })
  globalForPrisma.prismaPool = pool
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) })
  // PANs are stored encrypted and looked up by a keyed hash (app/server/kyc/pan-at-rest.server.ts).
  return withPanAtRest(client, panKeys)
}

export const prisma = (globalForPrisma.prisma ??= createPrisma())

/**
 * Ends the pool and waits until every one of its connections has closed. pg's Pool.end() resolves
 * as soon as it has asked its clients to end, before their sockets close: a database stopped right
 * after would end those connections itself, and a client the pool has let go of throws that.
 */
export async function disconnectDatabase(): Promise<void> {
  const closing = [...connectedClients].map((client) => new Promise((resolve) => client.once('end', resolve)))
  await prisma.$disconnect()
  await Promise.all(closing)
}

/** The app's connection pool now: connections open, idle, and queries waiting for one. */
export function databasePoolStats(): { open: number; idle: number; waiting: number; max: number } {
  const pool = globalForPrisma.prismaPool
  return {
    open: pool?.totalCount ?? 0,
    idle: pool?.idleCount ?? 0,
    waiting: pool?.waitingCount ?? 0,
    max: DATABASE_POOL_MAX_CONNECTIONS,
  }
}

export async function isDatabaseReachable(): Promise<boolean> {
  try {
    await prisma.$queryRaw`SELECT 1`
    return true
  } catch {
    return false
  }
}

/**
 * Runs a statement that changes at most `batchRows` rows (a DELETE or UPDATE over a LIMITed
 * subselect) again and again until a run changes fewer: each batch is its own short statement, so
 * no lock is held for longer than one. The rows changed in all.
 */
export async function executeInBatches(batchSql: Prisma.Sql, batchRows: number): Promise<number> {
  let changed = 0
  for (;;) {
    const batch = await prisma.$executeRaw(batchSql)
    changed += batch
    if (batch < batchRows) return changed
  }
}
