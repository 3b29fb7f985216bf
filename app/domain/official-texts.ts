// The official texts SEBI or the RAASB prescribes word for word (docs/decisions/053-document-versions.md): the
// operator supplies them as plain-text files in OFFICIAL_TEXTS_DIR; until then the store shows its own summary.
// Pure rules: which files, how big, and how a text becomes paragraphs and lists.

export const OFFICIAL_TEXT_FILES = { INVESTOR_CHARTER: 'investor-charter.txt', MITC: 'mitc.txt' } as const
export type OfficialTextKind = keyof typeof OFFICIAL_TEXT_FILES
export type OfficialTexts = Partial<Record<OfficialTextKind, string>>

/** The largest official text accepted (docs/limits.md): SEBI's charter is about 15 KB. */
export const OFFICIAL_TEXT_MAX_BYTES = 200_000

/** What is wrong with a file of the folder, or null: unknown name, empty, too big, not UTF-8 text. */
export function officialTextProblem(fileName: string, bytes: Uint8Array): string | null {
  const known = Object.values(OFFICIAL_TEXT_FILES) as string[]
  if (!known.includes(fileName)) return `holds ${fileName}; only ${known.join(' and ')} are read (check the name)`
  if (bytes.byteLength > OFFICIAL_TEXT_MAX_BYTES)
    return `${fileName} is ${bytes.byteLength} bytes; at most ${OFFICIAL_TEXT_MAX_BYTES} are accepted`
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return `${fileName} is not UTF-8 text`
  }
  if (text.includes('\u0000')) return `${fileName} is not plain text`
  if (!text.trim()) return `${fileName} is empty`
  return null
}

/** Paragraphs are separated by blank lines; a paragraph whose lines all start with "- " is a list. */
export function officialTextBlocks(text: string): (string | { list: string[] })[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => {
      const lines = paragraph.split('\n').map((line) => line.trim())
      if (lines.every((line) => line.startsWith('- '))) return { list: lines.map((line) => line.slice(2).trim()) }
      return lines.join(' ')
    })
}
