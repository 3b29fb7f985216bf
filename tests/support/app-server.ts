import type { AddressInfo } from 'node:net'
import type { RequestHandler } from 'express'
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

/**
 * Serves `app` (by default the server bundle's app, server/app.ts) inside the Express stack that
 * `npm start` puts around it (server/http.ts: request ids, the request log and its timing, security
 * headers, compression), without static files, on a free port for the enclosing file or block.
 */
export function serveHttpStackDuringTests(app?: RequestHandler): { readonly baseUrl: string } {
  const served = { baseUrl: '' }
  let close = async () => {}
  beforeAll(async () => {
    const { createHttpApp } = await import('../../server/http')
    const bundle = app ? undefined : await import('../../server/app')
    const http = createHttpApp({
      app: app ?? bundle!.app,
      assets: (_req, _res, next) => next(),
      production: true,
      trustProxy: 'loopback',
    })
    const server = http.listen(0)
    await new Promise((resolve) => server.once('listening', resolve))
    served.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    close = async () => {
      await new Promise((resolve) => server.close(resolve))
      await bundle?.closeApp()
    }
  })
  afterAll(() => close())
  return served
}
