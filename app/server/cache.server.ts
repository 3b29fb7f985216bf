import { LRUCache } from 'lru-cache'

/**
 * The original store's freshness rule (10 minutes, docs/product.md section 9) for services, pending payments and
 * subscriptions, kept on the server.
 */
export const CACHE_TTL_MS = 600_000

type Loaded = NonNullable<unknown>

const entries = new LRUCache<string, Loaded>({ max: 5_000, ttl: CACHE_TTL_MS })
const inFlight = new Map<string, Promise<Loaded>>()

/** How invalidations reach the other app instances (app/server/cache-sync.server.ts). */
export type CachePeers = { publish(keys: readonly string[]): Promise<void> }
let peers: CachePeers | null = null
/** False while this instance cannot hear the others' invalidations: every read then loads afresh. */
let hearingPeers = true

/** Returns the cached value of `key`, loading it once when missing or older than CACHE_TTL_MS. */
export async function cached<T extends Loaded>(key: string, load: () => Promise<T>): Promise<T> {
  if (!hearingPeers) return load()
  const hit = entries.get(key)
  if (hit !== undefined) return hit as T
  const pending = inFlight.get(key)
  if (pending) return pending as Promise<T>
  const loading = load()
    .then((value) => {
      // A write that invalidated the key while this load ran must not be overwritten by stale data.
      if (inFlight.get(key) === loading) entries.set(key, value)
      return value
    })
    .finally(() => {
      if (inFlight.get(key) === loading) inFlight.delete(key)
    })
  inFlight.set(key, loading)
  return loading
}

/** Drops `key` in this process only (a read that must be fresh, or another instance's invalidation). */
export function forget(key: string): void {
  entries.delete(key)
  inFlight.delete(key)
}

export function setCachePeers(next: CachePeers | null): void {
  peers = next
}

/**
 * The cache-sync listener lost its connection (false) or has it back (true). While it is lost this
 * instance would miss invalidations, so it empties its cache and reads through until it hears again.
 */
export function setHearingPeers(hearing: boolean): void {
  hearingPeers = hearing
  entries.clear()
  inFlight.clear()
}

/**
 * Every write that changes a cached fact awaits this after it commits and before answering: the
 * keys are dropped here and, through the peers, in every other instance, so the customer's next
 * request reads fresh wherever it lands. A failed broadcast is logged by the peers, not thrown:
 * the write itself has succeeded.
 */
export async function invalidate(...keys: string[]): Promise<void> {
  for (const key of keys) forget(key)
  await peers?.publish(keys)
}
