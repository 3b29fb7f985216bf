// React Router's writer (writeReadableStreamToWritable in @react-router/node 7) races each read of a response body
// against one promise that settles only when the response fails, and every race stays attached to that promise, so
// each chunk read stays reachable until the response ends: a 290 MB CSV download held 290 MB of the store's memory.
// A chunk marked here is copied as it is written and its own memory released at once (its buffer detached), so
// what those races keep is an empty view. Only buffers their maker owns whole may be marked.

/** Shared by name: the app's bundle and the server around it each load their own copy of this module. */
const RELEASABLE = Symbol.for('research-store.releasable-chunk')

type Marked = Uint8Array & { [RELEASABLE]?: true }

/** Marks `chunk`, whose ArrayBuffer it alone uses and nothing else will read once it is written. */
export function releasableChunk(chunk: Uint8Array): Uint8Array {
  ;(chunk as Marked)[RELEASABLE] = true
  return chunk
}

/** What to write for `chunk`: a marked chunk's copy, its own buffer detached; anything else as it is. */
export function copyAndRelease<T>(chunk: T): T | Buffer {
  if (!(chunk instanceof Uint8Array) || (chunk as Marked)[RELEASABLE] !== true) return chunk
  const copy = Buffer.from(chunk)
  structuredClone(chunk.buffer, { transfer: [chunk.buffer as ArrayBuffer] })
  return copy
}
