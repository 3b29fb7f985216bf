import { describe, expect, it } from 'vitest'
import { serveAppDuringTests } from '../support/app-server'

const app = serveAppDuringTests()

describe('GET /healthz', () => {
  it('answers 200 while the database is reachable', async () => {
    const response = await fetch(`${app.baseUrl}/healthz`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({ database: 'up' })
  })
})
