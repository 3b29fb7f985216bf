import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'

describe('GET /healthz without a database', () => {
  it('answers 503', async () => {
    // Port 1 on loopback refuses connections at once.
    process.env.DATABASE_URL = 'postgresql://nobody@127.0.0.1:1/nothing'
    const { app, closeApp } = await import('../../server/app')
    const server = app.listen(0)
    await new Promise((resolve) => server.once('listening', resolve))
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`)
      expect(response.status).toBe(503)
      expect(await response.json()).toEqual({ database: 'down' })
    } finally {
      await new Promise((resolve) => server.close(resolve))
      await closeApp()
    }
  })
})
