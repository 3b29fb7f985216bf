import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpApp } from '../../server/http'

// DNS rebinding (docs/architecture.md, The demo store on loopback): a page on attacker.example whose name
// comes to point at 127.0.0.1 would reach the demo store, and its outbox of sign-in codes, from the
// visitor's browser; such a request still says `Host: attacker.example`.

function serve(loopbackHostsOnly: boolean) {
  const page: express.RequestHandler = (_req, res) => void res.type('html').send('<p>page</p>')
  return createHttpApp({
    app: page,
    assets: (_req, _res, next) => next(),
    production: true,
    trustProxy: 'loopback',
    loopbackHostsOnly,
  }).listen(0, '127.0.0.1')
}

/** A GET whose Host header is `host` (fetch does not let a caller choose it). */
function getWithHost(server: http.Server, host: string, path = '/services') {
  const { port } = server.address() as AddressInfo
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, headers: { Host: host } }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode!, body }))
    })
    request.on('error', reject)
  })
}

describe('the demo store listening on loopback', () => {
  let server: http.Server
  beforeAll(async () => {
    server = serve(true)
    await once(server, 'listening')
  })
  afterAll(() => void server.close())

  it.each(['localhost', 'localhost:3000', 'LOCALHOST:3211', '127.0.0.1', '127.0.0.1:3000', '[::1]', '[::1]:3000'])(
    'answers Host: %s',
    async (host) => {
      expect(await getWithHost(server, host)).toEqual({ status: 200, body: '<p>page</p>' })
    },
  )

  it.each([
    'attacker.example',
    'attacker.example:3000',
    'localhost.attacker.example',
    '127.0.0.1.nip.io:3000',
    '192.168.1.20:3000',
  ])('refuses Host: %s with 421 and a short message, static files and the outbox too', async (host) => {
    for (const path of ['/services', '/dev/outbox', '/favicon.ico']) {
      const answer = await getWithHost(server, host, path)
      expect(answer.status).toBe(421)
      expect(answer.body).toMatch(/^This demo store answers only at localhost, 127\.0\.0\.1 or \[::1\]\./)
    }
  })
})

describe('a store that does not listen on loopback in demo mode', () => {
  let server: http.Server
  beforeAll(async () => {
    server = serve(false)
    await once(server, 'listening')
  })
  afterAll(() => void server.close())

  it('answers any Host (a deployment is reached by its own name)', async () => {
    expect((await getWithHost(server, 'store.example.in')).status).toBe(200)
  })
})
