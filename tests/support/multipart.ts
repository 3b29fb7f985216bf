/** Builders of PAN card upload requests, the way browsers and API clients send them. */

export const UPLOAD_URL = 'http://localhost/details'

const encoder = new TextEncoder()

export function concatBytes(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(parts.reduce((total, part) => total + part.length, 0))
  let offset = 0
  for (const part of parts) {
    joined.set(part, offset)
    offset += part.length
  }
  return joined
}

/** A real 1x1 PNG. */
export const TINY_PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  (char) => char.charCodeAt(0),
)
/** A real 1x1 lossless WebP. */
export const TINY_WEBP = Uint8Array.from(atob('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=='), (char) =>
  char.charCodeAt(0),
)

/** `size` bytes that start like a JPEG (SOI and an APP0 marker). */
export function jpegOfSize(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size)
  bytes.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46])
  for (let index = 10; index < size; index += 4096) bytes[index] = index % 251
  return bytes
}

export const PDF = encoder.encode('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')

export function formRequest(fill: (form: FormData) => void): Request {
  const form = new FormData()
  fill(form)
  return new Request(UPLOAD_URL, { method: 'POST', body: form })
}

export const BOUNDARY = '----research-store-test-boundary'

export function multipartHead(fields: Record<string, string>, file?: { name: string; filename: string; type: string }) {
  let head = ''
  for (const [name, value] of Object.entries(fields)) {
    head += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
  }
  if (file) {
    head += `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`
  }
  return encoder.encode(head)
}

export const multipartTail = (separator = '\r\n') => encoder.encode(`${separator}--${BOUNDARY}--\r\n`)

/** A request whose body is exactly `body`, delivered in chunks of `chunkBytes`. */
export function rawRequest(
  body: Uint8Array,
  { chunkBytes = 64 * 1024, contentType = `multipart/form-data; boundary=${BOUNDARY}` } = {},
): Request {
  let offset = 0
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= body.length) return controller.close()
      controller.enqueue(body.slice(offset, offset + chunkBytes))
      offset += chunkBytes
    },
  })
  return new Request(UPLOAD_URL, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body: stream,
    duplex: 'half',
  } as RequestInit)
}

/**
 * A multipart request with an image of `fileBytes` bytes generated on demand, one chunk per pull,
 * so a test can see how much of the body the reader pulled before it stopped.
 */
export function streamedUploadRequest(
  fileBytes: number,
  { chunkBytes = 64 * 1024, headers = {} as Record<string, string> } = {},
) {
  const head = multipartHead({ intent: 'upload' }, { name: 'pancard', filename: 'scan.jpg', type: 'image/jpeg' })
  const tail = multipartTail()
  const totalBytes = head.length + fileBytes + tail.length
  const progress = { pulledBytes: 0, cancelled: false, totalBytes }
  let fileBytesSent = 0
  let stage: 'head' | 'file' | 'tail' | 'done' = 'head'
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        let chunk: Uint8Array
        if (stage === 'head') {
          chunk = head
          stage = 'file'
        } else if (stage === 'file') {
          const size = Math.min(chunkBytes, fileBytes - fileBytesSent)
          chunk = fileBytesSent === 0 ? jpegOfSize(size) : new Uint8Array(size).fill(0x5a)
          fileBytesSent += size
          if (fileBytesSent >= fileBytes) stage = 'tail'
        } else if (stage === 'tail') {
          chunk = tail
          stage = 'done'
        } else {
          return controller.close()
        }
        progress.pulledBytes += chunk.length
        controller.enqueue(chunk)
      },
      cancel() {
        progress.cancelled = true
      },
    },
    { highWaterMark: 0 },
  )
  const request = new Request(UPLOAD_URL, {
    method: 'POST',
    headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    body: stream,
    duplex: 'half',
  } as RequestInit)
  return { request, progress }
}
