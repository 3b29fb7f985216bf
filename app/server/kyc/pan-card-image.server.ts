import { randomBytes } from 'node:crypto'
import {
  getMultipartBoundary,
  MaxFileSizeExceededError,
  MaxTotalSizeExceededError,
  MultipartParser,
  type MultipartPart,
} from '@remix-run/multipart-parser'
import {
  PAN_CARD_FIELD_NAME,
  PAN_CARD_IMAGE_TYPES,
  PAN_CARD_MAX_BYTES,
  PAN_CARD_MESSAGES,
  sniffPanCardImageType,
  type PanCardContentType,
  type PanCardImageType,
} from '~/domain/pan-card-image'
import { getFileStorage, type FileStorage } from '../storage.server'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('kyc')

/** Room for the wizard's other fields and the multipart headers next to the image. */
export const PAN_CARD_FORM_FIELDS_MAX_BYTES = 64 * 1024
/** Nothing beyond this many bytes of a request body is read, whatever it contains. */
export const PAN_CARD_REQUEST_MAX_BYTES = PAN_CARD_MAX_BYTES + PAN_CARD_FORM_FIELDS_MAX_BYTES
/** The wizard step has a handful of fields; more parts than this is not our form. */
export const PAN_CARD_FORM_MAX_PARTS = 32
const PART_HEADER_MAX_BYTES = 8 * 1024

export const PAN_CARD_KEY_PREFIX = 'pan-cards'

export type PanCardUpload = {
  ok: true
  bytes: Uint8Array
  contentType: PanCardContentType
  extension: PanCardImageType['extension']
  size: number
  /** The form's text fields (e.g. `intent`), for the caller's own parsing. */
  fields: FormData
}

