import { getMultipartBoundary, MultipartPart } from '@remix-run/multipart-parser'
import { MultipartScanner } from './multipart-scanner.server'
import { discardReceivedFile, receiveFile, type FileReceiver, type ReceivedFile } from './received-file.server'

// A form with one file, read as a stream (docs/uploads.md): the PAN card, a complaint's image and a
// research item's PDF. The file goes to a temporary file as it arrives, never whole into memory
// (decision 058); each caller checks its content itself (ReceivedFile.ends) and stores or discards it.

export type UploadLimits = {
  /** The file's own cap. */
  fileMaxBytes: number
  /** Room for the form's other fields and the multipart headers next to the file. */
  fieldsMaxBytes: number
  /** More parts than this is not our form. */
  maxParts: number
}

export type UploadMessages = { tooLarge: string; empty: string; unreadable: string }

export type UploadRefusal = {
  ok: false
  status: 400 | 413 | 415
  message: string
  /** The text fields read before the refusal, so the page can show what was typed. */
  fields: FormData
  /**
   * Headers the refusal's response must carry: `Connection: close` when the body was left unread,
   * so that the server closes the connection instead of waiting for the rest of the upload (the
   * browser would show our message only after the keep-alive timeout, about 5 s). The server's
   * lingeringClose reads and drops the rest for a bounded while first (decision 042).
   */
  headers: Record<string, string>
}

/** An accepted read: `file` is the caller's to store (FileStorage.putFile) or discard (discardReceivedFile). */
export type UploadRead = { ok: true; file: ReceivedFile | null; fields: FormData } | UploadRefusal

const PART_HEADER_MAX_BYTES = 8 * 1024

/** The file or the fields are over their caps. */
class UploadTooLargeError extends Error {}
/** Writing the temporary file failed: the server's fault, not the client's, so it is thrown on. */
class IncomingFileError extends Error {}

const onDisk = <T>(work: Promise<T>): Promise<T> =>
  work.catch((error: unknown) => {
    throw new IncomingFileError('The upload could not be written to disk', { cause: error })
  })

const decodeUtf8 = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(bytes)

/** A refusal of a request whose body was read to its end (nothing left to drop). */
export function refusalAfterReading(status: UploadRefusal['status'], message: string, fields: FormData): UploadRefusal {
  return { ok: false, status, message, fields, headers: {} }
}

/** What is done with the content of the part being read. */
type CurrentPart =
  | { kind: 'file'; receiver: FileReceiver; filename: string }
  | { kind: 'text'; name: string; chunks: Buffer[] }
  | { kind: 'skipped' }

/**
 * Reads a multipart/form-data request with at most one file (in `fieldName`) as a stream: at most
 * `fileMaxBytes + fieldsMaxBytes` of the body are read, the file's content goes to a temporary file
 * in `incomingFolder` as it arrives and the other fields' text (at most `fieldsMaxBytes`) is kept.
 * No file chosen is `file: null`; an empty named file, an oversized file or body, a malformed or cut
 * off body or another content type is a refusal with a message for the person, and leaves no
 * temporary file behind. Never throws on what a client sends.
 */
