import type pg from 'pg'

// A query's lines as the bytes PostgreSQL sends (decision 064): `COPY (query) TO STDOUT (FORMAT binary)` on a
// connection of the caller's, for a file whose lines the database writes (the audit pack's roll and log). A FETCH
// hands each row to JavaScript as a string in an array of its own, which the file then joins and encodes back to
// UTF-8; here each row's bytes are copied from the connection's buffer into a batch, and no string is made.
//
// pg runs a COPY through a "submittable" (what pg-cursor and pg-copy-streams are): an object whose `submit` sends the
// query and whose handlers receive the connection's messages. Each CopyData message of a binary COPY is one row
// (PostgreSQL sends one a row; the file's 19-byte header comes before the first): a field count (int16, 1 here),
// the field's length (int32; -1 for NULL) and its bytes. After the rows comes a message of the count -1.

/** The binary COPY file's header: signature (11 bytes), flags (int32), header extension length (int32, 0). */
const BINARY_COPY_HEADER_BYTES = 19

/** Bytes of lines handed on at a time, and batches waiting before the connection stops reading. */
export const COPY_LINES_BATCH_BYTES = 512 * 1024
const COPY_LINES_BATCHES_AHEAD = 2

export type LinesBatch = { bytes: Buffer; rows: number }

type CopyLinesOptions = {
  batchBytes?: number
  /** A reader that takes no batch for this long ends the query (and the caller's connection), as a stalled download. */
  stalledAfterMs: number
}

/**
 * The rows of `query` (one text column, never NULL, each row its line with its line end), `batchBytes` or so at
 * a time, in the query's order. `query` is SQL the caller wrote: COPY takes no parameters, so values go in as
 * literals (`client.escapeLiteral`). While batches wait to be taken, the connection stops reading and PostgreSQL
 * stops writing; ended early, the generator destroys the connection, the one way to stop a COPY half way.
 */
export async function* copyLines(
  client: pg.Client,
  query: string,
  { batchBytes = COPY_LINES_BATCH_BYTES, stalledAfterMs }: CopyLinesOptions,
): AsyncGenerator<LinesBatch> {
  const copy = new CopyOut(query, batchBytes, stalledAfterMs)
  client.query(copy as unknown as pg.QueryConfig)
  let finished = false
  try {
    for (;;) {
      const next = copy.take()
      if (next) yield next
      else if (copy.failure) throw copy.failure
      else if (copy.done) break
      else await copy.arrival()
    }
    finished = true
  } finally {
    // Taken no further (a download ended early, a failure): only closing the connection stops PostgreSQL's COPY.
    copy.stop(finished)
  }
}

/** The connection's socket, as pg's submittables see it. */
type Socket = { pause(): void; resume(): void; destroy(): void }

/** The submittable: rows copied into batches as they arrive, the socket paused while batches wait. */
class CopyOut {
  failure: Error | null = null
  done = false
  private ready: LinesBatch[] = []
  private batch: Buffer
  private filled = 0
  private rows = 0
  private headerSeen = false
  private socket: Socket | null = null
  private stalled: NodeJS.Timeout | null = null
  private wake: (() => void) | null = null

  constructor(
    private readonly query: string,
    private readonly batchBytes: number,
    private readonly stalledAfterMs: number,
  ) {
    this.batch = Buffer.allocUnsafe(batchBytes)
  }

  submit(connection: { query(text: string): void; stream: Socket }) {
    this.socket = connection.stream
    connection.query(`COPY (${this.query}) TO STDOUT (FORMAT binary)`)
  }

  handleCopyData({ chunk }: { chunk: Buffer }) {
    // The chunk is a view of the connection's buffer, reused for the next messages: its bytes are copied now.
    let offset = 0
    if (!this.headerSeen) {
      this.headerSeen = true
      offset = BINARY_COPY_HEADER_BYTES
    }
    if (chunk.length < offset + 6 || chunk.readInt16BE(offset) === -1) return
    const length = Math.max(chunk.readInt32BE(offset + 2), 0)
    if (this.filled + length > this.batch.length) {
      this.handOn()
      if (length > this.batch.length) this.batch = Buffer.allocUnsafe(length)
    }
    chunk.copy(this.batch, this.filled, offset + 6, offset + 6 + length)
    this.filled += length
    this.rows += 1
    if (this.filled >= this.batchBytes) this.handOn()
  }

  handleCommandComplete() {
    this.handOn()
  }

  handleReadyForQuery() {
    this.done = true
    this.notify()
  }

  handleError(error: Error) {
    this.failure ??= error
    this.notify()
  }

  handleEmptyQuery() {}

  take(): LinesBatch | undefined {
    const next = this.ready.shift()
    if (next && this.stalled && this.ready.length < COPY_LINES_BATCHES_AHEAD) {
      clearTimeout(this.stalled)
      this.stalled = null
      this.socket?.resume()
    }
    return next
  }

  arrival(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve))
  }

  stop(finished: boolean) {
    if (this.stalled) clearTimeout(this.stalled)
    this.stalled = null
    if (!finished && !this.done) this.socket?.destroy()
  }

  private handOn() {
    if (!this.rows) return
    this.ready.push({ bytes: this.batch.subarray(0, this.filled), rows: this.rows })
    this.batch = Buffer.allocUnsafe(this.batchBytes)
    this.filled = 0
    this.rows = 0
    if (this.ready.length >= COPY_LINES_BATCHES_AHEAD && this.socket && !this.stalled) {
      this.socket.pause()
      this.stalled = setTimeout(() => {
        this.handleError(new Error(`the reader took no lines for ${this.stalledAfterMs} ms`))
        this.socket?.destroy()
      }, this.stalledAfterMs)
    }
    this.notify()
  }

  private notify() {
    this.wake?.()
    this.wake = null
  }
}
