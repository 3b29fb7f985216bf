import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

let baseUrl: string
let close: () => Promise<void>

beforeAll(async () => {
  const { app, closeApp } = await import('../../server/app')
  const server = app.listen(0)
  await new Promise((resolve) => server.once('listening', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  close = async () => {
    await new Promise((resolve) => server.close(resolve))
    await closeApp()
  }
})

afterAll(() => close())

describe('GET /healthz', () => {
  it('answers 200 while the database is reachable', async () => {
    const response = await fetch(`${baseUrl}/healthz`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({ database: 'up' })
  })
})
