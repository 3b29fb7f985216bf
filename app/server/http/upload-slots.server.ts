import type { RequestHandler } from 'express'
import { readsItsOwnUpload } from './body-limit.server'

/**
 * Uploads under way at once from one client address: a PAN card or a complaint's image takes one;
 * a person needs one, a family on one connection two. Each is written to a temporary file as it
 * arrives, up to 10 MB of disk (docs/uploads.md, decision 058).
 */
export const UPLOADS_IN_FLIGHT_PER_ADDRESS_MAX = 2
/** …and from everyone: at most about 40 MB of uploads on disk at once, and 4 connections held by them. */
export const UPLOADS_IN_FLIGHT_MAX = 4
/** What a client refused for want of a slot is told to wait: an upload takes seconds. */
export const UPLOAD_SLOTS_RETRY_AFTER_S = 10
export const UPLOAD_SLOTS_BUSY_MESSAGE = `Too many uploads are under way right now. Try again in ${UPLOAD_SLOTS_RETRY_AFTER_S} seconds.`

let inFlight = 0
const inFlightByAddress = new Map<string, number>()

/** Uploads holding a slot now (for tests and the bench). */
export const uploadsInFlight = () => inFlight

function declaresBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0
}

/**
 * Gives each upload (the routes that read a large body themselves: `readsItsOwnUpload`) a slot
 * before its body is read, and answers 503 with `Retry-After` when its client address has
 * UPLOADS_IN_FLIGHT_PER_ADDRESS_MAX under way or everyone UPLOADS_IN_FLIGHT_MAX. The slot is given
 * back when the answer ends or the client goes away. The refused body is never read
 * (lingeringClose drops it, decision 042).
 */
export function uploadSlots(): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || !declaresBody(req.headers) || !readsItsOwnUpload(req))
      return next()
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown'
    const fromAddress = inFlightByAddress.get(address) ?? 0
    if (fromAddress >= UPLOADS_IN_FLIGHT_PER_ADDRESS_MAX || inFlight >= UPLOADS_IN_FLIGHT_MAX) {
      res.status(503).set('Retry-After', String(UPLOAD_SLOTS_RETRY_AFTER_S)).set('Cache-Control', 'no-store')
      if (req.path.startsWith('/api/')) res.json({ message: UPLOAD_SLOTS_BUSY_MESSAGE })
      else res.type('text/plain').send(UPLOAD_SLOTS_BUSY_MESSAGE)
      return
    }
    inFlight++
    inFlightByAddress.set(address, fromAddress + 1)
    let released = false
    res.once('close', () => {
      if (released) return
      released = true
      inFlight--
      const left = (inFlightByAddress.get(address) ?? 1) - 1
      if (left > 0) inFlightByAddress.set(address, left)
      else inFlightByAddress.delete(address)
    })
    next()
  }
}