export async function readMultipartUpload(
  request: Request,
  {
    fieldName,
    limits,
    messages,
    incomingFolder,
  }: { fieldName: string; limits: UploadLimits; messages: UploadMessages; incomingFolder?: string },
): Promise<UploadRead> {
  const fields = new FormData()
  let bodyEnded = !request.body
  const refuse = (status: UploadRefusal['status'], message: string): UploadRefusal => ({
    ok: false,
    status,
    message,
    fields,
    headers: bodyEnded ? {} : { Connection: 'close' },
  })
  const requestMaxBytes = limits.fileMaxBytes + limits.fieldsMaxBytes

  const contentType = request.headers.get('Content-Type') ?? ''
  const boundary = /^multipart\/form-data\s*;/i.test(contentType) ? getMultipartBoundary(contentType) : null
  if (!boundary) return refuse(400, messages.unreadable)
  if (!request.body) return { ok: true, file: null, fields }
  // Browsers declare the length of a form post. When it is over the cap, only the start is read:
  // enough for the fields placed before the file, so that the page can show them again.
  const declaredTooLarge = Number(request.headers.get('Content-Length')) > requestMaxBytes
  const readLimitBytes = declaredTooLarge ? limits.fieldsMaxBytes : requestMaxBytes

  const scanner = new MultipartScanner(boundary, { maxHeaderBytes: PART_HEADER_MAX_BYTES })
  let current: CurrentPart = { kind: 'skipped' }
  let file: ReceivedFile | undefined
  let parts = 0
  let fieldBytes = 0
  let sawEmptyNamedFile = false

  const startPart = async (header: Uint8Array): Promise<CurrentPart> => {
    if (++parts > limits.maxParts) throw new Error('More parts than the form has')
    // Parsed the way @remix-run/multipart-parser parses a part's headers (and throws on non-UTF-8).
    const part = new MultipartPart(header, [])
    if (part.name === fieldName) {
      if (!part.isFile || file || declaredTooLarge) return { kind: 'skipped' }
      return { kind: 'file', receiver: await onDisk(receiveFile(incomingFolder)), filename: part.filename ?? '' }
    }
    if (part.name && part.isText) return { kind: 'text', name: part.name, chunks: [] }
    return { kind: 'skipped' }
  }

  const readContent = async (bytes: Uint8Array) => {
    if (current.kind === 'file') {
      if (current.receiver.size + bytes.length > limits.fileMaxBytes) throw new UploadTooLargeError()
      await onDisk(current.receiver.write(bytes))
    } else if (current.kind === 'text') {
      fieldBytes += bytes.length
      if (fieldBytes > limits.fieldsMaxBytes) throw new UploadTooLargeError()
      current.chunks.push(Buffer.from(bytes))
    }
  }

  const endPart = async () => {
    const ended = current
    current = { kind: 'skipped' }
    if (ended.kind === 'text') fields.append(ended.name, decodeUtf8(Buffer.concat(ended.chunks)))
    if (ended.kind !== 'file') return
    if (ended.receiver.size > 0) {
      file = await onDisk(ended.receiver.finish(ended.filename))
    } else {
      await ended.receiver.discard()
      if (ended.filename) sawEmptyNamedFile = true
    }
  }

  // What is left of a refused body stays unread, never cancelled: under @react-router/node,
  // cancelling destroys the socket before our answer is written, and the browser then shows a
  // reset connection (and retries the upload) instead of the message.
  const reader = request.body.getReader()
  let bytesRead = 0
  let refusal: UploadRefusal | undefined
  const discardReceived = async () => {
    if (current.kind === 'file') await current.receiver.discard()
    await discardReceivedFile(file)
  }
  try {
    while (true) {
      const chunk = await reader.read()
      if (chunk.done) {
        bodyEnded = true
        if (!scanner.done) throw new Error('The body ended before its closing boundary')
        break
      }
      bytesRead += chunk.value.byteLength
      if (bytesRead > readLimitBytes) {
        refusal = refuse(413, messages.tooLarge)
        break
      }
      for (const event of scanner.write(chunk.value)) {
        if (event.kind === 'part') current = await startPart(event.header)
        else if (event.kind === 'data') await readContent(event.bytes)
        else await endPart()
      }
    }
  } catch (error) {
    if (error instanceof IncomingFileError) {
      await discardReceived()
      throw error.cause
    }
    // Malformed multipart, text that is not UTF-8, a body cut off or aborted by the client.
    refusal = error instanceof UploadTooLargeError ? refuse(413, messages.tooLarge) : refuse(400, messages.unreadable)
  } finally {
    reader.releaseLock()
  }

  if (!refusal && declaredTooLarge) refusal = refuse(413, messages.tooLarge)
  if (!refusal && !file && sawEmptyNamedFile) refusal = refuse(400, messages.empty)
  if (refusal) {
    await discardReceived()
    return refusal
  }
  return { ok: true, file: file ?? null, fields }
}
