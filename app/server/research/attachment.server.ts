import { randomBytes } from 'node:crypto'
import {
  attachmentDisposition,
  isPdf,
  RESEARCH_ATTACHMENT_FIELD_NAME,
  RESEARCH_ATTACHMENT_MAX_BYTES,
  RESEARCH_ATTACHMENT_MESSAGES,
  researchAttachmentName,
} from '~/domain/research-attachment'
import { readForm } from '../http/form-data.server'
import { readMultipartUpload, refusalAfterReading, type UploadRefusal } from '../http/multipart-upload.server'
import { discardReceivedFile, type ReceivedFile } from '../http/received-file.server'
import { prisma } from '../db.server'
import { loggerFor } from '../operations/logger.server'
import { getFileStorage, type FileStorage } from '../storage.server'

// A research item's PDF attachment (docs/research.md, docs/uploads.md, decision 050): read from
// the analyst's multipart form and checked by content, stored privately, served only by a route
// that has checked the reader, erased with the item.

const log = loggerFor('research')

/**
 * Room for the form's text next to the file: the body (50,000 characters, up to 150 KB as UTF-8),
 * the title, the call's terms and the disclosures, all placed before the file input.
 */
export const RESEARCH_FORM_FIELDS_MAX_BYTES = 256 * 1024
/** The form has a few dozen fields (services are one each, at most 20 chosen of the list). */
export const RESEARCH_FORM_MAX_PARTS = 200
export const RESEARCH_ATTACHMENT_KEY_PREFIX = 'research-attachments'
const PDF_CONTENT_TYPE = 'application/pdf'

/**
 * A PDF read from the form and checked, received to a temporary file, not yet stored: the caller
 * stores it (storeResearchAttachment) or discards it (discardReceivedFile).
 */
export type ResearchAttachmentUpload = { file: ReceivedFile; name: string }

export type ResearchFormRead =
  { ok: true; fields: FormData; attachment: ResearchAttachmentUpload | null } | UploadRefusal

const isMultipart = (request: Request) => /^multipart\/form-data\b/i.test(request.headers.get('Content-Type') ?? '')

/**
 * The analyst's form with its optional PDF: a form posted without a file part is read as any
 * other; a multipart one as a stream, at most RESEARCH_ATTACHMENT_MAX_BYTES of file, refused
 * (413, 415, 400) with a message for the attachment field and the text read before it.
 */
export async function readResearchForm(request: Request): Promise<ResearchFormRead> {
  if (!isMultipart(request)) return { ok: true, fields: await readForm(request), attachment: null }
  const read = await readMultipartUpload(request, {
    fieldName: RESEARCH_ATTACHMENT_FIELD_NAME,
    limits: {
      fileMaxBytes: RESEARCH_ATTACHMENT_MAX_BYTES,
      fieldsMaxBytes: RESEARCH_FORM_FIELDS_MAX_BYTES,
      maxParts: RESEARCH_FORM_MAX_PARTS,
    },
    messages: RESEARCH_ATTACHMENT_MESSAGES,
  })
  if (!read.ok) return read
  const { file } = read
  if (!file) return { ok: true, fields: read.fields, attachment: null }
  if (!isPdf(file.ends)) {
    await discardReceivedFile(file)
    return refusalAfterReading(415, RESEARCH_ATTACHMENT_MESSAGES.wrongType, read.fields)
  }
  return { ok: true, fields: read.fields, attachment: { file, name: researchAttachmentName(file.filename) } }
}

export type StoredResearchAttachment = {
  attachmentKey: string
  attachmentName: string
  attachmentSize: number
  attachmentSha256: string
}

/** Stores a checked PDF under a fresh random key, moving it from where it was received; the columns the item keeps of it. */
export async function storeResearchAttachment(
  upload: ResearchAttachmentUpload,
  storage: FileStorage = getFileStorage(),
): Promise<StoredResearchAttachment> {
  // Checked again so that nothing but a PDF can be stored through here.
  const { file } = upload
  if (!isPdf(file.ends)) throw new TypeError('storeResearchAttachment needs a PDF; check it with readResearchForm')
  const attachmentKey = `${RESEARCH_ATTACHMENT_KEY_PREFIX}/${randomBytes(16).toString('hex')}.pdf`
  await storage.putFile(attachmentKey, file, PDF_CONTENT_TYPE)
  return { attachmentKey, attachmentName: upload.name, attachmentSize: file.size, attachmentSha256: file.sha256 }
}

/** Deletes stored attachments (a draft not written, items erased); a failure is logged, not thrown. */
export async function deleteResearchAttachments(
  keys: string[],
  storage: FileStorage = getFileStorage(),
): Promise<void> {
  for (const key of keys) {
    if (!key.startsWith(`${RESEARCH_ATTACHMENT_KEY_PREFIX}/`)) continue
    try {
      await storage.delete(key)
    } catch (error) {
      log.error({ err: error }, `Could not delete the research attachment ${key}`)
    }
  }
}

const ATTACHMENT_RESPONSE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'private, no-store',
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const

export const notFoundAttachment = () =>
  new Response('Not found', {
    status: 404,
    headers: { ...ATTACHMENT_RESPONSE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' },
  })

/**
 * The item's PDF as a download, streamed from storage, or 404 when it has none. No access control
 * here: the route first decides the reader may read the item, exactly as the item's page does.
 */
export async function researchAttachmentResponse(
  item: { attachmentKey: string | null; attachmentName: string | null },
  storage: FileStorage = getFileStorage(),
): Promise<Response> {
  const { attachmentKey, attachmentName } = item
  if (!attachmentKey?.startsWith(`${RESEARCH_ATTACHMENT_KEY_PREFIX}/`) || !attachmentName) return notFoundAttachment()
  const stored = await storage.get(attachmentKey)
  if (!stored) return notFoundAttachment()
  return new Response(stored.body, {
    status: 200,
    headers: {
      ...ATTACHMENT_RESPONSE_HEADERS,
      'Content-Type': PDF_CONTENT_TYPE,
      'Content-Length': String(stored.size),
      'Content-Disposition': attachmentDisposition(attachmentName),
    },
  })
}

/** The stored file of item `itemId` (draft or published), for a route that has checked the reader. */
export async function researchAttachmentOf(
  itemId: string,
): Promise<{ attachmentKey: string | null; attachmentName: string | null } | null> {
  return prisma.researchItem.findUnique({
    where: { id: itemId },
    select: { attachmentKey: true, attachmentName: true },
  })
}
