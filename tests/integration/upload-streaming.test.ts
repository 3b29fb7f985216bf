import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import * as accountCorrections from '~/routes/account.corrections'
import * as complaintsNew from '~/routes/complaints.new'
import * as details from '~/routes/details'
import { CORRECTION_PAN_CARD_FIELD } from '~/domain/kyc'
import { prisma } from '~/server/db.server'
import { stopJobs } from '~/server/jobs/queue.server'
import { PAN_CARD_MAX_BYTES, PAN_CARD_MESSAGES } from '~/domain/pan-card-image'
import { INCOMING_FILE_STALE_MS, receiveFile, RECEIVED_FILE_HEAD_BYTES } from '~/server/http/received-file.server'
import { readPanCardUpload } from '~/server/kyc/pan-card-image.server'
import {
  BOUNDARY,
  concatBytes,
  formRequest,
  jpegOfSize,
  multipartHead,
  multipartTail,
  PDF,
  rawRequest,
  streamedUploadRequest,
  TINY_PNG,
  UPLOAD_URL,
} from '../support/multipart'
import { routeArgs } from '../support/route-requests'
import { ASHA_RAO, uniquePan } from '../support/sample-customer'
import { signedInUser } from '../support/sessions'

// Trusted uploads go to a temporary file as they arrive, never whole into memory (issue 29 item 2,
// decision 058); a refused one leaves nothing behind.

// The routes' uploads arrive in UPLOADS_DIR, read when env.server.ts is first imported, before this file runs.
const uploadsDir = vi.hoisted(() => {
  const folder = `${process.env.TMPDIR ?? '/tmp'}/rs-upload-streaming-${process.pid}-${Date.now()}`
  process.env.UPLOADS_DIR = folder
  return folder
})

afterAll(async () => {
  await stopJobs()
  await rm(uploadsDir, { recursive: true, force: true })
})

const MB = 1024 * 1024
const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

let incomingFolder: string

beforeEach(async () => {
  incomingFolder = await mkdtemp(path.join(os.tmpdir(), 'rs-incoming-'))
})

afterEach(async () => {
  await rm(incomingFolder, { recursive: true, force: true })
})

const filesArrived = () => readdir(incomingFolder)

/** A whole multipart body with the PAN card part holding `fileBytes`. */
const panCardBody = (fileBytes: Uint8Array) =>
  concatBytes(
    multipartHead({ intent: 'upload' }, { name: 'pancard', filename: 'scan.jpg', type: 'image/jpeg' }),
    fileBytes,
    multipartTail(),
  )

