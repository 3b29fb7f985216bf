import { LRUCache } from 'lru-cache'

/** SPEC's freshness rule for services, pending payments and subscriptions, kept on the server. */
export const CACHE_TTL_MS = 600_000

type Loaded = NonNullable<unknown>

const entries = new LRUCache<string, Loaded>({ max: 5_000, ttl: CACHE_TTL_MS })
const inFlight = new Map<string, Promise<Loaded>>()

/** Returns the cached value of `key`, loading it once when missing or older than CACHE_TTL_MS. */
export async function cached<T extends Loaded>(key: string, load: () => Promise<T>): Promise<T> {
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

/** Every write that changes a cached fact calls this before answering. */
export function invalidate(key: string): void {
  entries.delete(key)
  inFlight.delete(key)
}
