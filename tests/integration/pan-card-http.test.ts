import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createReadableStreamFromReadable } from '@react-router/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PAN_CARD_MESSAGES } from '~/domain/pan-card-image'
import { PAN_CARD_REQUEST_MAX_BYTES, readPanCardUpload, storePanCard } from '~/server/kyc/pan-card-image.server'
import { createFileSystemStorage } from '~/server/storage.server'
import { BOUNDARY, jpegOfSize, multipartHead, multipartTail, TINY_PNG } from '../support/multipart'

// Over a real socket, with the request built the way @react-router/express builds it, because a
// refusal that the browser never gets to see (a reset connection) would defeat the purpose.

const MB = 1024 * 1024
const CHUNK_BYTES = 64 * 1024

let sandbox: string
let server: http.Server
let origin: string
const bodyBytesSeenByServer: number[] = []

beforeAll(async () => {
  sandbox = await mkdtemp(path.join(os.tmpdir(), 'rs-pan-http-'))
  const storage = createFileSystemStorage(sandbox)
  server = http.createServer(async (req, res) => {
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: createReadableStreamFromReadable(req),
      duplex: 'half',
    } as RequestInit)
    const upload = await readPanCardUpload(request)
    bodyBytesSeenByServer.push(req.socket.bytesRead)
    if (!upload.ok) {
      res.writeHead(upload.status, { ...upload.headers, 'Content-Type': 'text/plain; charset=utf-8' })
      return res.end(upload.message)
    }
    const key = await storePanCard('user-1', upload, null, { storage })
    res.writeHead(201, { 'Content-Type': 'text/plain; charset=utf-8' })
    res.end(key)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  server.close()
  await rm(sandbox, { recursive: true, force: true })
})

/**
 * Streams a multipart upload of a `fileBytes`-byte JPEG like a browser does, and stops sending as
 * soon as the server answers (as browsers and curl do on an early response).
 */
function postUpload(fileBytes: number, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: string; connection?: string; sentBytes: number }>((resolve, reject) => {
    let answered = false
    let sentBytes = 0
    const client = http.request(`${origin}/api/v1/users/set-pancard`, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    })
    const responded = new Promise<void>((onResponse) => {
      client.on('response', async (response) => {
        answered = true
        onResponse()
        let text = ''
        for await (const chunk of response) text += chunk
        resolve({ status: response.statusCode ?? 0, text, connection: response.headers.connection, sentBytes })
        client.destroy()
      })
    })
    client.on('error', (error) => {
      if (!answered) reject(error)
    })
    void (async () => {
      const write = async (chunk: Uint8Array) => {
        if (answered) return
        sentBytes += chunk.length
        if (!client.write(chunk)) await Promise.race([once(client, 'drain'), responded])
      }
      await write(multipartHead({ intent: 'upload' }, { name: 'pancard', filename: 'scan.jpg', type: 'image/jpeg' }))
      for (let offset = 0; offset < fileBytes && !answered; offset += CHUNK_BYTES) {
        const size = Math.min(CHUNK_BYTES, fileBytes - offset)
        await write(offset === 0 ? jpegOfSize(size) : new Uint8Array(size).fill(0x5a))
      }
      await write(multipartTail())
      if (!answered) client.end()
    })().catch(() => {})
  })
}

describe('PAN card upload over HTTP', () => {
  it('answers an 11 MB upload with 413 and the message, having read little more than 10 MB', async () => {
    const answer = await postUpload(11 * MB)
    expect(answer).toMatchObject({ status: 413, text: PAN_CARD_MESSAGES.tooLarge, connection: 'close' })
    expect(bodyBytesSeenByServer.at(-1)).toBeLessThan(PAN_CARD_REQUEST_MAX_BYTES + 1 * MB)
  })

  it('answers at once when the declared Content-Length is over the cap', async () => {
    const fileBytes = 11 * MB
    const contentLength =
      multipartHead({ intent: 'upload' }, { name: 'pancard', filename: 'scan.jpg', type: 'image/jpeg' }).length +
      fileBytes +
      multipartTail().length
    const started = performance.now()
    const answer = await postUpload(fileBytes, { 'Content-Length': String(contentLength) })
    expect(answer).toMatchObject({ status: 413, text: PAN_CARD_MESSAGES.tooLarge, connection: 'close' })
    expect(bodyBytesSeenByServer.at(-1)).toBeLessThan(2 * MB)
    // Without `Connection: close` the client waits for the keep-alive timeout (5 s), then is reset.
    expect(performance.now() - started).toBeLessThan(3_000)
  })

  it('keeps serving after refusals: a 9.9 MB JPEG is stored', async () => {
    const started = performance.now()
    const answer = await postUpload(Math.floor(9.9 * MB))
    const elapsedMs = performance.now() - started
    expect(answer.status).toBe(201)
    expect(answer.text).toMatch(/^pan-cards\/user-1\/[0-9a-f]{32}\.jpg$/)
    console.info(`9.9 MB PAN card over HTTP on loopback: uploaded, parsed and stored in ${elapsedMs.toFixed(0)} ms`)
  })

  it('takes a FormData upload from fetch', async () => {
    const form = new FormData()
    form.append('pancard', new File([TINY_PNG], 'card.png', { type: 'image/png' }))
    const response = await fetch(`${origin}/api/v1/users/set-pancard`, { method: 'POST', body: form })
    expect(response.status).toBe(201)
    expect(await response.text()).toMatch(/\.png$/)
  })
})
