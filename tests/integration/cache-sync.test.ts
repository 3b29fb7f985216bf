import pg from 'pg'
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest'
import { CACHE_CHANNEL, CACHE_SYNC_INSTANCE_ID, startCacheSync, type CacheSync } from '~/server/cache-sync.server'
import { cached, invalidate } from '~/server/cache.server'

// This process is one app instance; a plain connection of the test plays the other instances.
const otherInstance = new pg.Client({ connectionString: process.env.DATABASE_URL })
const heardByOthers: string[] = []
let sync: CacheSync | undefined

beforeAll(async () => {
  await otherInstance.connect()
  otherInstance.on('notification', ({ payload }) => heardByOthers.push(payload ?? ''))
  await otherInstance.query(`LISTEN ${CACHE_CHANNEL}`)
})
afterEach(async () => {
  await sync?.stop()
  sync = undefined
  vi.restoreAllMocks()
})
afterAll(() => otherInstance.end())

function counter() {
  let loads = 0
  return { load: async () => ({ loads: ++loads }), loads: () => loads }
}

const announce = (key: string, instanceId = 'another-instance') =>
  otherInstance.query('SELECT pg_notify($1, $2)', [CACHE_CHANNEL, `${instanceId} ${key}`])

/** Loads that two reads in a row of `key` cause: 0 cached, 1 loaded then cached, 2 not caching at all. */
async function loadsOfTwoReads(key: string, source: ReturnType<typeof counter>): Promise<number> {
  const before = source.loads()
  await cached(key, source.load)
  await cached(key, source.load)
  return source.loads() - before
}

it('drops a key that another instance announces', async () => {
  sync = await startCacheSync(process.env.DATABASE_URL)
  const services = counter()
  await cached('services', services.load)
  await announce('services')
  await expect.poll(() => cached('services', services.load)).toEqual({ loads: 2 })
})

it('tells the other instances which keys it invalidated', async () => {
  sync = await startCacheSync(process.env.DATABASE_URL)
  const start = heardByOthers.length
  await invalidate('subscriptions:u1', 'pending-payments:u1')
  await expect
    .poll(() => heardByOthers.slice(start).map((payload) => payload.split(' ')[1]))
    .toEqual(['subscriptions:u1', 'pending-payments:u1'])
})

it('ignores its own announcements, which it applied when it made them', async () => {
  sync = await startCacheSync(process.env.DATABASE_URL)
  const own = counter()
  await cached('own', own.load)
  await announce('own', CACHE_SYNC_INSTANCE_ID)
  // Notifications arrive in the order they were sent: once this later one is heard, the first was too.
  const marker = counter()
  await cached('marker', marker.load)
  await announce('marker')
  await expect.poll(() => cached('marker', marker.load)).toEqual({ loads: 2 })
  expect(await cached('own', own.load)).toEqual({ loads: 1 })
})

it('reads through the cache while it cannot hear the others, and caches again once it listens again', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {})
  vi.spyOn(console, 'info').mockImplementation(() => {})
  sync = await startCacheSync(process.env.DATABASE_URL)
  const reads = counter()
  expect(await loadsOfTwoReads('k', reads)).toBe(1)

  const { rowCount } = await otherInstance.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'research-store cache-sync' AND datname = current_database()`,
  )
  expect(rowCount).toBe(1)
  await expect.poll(() => loadsOfTwoReads('k', reads)).toBe(2)
  await expect.poll(() => loadsOfTwoReads('k', reads), { timeout: 10_000 }).toBeLessThan(2)
  expect(await loadsOfTwoReads('k', reads)).toBe(0)
})
