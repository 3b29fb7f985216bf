import { describe, expect, it } from 'vitest'
import { CACHE_TTL_MS, cached, invalidate } from '~/server/cache.server'

describe('cached', () => {
  it("keeps the SPEC's 10 minutes of freshness", () => {
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
    const slow = cached('k4', () => new Promise<{ stale: boolean }>((resolve) => (release = () => resolve({ stale: true }))))
    invalidate('k4')
    release()
    await slow
    expect(await cached('k4', async () => ({ stale: false }))).toEqual({ stale: false })
  })
})
