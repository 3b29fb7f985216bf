import { once } from 'node:events'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import type http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EntryContext } from 'react-router'
import handleRequest, { handleDataRequest } from '~/entry.server'
import { createHttpApp } from '../../server/http'
import { getRequest, TEST_LOAD_CONTEXT } from '../support/route-requests'
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

// Every page shows its signed-in customer's data (the header's name at least, and the page's own), so the
// documents and the client navigations' `.data` answers of a request with a session are never stored.
describe.each([
  '/',
  '/pay',
  '/subscriptions',
  '/subscriptions/some-service/end',
  '/complaints',
  '/account',
  '/services',
])('the page %s', (urlPath) => {
  // A HEAD request: the headers are decided before rendering, for HEAD and GET alike.
  const document = async (cookie?: string) =>
    handleRequest(
      new Request(getRequest(urlPath, cookie), { method: 'HEAD' }),
      200,
      new Headers(),
      {} as EntryContext,
      TEST_LOAD_CONTEXT,
    )
  const dataRequest = (cookie?: string) =>
    handleDataRequest(new Response('[]'), {
      request: getRequest(`${urlPath === '/' ? '/_root' : urlPath}.data`, cookie),
      params: {},
      context: TEST_LOAD_CONTEXT,
    } as never)

  it('is Cache-Control: private, no-store for a signed-in customer (document and .data)', async () => {
    const { cookie } = await signedInUser()
    expect((await document(cookie)).headers.get('Cache-Control')).toBe('private, no-store')
    expect((await dataRequest(cookie)).headers.get('Cache-Control')).toBe('private, no-store')
  })

  it("leaves a visitor's page as its route made it", async () => {
    expect((await document()).headers.get('Cache-Control')).toBeNull()
    expect((await dataRequest()).headers.get('Cache-Control')).toBeNull()
  })
})
