import { Readable } from 'node:stream'
import type { Request as ExpressRequest, RequestHandler } from 'express'
import { JSON_BODY_MAX_BYTES, JSON_BODY_TOO_LARGE_MESSAGE } from '../api/requests.server'

/**
 * Every form post, the payment gateway's return POST and its webhooks stay far below this: the
 * longest page form (the profile details) is under 2 KiB, a Razorpay webhook a few KiB.
 */
export const FORM_BODY_MAX_BYTES = 64 * 1024

export const FORM_BODY_TOO_LARGE_MESSAGE = `The request is too large: at most ${FORM_BODY_MAX_BYTES / 1024} KiB.`

/**
 * The PAN card uploads read their multipart body themselves, as a stream with its own larger cap
 * (PAN_CARD_REQUEST_MAX_BYTES in pan-card-image.server.ts), and answer an oversized one with the
 * wizard's own message; so does the research form with its PDF (research/attachment.server.ts).
 */
export function readsItsOwnUpload(req: ExpressRequest): boolean {
  if (req.path === '/api/v1/users/set-pancard') return true
  // The wizard's step posts to /details, or to /details.data when the page's JavaScript sends it;
  // the complaint form (with its optional image) and the correction request (with an optional new
  // PAN card) likewise, and answer a long text with their own message.
  return (
    [
      '/details',
      '/details.data',
      '/complaints/new',
      '/complaints/new.data',
      '/account/corrections',
      '/account/corrections.data',
      // The analyst's research form, with its optional PDF (research/attachment.server.ts).
      '/admin/research/new',
      '/admin/research/new.data',
    ].includes(req.path) && /^multipart\/form-data\b/i.test(req.get('content-type') ?? '')
  )
}

function bodyMaxBytesOf(req: ExpressRequest): number {
  return req.path.startsWith('/api/') ? JSON_BODY_MAX_BYTES : FORM_BODY_MAX_BYTES
}

/** What React Router's adapter uses of the request as a stream (`createReadableStreamFromReadable`). */
const STREAM_MEMBERS = new Set<PropertyKey>([
  'on',
  'once',
  'off',
  'addListener',
  'removeListener',
  'pause',
  'resume',
  'destroy',
  'readable',
  'readableHighWaterMark',
  'pipe',
  'read',
  Symbol.asyncIterator,
])

/**
 * The request as React Router's adapter reads it, but with its body replayed from `body`: the
 * adapter reads the body from the request object itself, and the real one is already consumed.
 */
function withReplayedBody(req: ExpressRequest, body: Buffer): ExpressRequest {
  const replay = Readable.from(body.byteLength ? [body] : [])
  return new Proxy(req, {
    get(target, property) {
      const owner: object = STREAM_MEMBERS.has(property) ? replay : target
      const value: unknown = Reflect.get(owner, property, owner)
      return typeof value === 'function' ? value.bind(owner) : value
    },
  })
}

/**
 * Refuses a request body above its cap before any route reads it: 413 with `Connection: close`,
 * the rest read and thrown away for a bounded while by lingeringClose (decision 042), so that a
 * client still sending reads the answer, and never kept, so that a client cannot make the process
 * hold more than the cap per request. A declared Content-Length is trusted (Node's parser never reads past it); a body sent
 * without one (chunked) is read here up to the cap, counted as it arrives, and then handed on.
 */
export function limitRequestBodies(): RequestHandler {
  return (req, res, next) => {
    const chunked = req.headers['transfer-encoding'] !== undefined
    if ((!chunked && req.headers['content-length'] === undefined) || readsItsOwnUpload(req)) return next()

    const maxBytes = bodyMaxBytesOf(req)
    const refuse = () => {
      res.status(413).set('Connection', 'close')
      if (req.path.startsWith('/api/')) res.json({ message: JSON_BODY_TOO_LARGE_MESSAGE })
      else res.type('text/plain').send(FORM_BODY_TOO_LARGE_MESSAGE)
    }
    if (!chunked) return Number(req.headers['content-length']) > maxBytes ? refuse() : next()

    const chunks: Buffer[] = []
    let bytesRead = 0
    const stopReading = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
    }
    const onData = (chunk: Buffer) => {
      bytesRead += chunk.byteLength
      if (bytesRead <= maxBytes) return void chunks.push(chunk)
      stopReading()
      req.pause()
      chunks.length = 0
      refuse()
    }
    const onEnd = () => {
      stopReading()
      // Express hands the same `req` on: withLimitedBodies swaps in the one that replays the body.
      replacedRequests.set(req, withReplayedBody(req, Buffer.concat(chunks)))
      next()
    }
    // The client gave up half-way: there is nobody to answer.
    const onError = () => stopReading()
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
  }
}

const replacedRequests = new WeakMap<ExpressRequest, ExpressRequest>()

/**
 * Wraps the handler that reads request bodies (React Router's) so that a body read ahead by
 * limitRequestBodies reaches it.
 */
export function withLimitedBodies(handler: RequestHandler): RequestHandler {
  return (req, res, next) => handler(replacedRequests.get(req) ?? req, res, next)
}
