/** Test files for the research attachment (docs/uploads.md): a real minimal PDF and impostors. */

const encoder = new TextEncoder()

/** A complete, valid one-page PDF (header, objects, cross-reference table, trailer, %%EOF). */
export const MINIMAL_PDF = encoder.encode(
  [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
    'xref',
    '0 4',
    '0000000000 65535 f ',
    '0000000009 00000 n ',
    '0000000058 00000 n ',
    '0000000115 00000 n ',
    'trailer << /Size 4 /Root 1 0 R >>',
    'startxref',
    '186',
    '%%EOF',
    '',
  ].join('\n'),
)

/** A PDF of exactly `size` bytes: the minimal one with a comment of filler before its objects. */
export function pdfOfSize(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size)
  const header = encoder.encode('%PDF-1.4\n%')
  const tail = MINIMAL_PDF.subarray(9)
  bytes.fill(0x41)
  bytes.set(header, 0)
  bytes[size - tail.length - 1] = 0x0a
  bytes.set(tail, size - tail.length)
  return bytes
}

/** A Windows program ("MZ" header) that someone renamed to report.pdf. */
export const RENAMED_EXE = Uint8Array.from([
  0x4d,
  0x5a,
  0x90,
  0x00,
  0x03,
  0x00,
  0x00,
  0x00,
  0x04,
  0x00,
  0x00,
  0x00,
  0xff,
  0xff,
  0x00,
  0x00,
  0xb8,
  0x00,
  ...encoder.encode('This program cannot be run in DOS mode.\r\n%%EOF'),
])

/** A PDF's start with its end cut off (an interrupted download): no cross-reference, no %%EOF. */
export const TRUNCATED_PDF = MINIMAL_PDF.subarray(0, 120)
