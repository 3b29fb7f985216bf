import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll } from 'vitest'

/**
 * Serves the server bundle's Express app (server/app.ts) on a free port for the tests of the
 * enclosing file or describe block, and closes it and what it opened afterwards.
 */
export function serveAppDuringTests(): { readonly baseUrl: string } {
  const served = { baseUrl: '' }
  let close = async () => {}
  beforeAll(async () => {
    const { app, closeApp } = await import('../../server/app')
    const server = app.listen(0)
    await new Promise((resolve) => server.once('listening', resolve))
    served.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    close = async () => {
      await new Promise((resolve) => server.close(resolve))
      await closeApp()
    }
  })
  afterAll(() => close())
  return served
}
