import { once } from 'node:events'
import type { Server } from 'node:http'
import net, { type AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lingeringClose } from '~/server/http/lingering-close.server'
import {
  UPLOAD_SLOTS_BUSY_MESSAGE,
  UPLOAD_SLOTS_RETRY_AFTER_S,
  UPLOADS_IN_FLIGHT_MAX,
  UPLOADS_IN_FLIGHT_PER_ADDRESS_MAX,
  uploadSlots,
  uploadsInFlight,
} from '~/server/http/upload-slots.server'
import { BOUNDARY, multipartHead } from '../support/multipart'

// Uploads held open by slow (or hostile) clients: each may hold up to 10 MB of the process, so
// only so many may be under way at once, per client address and in all.

const MB = 1024 * 1024
let server: Server
let port = 0
/** The uploads the route has started on, i.e. that got a slot. */
const started: string[] = []

beforeAll(async () => {
  const app = express()
  // The client address from X-Forwarded-For, as behind the store's trusted proxy.
  app.set('trust proxy', 'loopback')
  app.use(lingeringClose())
  app.use(uploadSlots())
  app.post(['/details', '/api/v1/users/set-pancard', '/complaints/new'], (req, res) => {
    started.push(String(req.headers['x-upload']))
    req.resume()
    req.on('end', () => res.status(200).type('text/plain').send('stored'))
  })
  server = app.listen(0, '127.0.0.1')
  await once(server, 'listening')
  port = (server.address() as AddressInfo).port
})
afterAll(() => {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(resolve))
})

type Held = { socket: net.Socket; answer: Promise<string>; finish: () => void }

/** Starts a 10 MB upload from `address`, sends its first bytes and holds the rest back. */
function holdUpload(name: string, address: string, path = '/details'): Held {
  const head = multipartHead({ intent: 'upload' }, { name: 'pancard', filename: 'scan.jpg', type: 'image/jpeg' })
  const socket = net.connect(port, '127.0.0.1')
  socket.on('error', () => {})
  const answer = new Promise<string>((resolve) => {
    let text = ''
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')))
    socket.on('close', () => resolve(text))
  })
  socket.write(
    [
      `POST ${path} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `X-Forwarded-For: ${address}`,
      `X-Upload: ${name}`,
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
      `Content-Length: ${head.byteLength + 10 * MB}`,
      'Connection: close',
      '',
      '',
    ].join('\r\n'),
  )
  socket.write(head)
  return { socket, answer, finish: () => socket.write(Buffer.alloc(10 * MB, 0x5a)) }
}

const statusOf = (answer: string) => Number(answer.split(' ')[1])
const headerOf = (answer: string, name: string) =>
  new RegExp(`^${name}: *(.*)$`, 'im').exec(answer.split('\r\n\r\n')[0] ?? '')?.[1]?.trim()

describe('uploads under way', () => {
  it('are capped per client address and in all: the one beyond gets 503 with Retry-After, and a slot frees when an upload ends', async () => {
    expect(UPLOADS_IN_FLIGHT_PER_ADDRESS_MAX).toBeLessThan(UPLOADS_IN_FLIGHT_MAX)
    const held: Held[] = []
    try {
      // One address fills its own share.
      for (let index = 0; index < UPLOADS_IN_FLIGHT_PER_ADDRESS_MAX; index++)
        held.push(holdUpload(`first-${index}`, '203.0.113.1'))
      await expect.poll(() => started.length).toBe(UPLOADS_IN_FLIGHT_PER_ADDRESS_MAX)
      const sameAddress = await holdUpload('first-over', '203.0.113.1').answer
      expect(statusOf(sameAddress)).toBe(503)
      expect(headerOf(sameAddress, 'Retry-After')).toBe(String(UPLOAD_SLOTS_RETRY_AFTER_S))
      expect(sameAddress).toContain(UPLOAD_SLOTS_BUSY_MESSAGE)

      // Other addresses fill the rest, each within its share.
      for (let index = UPLOADS_IN_FLIGHT_PER_ADDRESS_MAX; index < UPLOADS_IN_FLIGHT_MAX; index++)
        held.push(holdUpload(`other-${index}`, `203.0.113.${10 + index}`))
      await expect.poll(() => started.length).toBe(UPLOADS_IN_FLIGHT_MAX)
      const beyondTotal = await holdUpload('total-over', '198.51.100.7', '/api/v1/users/set-pancard').answer
      expect(statusOf(beyondTotal)).toBe(503)
      expect(headerOf(beyondTotal, 'Retry-After')).toBe(String(UPLOAD_SLOTS_RETRY_AFTER_S))
      expect(JSON.parse(beyondTotal.split('\r\n\r\n')[1]!)).toEqual({ message: UPLOAD_SLOTS_BUSY_MESSAGE })
      expect(started).not.toContain('first-over')
      expect(started).not.toContain('total-over')

      // An upload that ends gives its slot back.
      held[0]!.finish()
      expect(statusOf(await held[0]!.answer)).toBe(200)
      await expect.poll(uploadsInFlight).toBe(UPLOADS_IN_FLIGHT_MAX - 1)
      const next = holdUpload('after-a-slot-freed', '198.51.100.7')
      held.push(next)
      await expect.poll(() => started).toContain('after-a-slot-freed')
    } finally {
      for (const upload of held) upload.socket.destroy()
    }
  })

  it('gives the slots of uploads whose client went away back', async () => {
    const before = started.length
    const held = Array.from({ length: UPLOADS_IN_FLIGHT_MAX }, (_, index) =>
      holdUpload(`gone-${index}`, `192.0.2.${index}`),
    )
    await expect.poll(() => started.length).toBe(before + UPLOADS_IN_FLIGHT_MAX)
    expect(statusOf(await holdUpload('while-full', '192.0.2.100').answer)).toBe(503)
    for (const upload of held) upload.socket.destroy()
    await expect.poll(uploadsInFlight).toBe(0)
    const after = holdUpload('after-the-gone', '192.0.2.200')
    try {
      await expect.poll(() => started).toContain('after-the-gone')
    } finally {
      after.socket.destroy()
    }
  })
})