describe('an accepted upload', () => {
  it('is written to disk while its body is still arriving, not held until it ends', async () => {
    const fileBytes = 4 * MB
    const head = multipartHead({ intent: 'upload' }, { name: 'pancard', filename: 'scan.jpg', type: 'image/jpeg' })
    const content = jpegOfSize(fileBytes)
    const pieces = [
      head,
      ...Array.from({ length: 64 }, (_, index) => content.subarray(index * 65_536, (index + 1) * 65_536)),
    ]
    let onDiskHalfWay = -1
    let pulls = 0
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          // Half the file sent: what has arrived so far should be on disk already.
          if (pulls === 33) {
            const [name] = await filesArrived()
            onDiskHalfWay = name ? (await stat(path.join(incomingFolder, name))).size : 0
          }
          const piece = pieces[pulls++]
          if (piece) controller.enqueue(piece)
          else if (pulls === pieces.length + 1) controller.enqueue(multipartTail())
          else controller.close()
        },
      },
      { highWaterMark: 0 },
    )
    const request = new Request(UPLOAD_URL, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      body,
      duplex: 'half',
    } as RequestInit)
    const upload = await readPanCardUpload(request, { incomingFolder })
    expect(upload).toMatchObject({ ok: true, size: fileBytes })
    // All but the few bytes kept back in case they start the boundary.
    expect(onDiskHalfWay).toBeGreaterThan(31 * 65_536)
    if (!upload.ok) return
    expect(path.dirname(upload.file.path)).toBe(incomingFolder)
    expect((await stat(upload.file.path)).mode & 0o777).toBe(0o600)
  })

  it('hands on its bytes intact, with their SHA-256 and ends for the checks by content', async () => {
    const content = jpegOfSize(3 * MB + 5)
    content.set([0xde, 0xad, 0xbe, 0xef], content.length - 4)
    const upload = await readPanCardUpload(rawRequest(panCardBody(content), { chunkBytes: 10_007 }), { incomingFolder })
    if (!upload.ok) throw new Error(upload.message)
    expect(upload.file.size).toBe(content.length)
    expect(upload.file.sha256).toBe(sha256Of(content))
    expect(sha256Of(await readFile(upload.file.path))).toBe(sha256Of(content))
    expect(upload.file.ends.subarray(0, RECEIVED_FILE_HEAD_BYTES)).toEqual(
      content.subarray(0, RECEIVED_FILE_HEAD_BYTES),
    )
    expect(upload.file.ends.subarray(-4)).toEqual(Uint8Array.from([0xde, 0xad, 0xbe, 0xef]))
    expect(upload.file.filename).toBe('scan.jpg')
  })

  it('keeps a file that holds the boundary without its line break, and one byte delivered at a time', async () => {
    const content = concatBytes(jpegOfSize(100), new TextEncoder().encode(`--${BOUNDARY}`), jpegOfSize(50))
    const upload = await readPanCardUpload(rawRequest(panCardBody(content), { chunkBytes: 1 }), { incomingFolder })
    if (!upload.ok) throw new Error(upload.message)
    expect(new Uint8Array(await readFile(upload.file.path))).toEqual(content)
  })
})

describe('a refused upload leaves no temporary file behind', () => {
  it('when the body is cut off in the middle of the file', async () => {
    const body = panCardBody(jpegOfSize(200_000))
    const upload = await readPanCardUpload(rawRequest(body.subarray(0, 150_000)), { incomingFolder })
    expect(upload).toMatchObject({ ok: false, status: 400, message: PAN_CARD_MESSAGES.unreadable })
    expect(await filesArrived()).toEqual([])
  })

  it('when the client goes away mid-upload', async () => {
    let pulls = 0
    const head = multipartHead({}, { name: 'pancard', filename: 'a.jpg', type: 'image/jpeg' })
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1
        if (pulls === 1) controller.enqueue(head)
        else if (pulls < 10) controller.enqueue(jpegOfSize(100_000))
        else controller.error(new Error('aborted'))
      },
    })
    const request = new Request(UPLOAD_URL, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      body,
      duplex: 'half',
    } as RequestInit)
    expect(await readPanCardUpload(request, { incomingFolder })).toMatchObject({ ok: false, status: 400 })
    expect(await filesArrived()).toEqual([])
  })

  it('when the file is over 10 MB', async () => {
    const { request } = streamedUploadRequest(PAN_CARD_MAX_BYTES + 1)
    expect(await readPanCardUpload(request, { incomingFolder })).toMatchObject({
      ok: false,
      status: 413,
      message: PAN_CARD_MESSAGES.tooLarge,
    })
    expect(await filesArrived()).toEqual([])
  })

  it('when the file is not an accepted image', async () => {
    const request = formRequest((form) => form.append('pancard', new File([PDF], 'pan.jpg', { type: 'image/jpeg' })))
    expect(await readPanCardUpload(request, { incomingFolder })).toMatchObject({
      ok: false,
      status: 415,
      message: PAN_CARD_MESSAGES.wrongType,
    })
    expect(await filesArrived()).toEqual([])
  })

  it('when the file is empty', async () => {
    const request = formRequest((form) => form.append('pancard', new File([], 'pan.jpg', { type: 'image/jpeg' })))
    expect(await readPanCardUpload(request, { incomingFolder })).toMatchObject({ ok: false, status: 400 })
    expect(await filesArrived()).toEqual([])
  })

  it('when the text fields are over their cap, after the file', async () => {
    const body = concatBytes(
      multipartHead({}, { name: 'pancard', filename: 'a.jpg', type: 'image/jpeg' }),
      jpegOfSize(1000),
      new TextEncoder().encode(`\r\n`),
      multipartHead({ note: 'x'.repeat(1 * MB) }),
      new TextEncoder().encode(`--${BOUNDARY}--\r\n`),
    )
    expect(await readPanCardUpload(rawRequest(body), { incomingFolder })).toMatchObject({ ok: false, status: 413 })
    expect(await filesArrived()).toEqual([])
  })
})

