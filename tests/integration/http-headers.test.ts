import { once } from 'node:events'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import type http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { privateWhenSignedIn } from '~/server/http/private-pages.server'
import { createHttpApp } from '../../server/http'
import { signedInUser } from '../support/sessions'

// The production stack (server/http.ts) around a stand-in page, with a temporary folder standing in
// for build/client.

let assetsDir: string
let server: http.Server
let origin: string

beforeAll(async () => {
  assetsDir = await mkdtemp(path.join(os.tmpdir(), 'rs-assets-'))
  await writeFile(path.join(assetsDir, 'entry.js'), 'console.log(1)\n')
  const page: express.RequestHandler = (_req, res) => void res.type('html').send('<p>page</p>')
  server = createHttpApp({
    app: page,
    assets: express.static(assetsDir),
    production: true,
    trustProxy: 'loopback',
  }).listen(0, '127.0.0.1')
  await once(server, 'listening')
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.close()
  await rm(assetsDir, { recursive: true, force: true })
})

describe.each([
  ['a static asset', '/entry.js'],
  ['a page', '/services'],
])('%s', (_label, urlPath) => {
  it('carries X-Content-Type-Options: nosniff', async () => {
    const response = await fetch(`${origin}${urlPath}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('has no Strict-Transport-Security over plain HTTP (the demo store)', async () => {
    const response = await fetch(`${origin}${urlPath}`)
    expect(response.headers.get('strict-transport-security')).toBeNull()
  })

  it('has Strict-Transport-Security when a trusted proxy says the client came over HTTPS', async () => {
    const response = await fetch(`${origin}${urlPath}`, { headers: { 'X-Forwarded-Proto': 'https' } })
    expect(response.headers.get('strict-transport-security')).toMatch(/^max-age=31536000; includeSubDomains$/)
  })
})

// Every answer to a signed-in request shows its customer's data (a page's header, the name, at least), so
// it is never stored, whatever the route chose (app/server/http/private-pages.server.ts). The route list
// through the real store is walked by tests/e2e/private-pages.spec.ts.
describe('privateWhenSignedIn', () => {
  let privateOrigin = ''
  let privateServer: http.Server
  beforeAll(async () => {
    const { sessionCookie } = await import('~/server/session.server')
    const routes = express()
      .use(privateWhenSignedIn())
      // A route that chose a public cache, as no page of a customer may.
      .get(
        '/cached',
        (_req, res) => void res.set('Cache-Control', 'public, max-age=600').type('html').send('<p>page</p>'),
      )
      .get('/json', (_req, res) => void res.json({ name: 'Asha' }))
      .get('/redirect', (_req, res) => res.redirect('/cached'))
      .post('/sign-in', (_req, res) => void res.cookie(sessionCookie.name, 'a-session').json({ message: 'Signed in.' }))
      .post('/other-cookie', (_req, res) => void res.cookie('theme', 'dark').json({}))
    privateServer = createHttpApp({
      app: routes,
      assets: (_req, _res, next) => next(),
      production: true,
      trustProxy: 'loopback',
    }).listen(0, '127.0.0.1')
    await once(privateServer, 'listening')
    privateOrigin = `http://127.0.0.1:${(privateServer.address() as AddressInfo).port}`
  })
  afterAll(() => void privateServer.close())

  const cacheControl = async (urlPath: string, init: RequestInit = {}) =>
    (await fetch(`${privateOrigin}${urlPath}`, { redirect: 'manual', ...init })).headers.get('Cache-Control')

  it.each(['/cached', '/json', '/redirect'])(
    'answers %s private, no-store to a request with the session cookie, whatever the route chose',
    async (urlPath) => {
      const { cookie } = await signedInUser()
      expect(await cacheControl(urlPath, { headers: { Cookie: cookie } })).toBe('private, no-store')
    },
  )

  it('answers private, no-store when the answer starts a session', async () => {
    expect(await cacheControl('/sign-in', { method: 'POST' })).toBe('private, no-store')
    expect(await cacheControl('/other-cookie', { method: 'POST' })).toBeNull()
  })

  it("leaves a visitor's answer as its route made it", async () => {
    expect(await cacheControl('/cached')).toBe('public, max-age=600')
    expect(await cacheControl('/json')).toBeNull()
  })
})
