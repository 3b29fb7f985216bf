// A multipart body's parts as they arrive, without holding any part's content: the scanner hands
// on each piece of content as soon as it knows the piece is not the start of the next boundary, and
// keeps back at most a boundary's length of it (decision 058). @remix-run/multipart-parser keeps
// every part's content until the part ends, which for a 10 MB file is 10 MB of the process.

/** The start of a part, with its raw header block (valid only until the next event). */
export type PartStart = { kind: 'part'; header: Uint8Array }
/** A piece of the current part's content (valid only until the next event: copy it to keep it). */
export type PartData = { kind: 'data'; bytes: Uint8Array }
export type PartEnd = { kind: 'end' }
export type MultipartEvent = PartStart | PartData | PartEnd

/** The body is not the multipart message its Content-Type announced. */
export class MalformedMultipartError extends Error {
  override name = 'MalformedMultipartError'
}

const HEADER_END = Buffer.from('\r\n\r\n')
const DASH = 0x2d
const CR = 0x0d
const EMPTY = Buffer.alloc(0)

type ScannerState = 'opening' | 'after-boundary' | 'header' | 'content' | 'done'

export class MultipartScanner {
  readonly #openingBoundary: Buffer
  /** Between parts: the line break before the boundary belongs to the boundary (RFC 2046). */
  readonly #delimiter: Buffer
  readonly #maxHeaderBytes: number
  #state: ScannerState = 'opening'
  #carry: Buffer = EMPTY

  constructor(boundary: string, { maxHeaderBytes }: { maxHeaderBytes: number }) {
    this.#openingBoundary = Buffer.from(`--${boundary}`)
    this.#delimiter = Buffer.from(`\r\n--${boundary}`)
    this.#maxHeaderBytes = maxHeaderBytes
  }

  /** Whether the closing boundary has been read; what follows it (the epilogue) is ignored. */
  get done(): boolean {
    return this.#state === 'done'
  }

  /**
   * How many of the last bytes of `buffer` (from `from` on) are the start of a delimiter. Usually
   * none, so that the next chunk is scanned as it came, without copying it after a carried tail.
   */
  #partialDelimiterAtEnd(buffer: Buffer, from: number): number {
    const longest = Math.min(this.#delimiter.length - 1, buffer.length - from)
    for (let length = longest; length > 0; length--) {
      const start = buffer.length - length
      if (buffer[start] === CR && buffer.compare(this.#delimiter, 0, length, start) === 0) return length
    }
    return 0
  }

  /** The events `chunk` completes. Throws MalformedMultipartError on a body that is not multipart. */
  *write(chunk: Uint8Array): Generator<MultipartEvent> {
    if (this.#state === 'done') return
    const incoming = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    const buffer = this.#carry.length ? Buffer.concat([this.#carry, incoming]) : incoming
    this.#carry = EMPTY
    let at = 0
    scanning: while (true) {
      switch (this.#state) {
        case 'opening': {
          const boundary = this.#openingBoundary
          if (buffer.length - at < boundary.length) break scanning
          if (buffer.compare(boundary, 0, boundary.length, at, at + boundary.length) !== 0)
            throw new MalformedMultipartError('The body does not start with its boundary')
          at += boundary.length
          this.#state = 'after-boundary'
          break
        }
        case 'after-boundary': {
          if (buffer.length - at < 2) break scanning
          if (buffer[at] === DASH && buffer[at + 1] === DASH) {
            this.#state = 'done'
            return
          }
          // The line break that ends the boundary line.
          at += 2
          this.#state = 'header'
          break
        }
        case 'header': {
          const headerEnd = buffer.indexOf(HEADER_END, at)
          const headerBytes = (headerEnd === -1 ? buffer.length : headerEnd) - at
          if (headerBytes > this.#maxHeaderBytes) throw new MalformedMultipartError('A part header is too long')
          if (headerEnd === -1) break scanning
          yield { kind: 'part', header: buffer.subarray(at, headerEnd) }
          at = headerEnd + HEADER_END.length
          this.#state = 'content'
          break
        }
        case 'content': {
          const delimiterAt = buffer.indexOf(this.#delimiter, at)
          if (delimiterAt === -1) {
            // The last bytes may be the start of a delimiter split across chunks: keep them back.
            const safeEnd = buffer.length - this.#partialDelimiterAtEnd(buffer, at)
            if (safeEnd > at) yield { kind: 'data', bytes: buffer.subarray(at, safeEnd) }
            at = safeEnd
            break scanning
          }
          if (delimiterAt > at) yield { kind: 'data', bytes: buffer.subarray(at, delimiterAt) }
          yield { kind: 'end' }
          at = delimiterAt + this.#delimiter.length
          this.#state = 'after-boundary'
          break
        }
      }
    }
    // A copy, so that the chunk it came from can be freed.
    if (at < buffer.length) this.#carry = Buffer.from(buffer.subarray(at))
  }
}