describe('the folder uploads arrive in', () => {
  it('is swept of what a stopped process left there an hour ago, once per process', async () => {
    const stale = path.join(incomingFolder, 'left-by-a-crash.upload')
    const recent = path.join(incomingFolder, 'still-arriving.upload')
    await writeFile(stale, 'old')
    await writeFile(recent, 'new')
    const anHourAgo = new Date(Date.now() - INCOMING_FILE_STALE_MS - 60_000)
    await utimes(stale, anHourAgo, anHourAgo)
    const receiver = await receiveFile(incomingFolder)
    await receiver.discard()
    expect(await filesArrived()).toEqual(['still-arriving.upload'])
  })
})

describe('the upload routes leave nothing where uploads arrive, whether or not they keep the file', () => {
  const routesIncoming = () => readdir(path.join(uploadsDir, '.incoming')).catch(() => [])

  function multipartRequest(
    url: string,
    fields: Record<string, string>,
    file: { field: string; bytes: Uint8Array },
    cookie: string,
  ) {
    const form = new FormData()
    for (const [name, value] of Object.entries(fields)) form.append(name, value)
    form.append(file.field, new File([file.bytes as Uint8Array<ArrayBuffer>], 'card.png', { type: 'image/png' }))
    return new Request(`http://localhost${url}`, { method: 'POST', body: form, headers: { Cookie: cookie } })
  }

  it("the wizard's PAN card step: moved into storage", async () => {
    const { userId, cookie } = await signedInUser({ details: { ...ASHA_RAO, pan: uniquePan() } })
    const answer = await details
      .action(routeArgs(multipartRequest('/details', {}, { field: 'pancard', bytes: TINY_PNG }, cookie)))
      .catch((thrown: unknown) => thrown)
    expect((answer as Response).status).toBe(302)
    const { panCardKey } = await prisma.user.findUniqueOrThrow({ where: { id: userId } })
    expect(new Uint8Array(await readFile(path.join(uploadsDir, panCardKey!)))).toEqual(TINY_PNG)
    expect(await routesIncoming()).toEqual([])
  })

  it('a complaint with an image but no text: not filed, not kept', async () => {
    const customer = await signedInUser()
    const reply = (await complaintsNew.action(
      routeArgs(
        multipartRequest(
          '/complaints/new',
          { intent: 'file', category: 'OTHER', text: '' },
          { field: 'attachment', bytes: TINY_PNG },
          customer.cookie,
        ),
        {},
        { clientIp: '10.9.0.1', cspNonce: '' },
      ),
    )) as unknown as { init: { status: number } }
    expect(reply.init.status).toBe(400)
    expect(await routesIncoming()).toEqual([])
  })

  it('a correction request with a new PAN card but no reason: not filed, not kept', async () => {
    const customer = await signedInUser({ completeProfile: true })
    const reply = (await accountCorrections.action(
      routeArgs(
        multipartRequest(
          '/account/corrections',
          { intent: 'correction', name: 'Asha R Rao' },
          { field: CORRECTION_PAN_CARD_FIELD, bytes: TINY_PNG },
          customer.cookie,
        ),
      ),
    )) as unknown as { init: { status: number } }
    expect(reply.init.status).toBe(400)
    expect(await routesIncoming()).toEqual([])
  })
})
