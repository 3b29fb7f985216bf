/** The multipart field of the upload, on the page and in the API (the existing clients' `pancard`). */
export const PAN_CARD_FIELD_NAME = 'pancard'

/** The PAN card field is labelled "Upload Pan Card under 10MB"; 10 MB means 10 MiB here. */
export const PAN_CARD_MAX_BYTES = 10 * 1024 * 1024

/** The images we accept, recognised by their first bytes, never by file name or declared type. */
export const PAN_CARD_IMAGE_TYPES = [
  { contentType: 'image/jpeg', extension: 'jpg' },
  { contentType: 'image/png', extension: 'png' },
  { contentType: 'image/webp', extension: 'webp' },
] as const

export type PanCardImageType = (typeof PAN_CARD_IMAGE_TYPES)[number]
export type PanCardContentType = PanCardImageType['contentType']

/** For the file input's `accept` attribute: a hint for the picker, not a check. */
export const PAN_CARD_ACCEPT = PAN_CARD_IMAGE_TYPES.map((type) => type.contentType).join(',')

export const PAN_CARD_MESSAGES = {
  missing: 'Choose an image of your PAN card to upload.',
  empty: 'The file you chose is empty. Choose an image of your PAN card to upload.',
  tooLarge: 'The file is larger than 10 MB. Upload a smaller photo or scan of your PAN card.',
  wrongType: 'Upload a JPEG, PNG or WebP image of your PAN card. PDFs and other files are not accepted.',
  unreadable: 'The upload could not be read. Choose the image of your PAN card and try again.',
  /** The page's script got no answer (the connection dropped); the chosen file is still there. */
  interrupted: 'The upload did not go through. Check your connection and press Upload and continue again.',
} as const

const JPEG_SIGNATURE = [0xff, 0xd8, 0xff]
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const RIFF_SIGNATURE = [0x52, 0x49, 0x46, 0x46] // "RIFF", then a 4-byte chunk size
const WEBP_SIGNATURE = [0x57, 0x45, 0x42, 0x50] // "WEBP" at offset 8

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false
  return signature.every((byte, index) => bytes[offset + index] === byte)
}

/** The image type that `bytes` starts like, or null when it is not a JPEG, PNG or WebP image. */
export function sniffPanCardImageType(bytes: Uint8Array): PanCardImageType | null {
  const [jpeg, png, webp] = PAN_CARD_IMAGE_TYPES
  if (startsWith(bytes, JPEG_SIGNATURE)) return jpeg
  if (startsWith(bytes, PNG_SIGNATURE)) return png
  if (startsWith(bytes, RIFF_SIGNATURE) && startsWith(bytes, WEBP_SIGNATURE, 8)) return webp
  return null
}
