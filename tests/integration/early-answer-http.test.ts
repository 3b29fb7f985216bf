import { once } from 'node:events'
import type { Server } from 'node:http'
import net, { type AddressInfo } from 'node:net'
import { createReadableStreamFromReadable } from '@react-router/node'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as setPanCardRoute from '~/routes/api.v1/users.set-pancard'
import { PAN_CARD_FIELD_NAME, PAN_CARD_MESSAGES } from '~/domain/pan-card-image'
import { prisma } from '~/server/db.server'
import { FORM_BODY_TOO_LARGE_MESSAGE, limitRequestBodies, withLimitedBodies } from '~/server/http/body-limit.server'
import { LINGER_MAX_BYTES, lingeringClose } from '~/server/http/lingering-close.server'
import { createSession } from '~/server/session.server'
import { serveAppDuringTests } from '../support/app-server'
import { BOUNDARY, jpegOfSize, multipartHead, multipartTail } from '../support/multipart'
import { createUser } from '../support/payment-fixtures'

// A client that writes its whole body before reading (Playwright's request client, curl, most
// HTTP libraries) must still read an early refusal. Closing a socket with unread data makes the
// kernel send a reset, and the client then loses the answer to `write EPIPE` or `ECONNRESET`.
// One try loses it only now and then, so each case is tried many times.

const MB = 1024 * 1024
const TRIES = 10
const PAN_CARD_TRIES = 4

type Outcome = { status: number; text: string; connection?: string } | { error: string }

/**
 * Sends the request line, the headers and all of `body` before reading anything (it does not read
 * while it writes, as simple HTTP clients do and as any client does whose event loop is busy), then
 * reads the answer up to the server's end of the connection.
 */
