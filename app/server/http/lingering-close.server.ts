import type { IncomingMessage } from 'node:http'
import { Socket, type ConnectOpts, type SocketConstructorOpts } from 'node:net'
import type { RequestHandler } from 'express'

/**
 * After answering a request whose body is still arriving, the server reads on and throws away at
 * most this much of it (decision 042): an 11 MB upload refused after 64 KiB is read to its end, a
 * 1 GB one is cut off.
 */
export const LINGER_MAX_BYTES = 32 * 1024 * 1024
/** …and for at most this long after the answer began. */
export const LINGER_MAX_MS = 5_000

/** Where a lingering read puts what it throws away: one buffer for every socket, never read. */
const DISCARDED_BYTES_BUFFER = Buffer.allocUnsafe(64 * 1024)

/**
 * The keys under which a net.Socket keeps the buffer it reads into and the function it hands each
 * read to, when it was made with the `onread` option: Node takes that option only when it makes a
 * socket, and an accepted one was made by the server. Found on a socket made with the option (they
 * are Node's own symbols, not exported); null when this Node keeps them otherwise.
 */
const userBufferKeys = (() => {
  // Node's documentation lists `onread` among the constructor's options; @types/node only among connect's.
  const options: SocketConstructorOpts & ConnectOpts = { onread: { buffer: Buffer.alloc(1), callback: () => true } }
  const probe = new Socket(options)
  const byName = new Map(Object.getOwnPropertySymbols(probe).map((key) => [key.description, key]))
  probe.destroy()
  const buffer = byName.get('kBuffer')
  const callback = byName.get('kBufferCb')
  const generator = byName.get('kBufferGen')
  return buffer && callback && generator ? { buffer, callback, generator } : null
})()

type StreamHandle = { useUserBuffer?: (buffer: Uint8Array) => void }

/**
 * From now on, reads `socket` into DISCARDED_BYTES_BUFFER and tells `onBytes` how much arrived, as
 * a socket made with `onread` does, instead of handing each read to the HTTP parser, which copies
 * it into a new Buffer that lives until V8 collects it (decision 062). False when this Node offers
 * no way to: the caller reads on through the request instead.
 */
function readIntoDiscardBuffer(socket: Socket, onBytes: (byteCount: number) => void): boolean {
  const handle = (socket as unknown as { _handle?: StreamHandle | null })._handle
  if (!userBufferKeys || typeof handle?.useUserBuffer !== 'function') return false
  Object.assign(socket, {
    [userBufferKeys.buffer]: DISCARDED_BYTES_BUFFER,
    [userBufferKeys.callback]: (byteCount: number) => void onBytes(byteCount),
    [userBufferKeys.generator]: null,
  })
  handle.useUserBuffer(DISCARDED_BYTES_BUFFER)
  socket.resume()
  return true
}

/** True while the request has a body and not all of it has arrived. */
function bodyStillArriving(req: IncomingMessage): boolean {
  const declaresBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0
  return declaresBody && !req.complete
}

/**
 * Throws away the rest of `req`'s body as it arrives, and makes the close that Node does after the
 * answer (`Connection: close`) wait until the body has ended or the budget is spent. Closing a
 * socket with unread data makes the kernel send a reset instead of a normal close, and a client
 * still sending then loses the answer that was already on its way (`write EPIPE`).
 */
function lingerOverTheRestOf(req: IncomingMessage): void {
  const socket: Socket = req.socket
  const destroySoon = socket.destroySoon.bind(socket)
  let bodyEnded = false
  let answerSent = false
  let discardedBytes = 0

  const giveUp = () => {
    clearTimeout(budgetTimer)
    socket.destroy()
  }
  const closeNow = () => {
    clearTimeout(budgetTimer)
    // What is still in this process's write buffer is the answer: let it reach the kernel first.
    if (socket.writableFinished || socket.destroyed) socket.destroy()
    else socket.once('finish', () => socket.destroy())
  }
  const budgetTimer = setTimeout(giveUp, LINGER_MAX_MS)
  budgetTimer.unref()
  socket.once('close', () => clearTimeout(budgetTimer))

  const countDiscarded = (byteCount: number) => {
    discardedBytes += byteCount
    if (discardedBytes > LINGER_MAX_BYTES) giveUp()
  }

  // Node calls this once the answer is written (`Connection: close`): our FIN now, the close when
  // the body has ended or the budget is spent. From here on no one reads the body: it is read into
  // one buffer and counted, and the client's own close (it has our answer and FIN) ends it.
  socket.destroySoon = () => {
    answerSent = true
    if (bodyEnded) return destroySoon()
    if (socket.writable) socket.end()
    if (readIntoDiscardBuffer(socket, countDiscarded)) socket.once('end', closeNow)
  }

  // Whoever was reading the body (React Router's request stream, our own limits) is done with it:
  // without its listener, the bytes are counted and dropped instead of queued in memory.
  req.removeAllListeners('data')
  req.on('data', (chunk: Buffer) => countDiscarded(chunk.byteLength))
  req.once('end', () => {
    bodyEnded = true
    if (answerSent) closeNow()
    else clearTimeout(budgetTimer)
  })
  req.resume()
}

/**
 * The one place where an early answer is made safe to read (decision 042): any answer that starts
 * while the request body is still arriving (a 413 above a cap, an upload refused before its end, a
 * redirect or 403 before the body is read) closes the connection with `Connection: close`, after a
 * bounded lingering read of the rest (LINGER_MAX_BYTES, LINGER_MAX_MS), like nginx's
 * `lingering_close`.
 */
export function lingeringClose(): RequestHandler {
  return (req, res, next) => {
    const writeHead = res.writeHead
    let lingering = false
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof res.writeHead>) {
      if (!lingering && bodyStillArriving(req)) {
        lingering = true
        this.setHeader('Connection', 'close')
        lingerOverTheRestOf(req)
      }
      return writeHead.apply(this, args)
    } as typeof res.writeHead
    next()
  }
}
