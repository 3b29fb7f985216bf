// A research item's one PDF attachment (docs/research.md, decision 050): its limits, its check by
// content and the name it is downloaded under. Pure: the server reads, stores and serves it.

/** The multipart field of the analyst's form. */
export const RESEARCH_ATTACHMENT_FIELD_NAME = 'attachment'

/** "Under 10 MB", as the PAN card: 10 MiB. */
export const RESEARCH_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024

/** The kept file name's length, in characters (the browser's name, cleaned). */
export const RESEARCH_ATTACHMENT_NAME_MAX_CHARS = 120

/** Where a PDF's header may be, and its end-of-file marker: within this many bytes of each end. */
export const PDF_ENDS_WINDOW_BYTES = 1024

/** For the file input's `accept` attribute: a hint for the picker, not a check. */
export const RESEARCH_ATTACHMENT_ACCEPT = 'application/pdf,.pdf'

export const RESEARCH_ATTACHMENT_MESSAGES = {
  tooLarge: 'The PDF is larger than 10 MB. Attach a smaller file; your other answers are kept below.',
  empty: 'The file you chose is empty. Choose the PDF again, or leave the attachment out.',
  wrongType: 'The attachment must be a PDF document. This file is not one, whatever its name says.',
  unreadable: 'The form could not be read. Please check your answers and save again.',
  /** A valid PDF chosen on a form with other mistakes: a browser cannot keep a chosen file. */
  chooseAgain: 'Choose the PDF again: a browser does not keep a chosen file when the form has other mistakes.',
} as const

const PDF_HEADER = /^%PDF-[12]\.\d/
const latin1 = (bytes: Uint8Array) => String.fromCharCode(...bytes)

/**
 * Whether `bytes` is a PDF by its content (never by name or declared type): it starts with the
 * `%PDF-1.x` or `%PDF-2.x` header, and its last PDF_ENDS_WINDOW_BYTES hold the cross-reference
 * pointer (`startxref`) followed by the `%%EOF` marker, as every complete PDF ends.
 */
export function isPdf(bytes: Uint8Array): boolean {
  if (bytes.length < 16) return false
  if (!PDF_HEADER.test(latin1(bytes.subarray(0, 8)))) return false
  const tail = latin1(bytes.subarray(Math.max(0, bytes.length - PDF_ENDS_WINDOW_BYTES)))
  const startxref = tail.lastIndexOf('startxref')
  return startxref >= 0 && tail.indexOf('%%EOF', startxref) > startxref
}

/**
 * The name a PDF is kept and downloaded under: the browser's file name without folders or
 * control characters, cut to RESEARCH_ATTACHMENT_NAME_MAX_CHARS, ending in `.pdf`.
 */
export function researchAttachmentName(typed: string): string {
  const base =
    typed
      .split(/[\\/]/)
      .pop()!
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f"]/g, '')
      .replace(/\s+/g, ' ')
      .trim() || 'attachment.pdf'
  const stem = base.replace(/\.pdf$/i, '')
  return `${stem.slice(0, RESEARCH_ATTACHMENT_NAME_MAX_CHARS - 4).trim() || 'attachment'}.pdf`
}

/** `Content-Disposition: attachment` with an ASCII fallback name and the UTF-8 one (RFC 6266). */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)}`
}

/** "2.4 MB" / "830 KB": an attachment's size as printed next to its link. */
export function formatAttachmentSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
  return `${Math.max(1, Math.round(bytes / 1024))} KB`
}

/** What an item holds of its attachment, as signed (decision 050). */
export type ResearchAttachmentRecord = { name: string; size: number; sha256: string }
