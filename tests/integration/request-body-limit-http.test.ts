import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createReadableStreamFromReadable } from '@react-router/node'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as setPanCardRoute from '~/routes/api.v1/users.set-pancard'
import * as webhookRoute from '~/routes/webhooks.razorpay'
import { PAN_CARD_FIELD_NAME } from '~/domain/pan-card-image'
import { JSON_BODY_TOO_LARGE_MESSAGE } from '~/server/api/requests.server'
import { prisma } from '~/server/db.server'
import { startGatewayPayment } from '~/server/payments/checkout.server'
import { sandboxGateway } from '~/demo/razorpay-sandbox.server'
import {
  FORM_BODY_MAX_BYTES,
  FORM_BODY_TOO_LARGE_MESSAGE,
  limitRequestBodies,
  withLimitedBodies,
} from '~/server/http/body-limit.server'
import { createSession } from '~/server/session.server'
import { serveAppDuringTests } from '../support/app-server'
import { BOUNDARY, jpegOfSize, multipartHead, multipartTail } from '../support/multipart'
import { createService, createUser } from '../support/payment-fixtures'

// Over a real socket through the Express app, because what matters is what the process reads: a
// refusal must come while the client is still sending, and close the connection.

const MB = 1024 * 1024
const CHUNK_BYTES = 64 * 1024
const ATTACK_BYTES = 200 * MB

const served = serveAppDuringTests()

/**
 * The limit in front of route modules the way React Router's Express adapter hands them a request
 * (the server bundle's React Router build is not available under Vitest).
 */