async function sendWholeBody(
  url: string,
  body: Buffer,
  { headers = {}, chunked = false }: { headers?: Record<string, string>; chunked?: boolean } = {},
): Promise<Outcome> {
  const { hostname, port, pathname } = new URL(url)
  const socket = net.connect(Number(port), hostname)
  socket.pause()
  const received: Buffer[] = []
  socket.on('data', (chunk: Buffer) => received.push(chunk))
  const ended = new Promise<void>((resolve, reject) => {
    socket.once('end', resolve)
    socket.once('error', reject)
  })
  ended.catch(() => {})
  const head = [
    `POST ${pathname} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${body.byteLength}`,
  ].join('\r\n')
  // Written piece by piece, not copied into one buffer: the memory test counts every Buffer in this process.
  const pieces = chunked
    ? [Buffer.from(`${head}\r\n\r\n${body.byteLength.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]
    : [Buffer.from(`${head}\r\n\r\n`), body]
  try {
    await Promise.all(
      pieces.map(
        (piece) =>
          new Promise<void>((resolve, reject) => socket.write(piece, (error) => (error ? reject(error) : resolve()))),
      ),
    )
    socket.resume()
    await ended
  } catch (error) {
    return { error: (error as NodeJS.ErrnoException).code ?? String(error) }
  } finally {
    socket.destroy()
  }
  const answer = Buffer.concat(received).toString('latin1')
  const [statusAndHeaders = '', text = ''] = answer.split('\r\n\r\n', 2)
  const [statusLine = '', ...headerLines] = statusAndHeaders.split('\r\n')
  const connection = headerLines.find((line) => /^connection:/i.test(line))?.replace(/^connection:\s*/i, '')
  return { status: Number(statusLine.split(' ')[1]), text, connection }
}

async function tryMany(send: () => Promise<Outcome>, tries = TRIES): Promise<Outcome[]> {
  const outcomes: Outcome[] = []
  for (let attempt = 0; attempt < tries; attempt++) outcomes.push(await send())
  return outcomes
}

describe('an oversized form post refused before it is read', () => {
  const served = serveAppDuringTests()
  const body = Buffer.alloc(11 * MB, 'a')
  const headers = { 'Content-Type': 'application/x-www-form-urlencoded' }

  it.each([
    ['with Content-Length', false],
    ['chunked', true],
  ])('always reaches a client that sends it all before reading (%s)', async (_label, chunked) => {
    const outcomes = await tryMany(() => sendWholeBody(`${served.baseUrl}/auth`, body, { headers, chunked }))
    expect(outcomes).toEqual(
      Array.from({ length: TRIES }, () => ({ status: 413, text: FORM_BODY_TOO_LARGE_MESSAGE, connection: 'close' })),
    )
  })

  it('reads on for its budget at most, then cuts off a body that goes on', async () => {
    const attackBytes = LINGER_MAX_BYTES * 4
    const { hostname, port } = new URL(served.baseUrl)
    const socket = net.connect(Number(port), hostname)
    socket.pause()
    socket.on('error', () => {})
    let sentBytes = 0
    const write = (chunk: Buffer) =>
      new Promise<boolean>((resolve) => {
        if (socket.destroyed) return resolve(false)
        const onClose = () => resolve(false)
        socket.once('close', onClose)
        socket.write(chunk, (error) => {
          socket.off('close', onClose)
          resolve(!error)
        })
      })
    await write(
      Buffer.from(
        `POST /auth HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: ${headers['Content-Type']}\r\n` +
          `Content-Length: ${attackBytes}\r\n\r\n`,
      ),
    )
    const filler = Buffer.alloc(MB, 'a')
    while (sentBytes < attackBytes && (await write(filler))) sentBytes += filler.byteLength
    socket.destroy()
    // The server went on reading past its 64 KiB cap (the answer could reach the client), and
    // stopped after its budget: what the kernels' buffers took on top of it is a few MB.
    expect(sentBytes).toBeGreaterThan(LINGER_MAX_BYTES)
    expect(sentBytes).toBeLessThan(LINGER_MAX_BYTES + 16 * MB)
  })
})

describe('a PAN card upload refused while it is still arriving', () => {
  const served = { baseUrl: '' }
  let server: Server
  let cookie: string

  beforeAll(async () => {
    const routes = express()
    routes.use(lingeringClose())
    routes.use(limitRequestBodies())
    // The route module the way React Router's Express adapter hands it a request.
    routes.post(
      '/api/v1/users/set-pancard',
      withLimitedBodies(async (req, res) => {
        const request = new Request(`${served.baseUrl}${req.originalUrl}`, {
          method: req.method,
          headers: req.headers as Record<string, string>,
          body: createReadableStreamFromReadable(req),
          duplex: 'half',
        } as RequestInit)
        const response = await setPanCardRoute.action({
          request,
          params: {},
          context: { clientIp: '127.0.0.1', cspNonce: '' },
        } as never)
        res
          .status(response.status)
          .set(Object.fromEntries(response.headers))
          .send(await response.text())
      }),
    )
    server = routes.listen(0, '127.0.0.1')
    await once(server, 'listening')
    served.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const userId = await createUser()
    await prisma.user.update({ where: { id: userId }, data: { dateOfBirth: new Date('2001-05-17') } })
    cookie = (await createSession(userId)).split(';')[0]!
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it.each([
    ['with Content-Length', false],
    ['chunked', true],
  ])('always reaches a client that sends it all before reading: 413 (%s)', async (_label, chunked) => {
    const body = Buffer.concat([
      multipartHead({}, { name: PAN_CARD_FIELD_NAME, filename: 'card.jpg', type: 'image/jpeg' }),
      jpegOfSize(20 * MB),
      multipartTail(),
    ])
    const headers = { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, Cookie: cookie }
    // Each try reads up to 10 MiB through the multipart parser: fewer tries, each lost without the fix.
    const outcomes = await tryMany(
      () => sendWholeBody(`${served.baseUrl}/api/v1/users/set-pancard`, body, { headers, chunked }),
      PAN_CARD_TRIES,
    )
    expect(outcomes).toEqual(
      Array.from({ length: PAN_CARD_TRIES }, () => ({
        status: 413,
        text: JSON.stringify({ message: PAN_CARD_MESSAGES.tooLarge }),
        connection: 'close',
      })),
    )
  })
})

describe('the rest of a refused body', () => {
  // Sixteen clients each send 8 MiB that the server refuses at once and reads on only to throw away.
  const CLIENTS = 16
  const body = Buffer.alloc(8 * MB, 'z')
  const served = { baseUrl: '' }
  let server: Server

  beforeAll(async () => {
    const routes = express()
    routes.use(lingeringClose())
    routes.post('/upload', (_req, res) => void res.status(503).type('text/plain').send('busy'))
    server = routes.listen(0, '127.0.0.1')
    await once(server, 'listening')
    served.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it('is thrown away without a Buffer per read: what V8 has not collected yet stays small', async () => {
    // Read through the HTTP parser, each read is a new Buffer, freed only when V8 collects it: 60
    // refused 10 MB uploads held 30 to 70 MB of them (decision 062). Read into one buffer, nothing.
    const before = process.memoryUsage().arrayBuffers
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 1)
    const outcomes = await Promise.all(
      Array.from({ length: CLIENTS }, () => sendWholeBody(`${served.baseUrl}/upload`, body)),
    )
    clearInterval(sampler)
    peak = Math.max(peak, process.memoryUsage().arrayBuffers)
    expect(outcomes).toEqual(
      Array.from({ length: CLIENTS }, () => ({ status: 503, text: 'busy', connection: 'close' })),
    )
    expect((peak - before) / MB).toBeLessThan(8)
  })
})
