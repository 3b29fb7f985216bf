import { afterEach, describe, expect, it } from 'vitest'
import { CACHE_TTL_MS, cached, invalidate, setCachePeers, setHearingPeers } from '~/server/cache.server'

describe('cached', () => {
  it('keeps 10 minutes of freshness (docs/product.md section 9)', () => {
    expect(CACHE_TTL_MS).toBe(600_000)
  })

  it('loads once and serves the cached value after', async () => {
    let loads = 0
    const load = async () => ({ loads: ++loads })
    expect(await cached('k1', load)).toEqual({ loads: 1 })
    expect(await cached('k1', load)).toEqual({ loads: 1 })
  })

  it('shares one load between concurrent callers', async () => {
    let loads = 0
    const load = async () => ({ loads: ++loads })
    const [first, second] = await Promise.all([cached('k2', load), cached('k2', load)])
    expect(first).toBe(second)
    expect(loads).toBe(1)
  })

  it('loads afresh after invalidation', async () => {
    let loads = 0
    const load = async () => ({ loads: ++loads })
    await cached('k3', load)
    invalidate('k3')
    expect(await cached('k3', load)).toEqual({ loads: 2 })
  })

  it('does not store a load that was invalidated while it ran', async () => {
    let release!: () => void
    const slow = cached(
      'k4',
      () => new Promise<{ stale: boolean }>((resolve) => (release = () => resolve({ stale: true }))),
    )
    invalidate('k4')
    release()
    await slow
    expect(await cached('k4', async () => ({ stale: false }))).toEqual({ stale: false })
  })

  describe('with other instances', () => {
    afterEach(() => {
      setCachePeers(null)
      setHearingPeers(true)
    })

    it('answers a write only once the other instances have been told', async () => {
      let told!: () => void
      const published: string[][] = []
      setCachePeers({
        publish: (keys) => (published.push([...keys]), new Promise<void>((resolve) => (told = resolve))),
      })
      let answered = false
      const invalidating = invalidate('a', 'b').then(() => (answered = true))
      await Promise.resolve()
      expect(published).toEqual([['a', 'b']])
      expect(answered).toBe(false)
      told()
      await invalidating
      expect(answered).toBe(true)
    })

    it('reads through while it cannot hear them, and caches again after', async () => {
      let loads = 0
      const load = async () => ({ loads: ++loads })
      await cached('k5', load)
      setHearingPeers(false)
      await cached('k5', load)
      await cached('k5', load)
      expect(loads).toBe(3)
      setHearingPeers(true)
      await cached('k5', load)
      await cached('k5', load)
      expect(loads).toBe(4)
    })
  })
})
