import { randomBytes } from 'node:crypto'
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
import { readMultipartUpload, refusalAfterReading, type UploadRefusal } from '../http/multipart-upload.server'
import { discardReceivedFile, type ReceivedFile } from '../http/received-file.server'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('kyc')

/** Room for the wizard's other fields and the multipart headers next to the image. */
export const PAN_CARD_FORM_FIELDS_MAX_BYTES = 64 * 1024
/** Nothing beyond this many bytes of a request body is read, whatever it contains. */
export const PAN_CARD_REQUEST_MAX_BYTES = PAN_CARD_MAX_BYTES + PAN_CARD_FORM_FIELDS_MAX_BYTES
/** The wizard step has a handful of fields; more parts than this is not our form. */
export const PAN_CARD_FORM_MAX_PARTS = 32

export const PAN_CARD_KEY_PREFIX = 'pan-cards'

export type PanCardUpload = {
  ok: true
  /** The image, received to a temporary file: storePanCard stores it, or the caller discards it. */
  file: ReceivedFile
  contentType: PanCardContentType
  extension: PanCardImageType['extension']
  size: number
  /** The form's text fields (e.g. `intent`), for the caller's own parsing. */
  fields: FormData
}

export type PanCardUploadRefusal = UploadRefusal

export type PanCardUploadResult = PanCardUpload | PanCardUploadRefusal

/**
 * Reads a multipart/form-data PAN card upload from `request` as a stream: at most
 * PAN_CARD_REQUEST_MAX_BYTES of the body are read, the image goes to a temporary file (in
 * `incomingFolder`, by default incomingUploadsFolder()) as it arrives, and it must be a JPEG, PNG or
 * WebP by its first bytes. Bad input (no file, an empty, oversized or non-image file, a malformed
 * or cut off body, another content type) becomes a refusal with a message for the person and
 * leaves no temporary file; this never throws on what a client sends. An accepted image is the
 * caller's to store (storePanCard) or discard (discardReceivedFile).
 */
export async function readPanCardUpload(
  request: Request,
  {
    fieldName = PAN_CARD_FIELD_NAME,
    messages = PAN_CARD_MESSAGES,
    incomingFolder,
  }: {
    fieldName?: string
    /** The refusals' wording (the complaint form's attachment has its own). */
    messages?: { [Key in keyof typeof PAN_CARD_MESSAGES]: string }
    incomingFolder?: string
  } = {},
): Promise<PanCardUploadResult> {
  const read = await readMultipartUpload(request, {
    fieldName,
    limits: {
      fileMaxBytes: PAN_CARD_MAX_BYTES,
      fieldsMaxBytes: PAN_CARD_FORM_FIELDS_MAX_BYTES,
      maxParts: PAN_CARD_FORM_MAX_PARTS,
    },
    messages,
    incomingFolder,
  })
  if (!read.ok) return read
  const { file } = read
  if (!file) return refusalAfterReading(400, messages.missing, read.fields)
  const imageType = sniffPanCardImageType(file.ends)
  if (!imageType) {
    await discardReceivedFile(file)
    return refusalAfterReading(415, messages.wrongType, read.fields)
  }
  return {
    ok: true,
    file,
    contentType: imageType.contentType,
    extension: imageType.extension,
    size: file.size,
    fields: read.fields,
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
 * Stores a received PAN card image privately under a fresh random key
 * (`pan-cards/<userId>/<random>.jpg`), moving it from where it was received, then deletes
 * `previousKey`: re-uploading replaces the old file. Returns the new key.
 */
export async function storePanCard(
  userId: string,
  upload: { file: ReceivedFile },
  previousKey?: string | null,
  { recordKey, storage = getFileStorage() }: StorePanCardOptions = {},
): Promise<string> {
  // Sniffed again so that nothing but an accepted image can be stored through here.
  const imageType = sniffPanCardImageType(upload.file.ends)
  if (!imageType) throw new TypeError('storePanCard needs a JPEG, PNG or WebP image; check it with readPanCardUpload')
  const key = `${panCardFolderOf(userId)}${randomBytes(16).toString('hex')}.${imageType.extension}`
  await storage.putFile(key, upload.file, imageType.contentType)

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