export type PanCardUploadRefusal = {
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

export type PanCardUploadResult = PanCardUpload | PanCardUploadRefusal

/** MultipartParser.finish() throws until the closing boundary has been parsed. */
function hasReachedClosingBoundary(parser: MultipartParser): boolean {
  try {
    parser.finish()
    return true
  } catch {
    return false
  }
}

/**
 * Reads a multipart/form-data PAN card upload from `request` as a stream: at most
 * PAN_CARD_REQUEST_MAX_BYTES of the body are read, and the image must be a JPEG, PNG or WebP by
 * its first bytes. Bad input (no file, an empty, oversized or non-image file, a malformed or cut
 * off body, another content type) becomes a refusal with a message for the person; this never
 * throws on what a client sends.
 */
export async function readPanCardUpload(
  request: Request,
  {
    fieldName = PAN_CARD_FIELD_NAME,
    messages = PAN_CARD_MESSAGES,
  }: {
    fieldName?: string
    /** The refusals' wording (the complaint form's attachment has its own). */
    messages?: { [Key in keyof typeof PAN_CARD_MESSAGES]: string }
  } = {},
): Promise<PanCardUploadResult> {
  const fields = new FormData()
  let bodyEnded = !request.body
  const refuse = (status: PanCardUploadRefusal['status'], message: string): PanCardUploadRefusal => ({
    ok: false,
    status,
    message,
    fields,
    headers: bodyEnded ? {} : { Connection: 'close' },
  })

  const contentType = request.headers.get('Content-Type') ?? ''
  const boundary = /^multipart\/form-data\s*;/i.test(contentType) ? getMultipartBoundary(contentType) : null
  if (!boundary) return refuse(400, messages.unreadable)
  if (!request.body) return refuse(400, messages.missing)
  // Browsers declare the length of a form post. When it is over the cap, only the start is read:
  // enough for the fields placed before the file, so that the page can show them again.
  const declaredTooLarge = Number(request.headers.get('Content-Length')) > PAN_CARD_REQUEST_MAX_BYTES
  const readLimitBytes = declaredTooLarge ? PAN_CARD_FORM_FIELDS_MAX_BYTES : PAN_CARD_REQUEST_MAX_BYTES

  const parser = new MultipartParser(boundary, {
    maxFileSize: PAN_CARD_MAX_BYTES,
    maxTotalSize: PAN_CARD_REQUEST_MAX_BYTES,
    maxParts: PAN_CARD_FORM_MAX_PARTS,
    maxHeaderSize: PART_HEADER_MAX_BYTES,
  })
  let image: MultipartPart | undefined
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
          if (!part.isFile || image) continue
          if (part.size > 0) image = part
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
  if (!image) return refuse(400, sawEmptyNamedFile ? messages.empty : messages.missing)
  const bytes = image.bytes
  const imageType = sniffPanCardImageType(bytes)
  if (!imageType) return refuse(415, messages.wrongType)
  return {
    ok: true,
    bytes,
    contentType: imageType.contentType,
    extension: imageType.extension,
    size: bytes.length,
    fields,
  }
}

function panCardFolderOf(userId: string): string {
  return `${PAN_CARD_KEY_PREFIX}/${userId}/`
}

export type StorePanCardOptions = {
  /**
   * Saves the new key on the user (e.g. `prisma.user.update(... { panCardKey })`). When given, the
   * previous file is deleted only after it succeeds, and the new file is deleted if it fails, so
   * a failed save never leaves the user without their earlier PAN card. Without it, the previous
   * file is deleted as soon as the new one is stored.
   */
  recordKey?: (key: string) => Promise<unknown>
  storage?: FileStorage
}

/**
 * Stores a PAN card image privately under a fresh random key (`pan-cards/<userId>/<random>.jpg`),
 * then deletes `previousKey`: re-uploading replaces the old file. Returns the new key.
 */
export async function storePanCard(
  userId: string,
  upload: { bytes: Uint8Array },
  previousKey?: string | null,
  { recordKey, storage = getFileStorage() }: StorePanCardOptions = {},
): Promise<string> {
  // Sniffed again so that nothing but an accepted image can be stored through here.
  const imageType = sniffPanCardImageType(upload.bytes)
  if (!imageType) throw new TypeError('storePanCard needs a JPEG, PNG or WebP image; check it with readPanCardUpload')
  const key = `${panCardFolderOf(userId)}${randomBytes(16).toString('hex')}.${imageType.extension}`
  await storage.put(key, upload.bytes, imageType.contentType)

  if (recordKey) {
    try {
      await recordKey(key)
    } catch (error) {
      await storage.delete(key).catch(() => {})
      throw error
    }
  }

  // Only this user's own files: a wrong previousKey must never delete someone else's card.
  if (previousKey && previousKey !== key && previousKey.startsWith(panCardFolderOf(userId))) {
    try {
      await storage.delete(previousKey)
    } catch (error) {
      // The new card is stored and in use; failing the upload now would only confuse the person.
      log.error({ err: error }, `Could not delete the replaced PAN card ${previousKey}`)
    }
  }
  return key
}

const PAN_CARD_RESPONSE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'private, no-store',
  'Content-Security-Policy': "default-src 'none'",
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const

const panCardImageTypeOf = (contentType: string) =>
  PAN_CARD_IMAGE_TYPES.find((imageType) => imageType.contentType === contentType)

/**
 * The stored PAN card image as a response, or 404 when there is none.
 *
 * No access control here: the calling route must first check that the signed-in user owns this
 * key or is an admin (an owner-or-admin guard), and answer 404 otherwise.
 */
export async function panCardResponse(
  key: string | null | undefined,
  {
    storage = getFileStorage(),
    prefix = PAN_CARD_KEY_PREFIX,
    filename = 'pan-card',
  }: { storage?: FileStorage; prefix?: string; filename?: string } = {},
): Promise<Response> {
  const stored = key?.startsWith(`${prefix}/`) ? await storage.get(key) : null
  if (!stored) {
    return new Response('Not found', {
      status: 404,
      headers: { ...PAN_CARD_RESPONSE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' },
    })
  }
  const imageType = panCardImageTypeOf(stored.contentType)
  return new Response(stored.body, {
    status: 200,
    headers: {
      ...PAN_CARD_RESPONSE_HEADERS,
      // storePanCard only stores images; anything else is downloaded, never rendered.
      'Content-Type': imageType?.contentType ?? 'application/octet-stream',
      'Content-Length': String(stored.size),
      'Content-Disposition': imageType ? `inline; filename="${filename}.${imageType.extension}"` : 'attachment',
    },
  })
}
