import { describe, expect, it } from 'vitest'
import {
  EVENT_LOOP_SAMPLE_MS,
  HTTP_DURATION_BUCKETS_S,
  isLoopbackAddress,
  mayReadMetrics,
  PAYMENTS_RECENT_WINDOW_HOURS,
} from '~/server/operations/metrics.server'

// Bad input (docs/operations.md, Metrics): /metrics exists only for this machine and for a scraper with METRICS_TOKEN.
// Everyone else (another address, a request through a proxy, a wrong token) is refused, and
// server/app.ts then answers the store's 404 (tests/e2e/api.metrics.spec.ts).

const TOKEN = 'f3b1c0d9e8a7f6b5c4d3e2f1a0b9c8d7e6f5a4b3'
const direct = (remoteAddress: string, headers: Record<string, string> = {}) => ({ remoteAddress, headers })

describe('mayReadMetrics', () => {
  it('lets a request straight from this machine in, without a token', () => {
    for (const address of ['127.0.0.1', '127.0.0.53', '::1', '::ffff:127.0.0.1'])
      expect(mayReadMetrics(direct(address), undefined), address).toBe(true)
  })

  it('refuses another address without the token, with or without a token configured', () => {
    for (const address of ['203.0.113.9', '10.0.0.5', '::ffff:192.168.1.2', '2001:db8::1', '128.0.0.1']) {
      expect(mayReadMetrics(direct(address), undefined), address).toBe(false)
      expect(mayReadMetrics(direct(address), TOKEN), address).toBe(false)
    }
  })

  it('refuses a request that came through a proxy on this machine', () => {
    for (const header of ['X-Forwarded-For', 'Forwarded', 'X-Real-IP'])
      expect(mayReadMetrics(direct('127.0.0.1', { [header.toLowerCase()]: '203.0.113.9' }), undefined), header).toBe(
        false,
      )
  })

  it('lets the right bearer token in from anywhere, and refuses a wrong one even from this machine', () => {
    const bearing = (authorization: string, address = '203.0.113.9') =>
      direct(address, { authorization, 'x-forwarded-for': '198.51.100.7' })
    expect(mayReadMetrics(bearing(`Bearer ${TOKEN}`), TOKEN)).toBe(true)
    expect(mayReadMetrics(bearing(`bearer ${TOKEN}`), TOKEN)).toBe(true)
    expect(mayReadMetrics(bearing(`Bearer ${TOKEN}x`), TOKEN)).toBe(false)
    expect(mayReadMetrics(bearing(`Bearer ${TOKEN.slice(0, -1)}`), TOKEN)).toBe(false)
    expect(mayReadMetrics(bearing(`Basic ${TOKEN}`), TOKEN)).toBe(false)
    expect(mayReadMetrics(bearing('Bearer'), TOKEN)).toBe(false)
    expect(mayReadMetrics(bearing('Bearer wrong', '127.0.0.1'), TOKEN)).toBe(false)
    expect(mayReadMetrics(direct('127.0.0.1', { authorization: 'Bearer wrong' }), TOKEN)).toBe(false)
    // No token configured: a token offered is a wrong one.
    expect(mayReadMetrics(direct('127.0.0.1', { authorization: `Bearer ${TOKEN}` }), undefined)).toBe(false)
  })

  it('knows loopback addresses', () => {
    expect(isLoopbackAddress(undefined)).toBe(false)
    expect(isLoopbackAddress('::ffff:10.0.0.1')).toBe(false)
    expect(isLoopbackAddress('localhost')).toBe(false)
  })
})

describe("the figures' named limits", () => {
  it('time requests from 5 ms to 10 s, sample the event loop every 10 ms, count payments over one day', () => {
    expect(HTTP_DURATION_BUCKETS_S.at(0)).toBe(0.005)
    expect(HTTP_DURATION_BUCKETS_S.at(-1)).toBe(10)
    expect(EVENT_LOOP_SAMPLE_MS).toBe(10)
    expect(PAYMENTS_RECENT_WINDOW_HOURS).toBe(24)
  })
})