function serveRoutesBehindTheLimit() {
  const served = { baseUrl: '' }
  let server: http.Server
  const routes = express()
  routes.use(limitRequestBodies())
  const asFetchRequest = (req: express.Request) =>
    new Request(`${served.baseUrl}${req.originalUrl}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: createReadableStreamFromReadable(req),
      duplex: 'half',
    } as RequestInit)
  const answer = async (res: express.Response, response: Response) =>
    res
      .status(response.status)
      .set(Object.fromEntries(response.headers))
      .send(await response.text())
  const args = (request: Request) =>
    ({ request, params: {}, context: { clientIp: '127.0.0.1', cspNonce: '' } }) as never
  routes.post(
    '/echo',
    withLimitedBodies(
      async (req, res) => void (await answer(res, new Response(await asFetchRequest(req).arrayBuffer()))),
    ),
  )
  // The wizard's PAN card step posts to /details without JavaScript and to /details.data with it.
  routes.post(
    ['/details', '/details.data'],
    withLimitedBodies(
      async (req, res) =>
        void (await answer(res, new Response(String((await asFetchRequest(req).arrayBuffer()).byteLength)))),
    ),
  )
  routes.post(
    '/webhooks/razorpay',
    withLimitedBodies(
      async (req, res) => void (await answer(res, await webhookRoute.action(args(asFetchRequest(req))))),
    ),
  )
  routes.post(
    '/api/v1/users/set-pancard',
    withLimitedBodies(
      async (req, res) => void (await answer(res, await setPanCardRoute.action(args(asFetchRequest(req))))),
    ),
  )
  beforeAll(async () => {
    server = routes.listen(0)
    await once(server, 'listening')
    served.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))
  return served
}

type Answer = { status: number; text: string; connection?: string; contentType?: string; sentBytes: number }

/**
 * Sends `body` (or `totalBytes` of filler) to `path`, declaring its length or chunked, and stops
 * sending as soon as the server answers, as browsers and curl do on an early response.
 */
function post(
  baseUrl: string,
  path: string,
  options: { totalBytes?: number; body?: Uint8Array; chunked: boolean; headers?: Record<string, string> },
) {
  const body = options.body
  const totalBytes = body ? body.byteLength : options.totalBytes!
  return new Promise<Answer>((resolve, reject) => {
    let answered = false
    let sentBytes = 0
    const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', ...options.headers }
    if (!options.chunked) headers['Content-Length'] = String(totalBytes)
    const client = http.request(`${baseUrl}${path}`, { method: 'POST', headers, agent: false })
    client.on('response', async (response) => {
      answered = true
      let text = ''
      for await (const chunk of response) text += chunk
      resolve({
        status: response.statusCode ?? 0,
        text,
        connection: response.headers.connection,
        contentType: response.headers['content-type'],
        sentBytes,
      })
      client.destroy()
    })
    client.on('error', (error) => {
      if (!answered) reject(error)
    })
    const filler = Buffer.alloc(CHUNK_BYTES, 'a')
    const sendMore = () => {
      while (!answered && sentBytes < totalBytes) {
        const size = Math.min(CHUNK_BYTES, totalBytes - sentBytes)
        const chunk = body ? body.subarray(sentBytes, sentBytes + size) : filler.subarray(0, size)
        sentBytes += size
        if (!client.write(chunk)) return void client.once('drain', sendMore)
      }
      if (!answered) client.end()
    }
    sendMore()
  })
}

const FORM_ROUTES = ['/auth', '/payments/callback', '/webhooks/razorpay']

describe.each(FORM_ROUTES)('POST %s above the form cap', (path) => {
  it.each([
    ['with Content-Length', false],
    ['chunked, without Content-Length', true],
  ])(`is refused with 413 and Connection: close while the client is still sending (%s)`, async (_label, chunked) => {
    const answer = await post(served.baseUrl, path, { totalBytes: ATTACK_BYTES, chunked })
    expect(answer).toMatchObject({ status: 413, connection: 'close', text: FORM_BODY_TOO_LARGE_MESSAGE })
    expect(answer.contentType).toMatch(/^text\/plain/)
    expect(answer.sentBytes).toBeLessThan(16 * MB)
  })
})

describe('the JSON API', () => {
  it.each([
    ['with Content-Length', false],
    ['chunked, without Content-Length', true],
  ])('refuses an oversized body with 413 JSON and Connection: close (%s)', async (_label, chunked) => {
    const answer = await post(served.baseUrl, '/api/v1/users/set-details', {
      totalBytes: ATTACK_BYTES,
      chunked,
      headers: { 'Content-Type': 'application/json' },
    })
    expect(answer).toMatchObject({ status: 413, connection: 'close' })
    expect(JSON.parse(answer.text)).toEqual({ message: JSON_BODY_TOO_LARGE_MESSAGE })
    expect(answer.sentBytes).toBeLessThan(16 * MB)
  })
})

describe('a body within the cap', () => {
  const routes = serveRoutesBehindTheLimit()

  it.each([
    ['with Content-Length', false],
    ['chunked, without Content-Length', true],
  ])(`of exactly ${FORM_BODY_MAX_BYTES} bytes reaches the route byte for byte (%s)`, async (_label, chunked) => {
    const body = Buffer.alloc(FORM_BODY_MAX_BYTES)
    for (let index = 0; index < body.length; index++) body[index] = 97 + (index % 26)
    const answer = await post(routes.baseUrl, '/echo', { body, chunked })
    expect(answer.status).toBe(200)
    expect(answer.text).toBe(body.toString())
  })

  it('reaches the webhook when sent chunked: a signed capture is processed', async () => {
    const gateway = sandboxGateway()
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const started = await startGatewayPayment(userId, [equity.id], { gateway })
    const delivery = gateway.webhook('payment.captured', gateway.pay(started.orderId, 'captured').razorpay_payment_id)
    const answer = await post(routes.baseUrl, '/webhooks/razorpay', {
      body: new TextEncoder().encode(delivery.rawBody),
      chunked: true,
      headers: {
        'Content-Type': 'application/json',
        'X-Razorpay-Signature': delivery.signature,
        'X-Razorpay-Event-Id': delivery.eventId,
      },
    })
    expect(JSON.parse(answer.text)).toEqual({ outcome: 'processed' })
    expect(await prisma.subscription.count({ where: { userId } })).toBe(1)
  })

  it('leaves the wizard’s PAN card upload its own larger cap, posted by the page with or without JavaScript', async () => {
    const body = Buffer.concat([
      multipartHead({}, { name: PAN_CARD_FIELD_NAME, filename: 'card.jpg', type: 'image/jpeg' }),
      jpegOfSize(MB),
      multipartTail(),
    ])
    for (const path of ['/details', '/details.data']) {
      for (const chunked of [false, true]) {
        const answer = await post(routes.baseUrl, path, {
          body,
          chunked,
          headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
        })
        expect(answer.status, `${path}, chunked: ${chunked}`).toBe(200)
        expect(Number(answer.text), `${path}, chunked: ${chunked}`).toBe(body.byteLength)
      }
    }
  })

  it('leaves the PAN card upload its own larger cap: a 1 MB image is saved', async () => {
    const userId = await createUser()
    // The PAN card waits for an adult date of birth (the profile's first step).
    await prisma.user.update({ where: { id: userId }, data: { dateOfBirth: new Date('2001-05-17') } })
    const session = (await createSession(userId)).split(';')[0]!
    const body = Buffer.concat([
      multipartHead({}, { name: PAN_CARD_FIELD_NAME, filename: 'card.jpg', type: 'image/jpeg' }),
      jpegOfSize(MB),
      multipartTail(),
    ])
    for (const chunked of [false, true]) {
      const answer = await post(routes.baseUrl, '/api/v1/users/set-pancard', {
        body,
        chunked,
        headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, Cookie: session },
      })
      expect(answer.status).toBe(200)
      expect(JSON.parse(answer.text)).toMatchObject({ message: 'PAN card saved.' })
    }
  })
})
