import {
  getMultipartBoundary,
  MaxFileSizeExceededError,
  MaxTotalSizeExceededError,
  MultipartParser,
  type MultipartPart,
} from '@remix-run/multipart-parser'

// A form with one file, read as a stream (docs/uploads.md): the PAN card, a complaint's image and a
// research item's PDF. Each caller checks the file's content itself.

export type UploadLimits = {
  /** The file's own cap. */
  fileMaxBytes: number
  /** Room for the form's other fields and the multipart headers next to the file. */
  fieldsMaxBytes: number
  /** More parts than this is not our form. */
  maxParts: number
}

export type UploadMessages = { tooLarge: string; empty: string; unreadable: string }

export type UploadedFile = { bytes: Uint8Array; filename: string }

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

export type UploadRead = { ok: true; file: UploadedFile | null; fields: FormData } | UploadRefusal

const PART_HEADER_MAX_BYTES = 8 * 1024

/** MultipartParser.finish() throws until the closing boundary has been parsed. */
function hasReachedClosingBoundary(parser: MultipartParser): boolean {
  try {
    parser.finish()
    return true
  } catch {
    return false
  }
}

/** A refusal of a request whose body was read to its end (nothing left to drop). */
export function refusalAfterReading(status: UploadRefusal['status'], message: string, fields: FormData): UploadRefusal {
  return { ok: false, status, message, fields, headers: {} }
}

/**
 * Reads a multipart/form-data request with at most one file (in `fieldName`) as a stream: at most
 * `fileMaxBytes + fieldsMaxBytes` of the body are read. No file chosen is `file: null`; an empty
 * named file, an oversized file or body, a malformed or cut off body or another content type is a
 * refusal with a message for the person. Never throws on what a client sends.
 */
export async function readMultipartUpload(
  request: Request,
  { fieldName, limits, messages }: { fieldName: string; limits: UploadLimits; messages: UploadMessages },
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

  const parser = new MultipartParser(boundary, {
    maxFileSize: limits.fileMaxBytes,
    maxTotalSize: requestMaxBytes,
    maxParts: limits.maxParts,
    maxHeaderSize: PART_HEADER_MAX_BYTES,
  })
  let file: MultipartPart | undefined
  let sawEmptyNamedFile = false

  // What is left of a refused body stays unread, never cancelled: under @react-router/node,
  // cancelling destroys the socket before our answer is written, and the browser then shows a
  // reset connection (and retries the upload) instead of the message.
  const reader = request.body.getReader()
  let bytesRead = 0
  try {
    while (true) {
      const chunk = await reader.read()
      if (chunk.done) {
        bodyEnded = true
        parser.finish()
        break
      }
      bytesRead += chunk.value.byteLength
      if (bytesRead > readLimitBytes) return refuse(413, messages.tooLarge)
      // After the closing boundary comes only an epilogue, which RFC 2046 says to ignore.
      if (hasReachedClosingBoundary(parser)) continue
      for (const part of parser.write(chunk.value)) {
        if (part.name === fieldName) {
          if (!part.isFile || file) continue
          if (part.size > 0) file = part
          else if (part.filename) sawEmptyNamedFile = true
        } else if (part.name && part.isText) {
          fields.append(part.name, part.text)
        }
      }
    }
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError) {
      return refuse(413, messages.tooLarge)
    }
    // Malformed multipart, text that is not UTF-8, a body cut off or aborted by the client.
    return refuse(400, messages.unreadable)
  } finally {
    reader.releaseLock()
  }

  if (declaredTooLarge) return refuse(413, messages.tooLarge)
  if (!file) return sawEmptyNamedFile ? refuse(400, messages.empty) : { ok: true, file: null, fields }
  return { ok: true, file: { bytes: file.bytes, filename: file.filename ?? '' }, fields }
}
