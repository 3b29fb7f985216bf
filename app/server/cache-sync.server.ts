import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { forget, setCachePeers, setHearingPeers } from './cache.server'
import { prisma } from './db.server'
import { env } from './env.server'
import { getErrorMessage } from '~/domain/error-message'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('cache-sync')

/**
 * Cache invalidation across app instances (docs/architecture.md, "Caching and more than one instance").
 * Every invalidate() is also a Postgres NOTIFY on this channel; every instance LISTENs on a connection of
 * its own and drops the keys another instance announced. While that connection is down an instance cannot know what it
 * misses, so it reads through its cache until it listens again. Needs a session connection: a
 * PgBouncer in transaction mode in front of Postgres does not carry LISTEN.
 */
export const CACHE_CHANNEL = 'research_store_cache'
export const CACHE_SYNC_RECONNECT_MS = { first: 500, max: 30_000 }

/** Marks this instance's own announcements, which it has already applied. */
export const CACHE_SYNC_INSTANCE_ID = randomUUID()

export type CacheSync = { stop(): Promise<void> }

export async function startCacheSync(databaseUrl = env.DATABASE_URL): Promise<CacheSync> {
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: the cache cannot listen for other instances')
  let listener: pg.Client | null = null
  let stopped = false
  let retryDelayMs = CACHE_SYNC_RECONNECT_MS.first
  let retryTimer: NodeJS.Timeout | undefined

  const listen = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: databaseUrl, application_name: 'research-store cache-sync' })
    client.on('notification', ({ channel, payload }) => {
      if (channel !== CACHE_CHANNEL || !payload) return
      const separator = payload.indexOf(' ')
      if (payload.slice(0, separator) !== CACHE_SYNC_INSTANCE_ID) forget(payload.slice(separator + 1))
    })
    client.on('error', (error) => log.error(`Listener connection failed: ${error.message}`))
    client.on('end', () => {
      if (listener === client) lost()
    })
    try {
      await client.connect()
      await client.query(`LISTEN ${CACHE_CHANNEL}`)
    } catch (error) {
      await client.end().catch(() => {})
      throw error
    }
    listener = client
    retryDelayMs = CACHE_SYNC_RECONNECT_MS.first
  }

  const lost = () => {
    listener = null
    if (stopped) return
    setHearingPeers(false)
    log.error('Not listening to other instances; reading through the cache until reconnected')
    scheduleReconnect()
  }

  const scheduleReconnect = () => {
    if (stopped || retryTimer) return
    retryTimer = setTimeout(async () => {
      retryTimer = undefined
      try {
        await listen()
        setHearingPeers(true)
        log.info('Listening to other instances again')
      } catch (error) {
        log.error(`Reconnect failed: ${getErrorMessage(error)}`)
        retryDelayMs = Math.min(retryDelayMs * 2, CACHE_SYNC_RECONNECT_MS.max)
        scheduleReconnect()
      }
    }, retryDelayMs)
    retryTimer.unref()
  }

  await listen()
  setHearingPeers(true)
  setCachePeers({
    async publish(keys) {
      try {
        await prisma.$executeRaw`SELECT pg_notify(${CACHE_CHANNEL}, ${CACHE_SYNC_INSTANCE_ID} || ' ' || key) FROM unnest(${keys}::text[]) AS key`
      } catch (error) {
        log.error(`Could not tell the other instances to drop ${keys.join(', ')}: ${getErrorMessage(error)}`)
      }
    },
  })

  return {
    async stop() {
      stopped = true
      clearTimeout(retryTimer)
      setCachePeers(null)
      const client = listener
      listener = null
      await client?.end().catch(() => {})
    },
  }
}
