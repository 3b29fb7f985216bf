// PAN card uploads held open: HELD_UPLOADS multipart POSTs to /details (the wizard's step 2) by a
// signed-in customer, each from a client address of its own, each declaring a 10 MB image and sending
// all of it but its last KiB, then holding the connection. While they are held the store process's
// resident memory is sampled (from /proc; Linux only) and /healthz is asked again and again. The
// upload slots (app/server/http/upload-slots.server.ts) should turn all but a few away before reading
// them, and those few must not hold their 10 MB in memory (issue 29 item 2).
import http from 'node:http'
import { BROWSER_USER_AGENT } from './browser'
import { timeHealthz, watchStoreDuring, type StoreUnderAttack } from './large-bodies'
import { customerAt, storeFunctions } from './lighthouse-pages'
import { PAN_CARD_FIELD_NAME, PAN_CARD_MAX_BYTES } from '../app/domain/pan-card-image'
import { PNG_1X1 } from '../tests/support/sample-customer'

export const HELD_UPLOADS = 64
/** How long the uploads are held once every one of them is under way or answered. */
export const HOLD_MS = 10_000
const UNSENT_TAIL_BYTES = 1024
const CHUNK_BYTES = 64 * 1024
const BOUNDARY = '----bench-held-upload'

export type HeldUploadsFigures = StoreUnderAttack & {
  uploads: number
  imageBytes: number
  holdMs: number
  /** Answers before the hold ended, by status; `held` counts the uploads still unanswered. */
  statuses: Record<string, number>
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The multipart body's head (the file part's headers and the PNG signature) and its tail. */
function multipartParts(imageBytes: number) {
  const head = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${PAN_CARD_FIELD_NAME}"; filename="card.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    ),
    PNG_1X1.subarray(0, 8),
  ])
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`)
  return { head, tail, length: head.length + (imageBytes - 8) + tail.length }
}

type HeldUpload = { settled: Promise<void>; status: () => number | undefined; release: () => void }

/** Starts one upload: sends all but the last UNSENT_TAIL_BYTES, then waits for an answer or its release. */
function holdUpload(origin: string, cookie: string, address: string, imageBytes: number): HeldUpload {
  const { head, length } = multipartParts(imageBytes)
  let status: number | undefined
  const client = http.request(`${origin}/details`, {
    method: 'POST',
    agent: false,
    headers: {
      'User-Agent': BROWSER_USER_AGENT,
      'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
      'Content-Length': String(length),
      Cookie: cookie,
      Origin: origin,
      'X-Forwarded-For': address,
    },
  })
  const settled = new Promise<void>((resolve) => {
    client.on('response', (response) => {
      status = response.statusCode
      response.resume()
      resolve()
    })
    client.on('error', () => resolve())
    client.on('close', () => resolve())
    const filler = Buffer.alloc(CHUNK_BYTES, 0x5a)
    let sent = 0
    const toSend = length - UNSENT_TAIL_BYTES - head.length
    client.write(head)
    const sendMore = () => {
      while (status === undefined && sent < toSend) {
        const size = Math.min(CHUNK_BYTES, toSend - sent)
        sent += size
        if (!client.write(filler.subarray(0, size))) return void client.once('drain', sendMore)
      }
      if (sent >= toSend) resolve()
    }
    sendMore()
  })
  return { settled, status: () => status, release: () => client.destroy() }
}

export async function measureHeldUploads(origin: string, storePid: number): Promise<HeldUploadsFigures> {
  const app = await storeFunctions()
  const { cookie } = await customerAt(app, 'pan-card')
  await app.db.prisma.$disconnect()

  const { attack: statuses, ...watched } = await watchStoreDuring(
    origin,
    storePid,
    () => timeHealthz(origin),
    async () => {
      // Benchmarking addresses (198.18.0.0/15), one per upload.
      const uploads = Array.from({ length: HELD_UPLOADS }, (_, index) =>
        holdUpload(origin, cookie, `198.19.${Math.floor(index / 250)}.${(index % 250) + 1}`, PAN_CARD_MAX_BYTES),
      )
      await Promise.all(uploads.map((upload) => upload.settled))
      await delay(HOLD_MS)
      const answers: Record<string, number> = {}
      for (const upload of uploads) {
        const key = String(upload.status() ?? 'held')
        answers[key] = (answers[key] ?? 0) + 1
        upload.release()
      }
      return answers
    },
  )
  return { uploads: HELD_UPLOADS, imageBytes: PAN_CARD_MAX_BYTES, holdMs: HOLD_MS, ...watched, statuses }
}
