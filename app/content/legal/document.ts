/**
 * Long legal text as typed content: plain strings in sections, built by a function of the business
 * details. <LegalDocumentView> renders it; documentText() gives the plain text that versions the
 * agreement. The only markup is a link, written [label](/path) or [label](https://...); bare web
 * and e-mail addresses become links by themselves.
 */

/** A paragraph, a bulleted list of items, or a table (a header row, then rows of the same width). */
export type Block = string | { list: string[] } | { table: { columns: string[]; rows: string[][] } }

export type LegalSection = {
  /** The anchor of the section's heading (unique within the page). */
  id: string
  heading: string
  blocks: Block[]
  sections?: LegalSection[]
}

export type LegalDocument = {
  title: string
  /** E.g. "Effective date: 22 November 2026". */
  dateLine?: string
  intro?: Block[]
  /** Numbered sections read "1. Definitions", "30.2 Obligations". */
  numbered?: boolean
  sections: LegalSection[]
}

export type NumberedSection = Omit<LegalSection, 'sections'> & { number: string | null; sections: NumberedSection[] }

/** The sections with their clause numbers, as both the page and the plain text show them. */
export function numberSections(document: LegalDocument): NumberedSection[] {
  const withNumbers = (sections: LegalSection[], prefix: string): NumberedSection[] =>
    sections.map((section, index) => {
      const number = document.numbered ? `${prefix}${index + 1}` : null
      return { ...section, number, sections: withNumbers(section.sections ?? [], number ? `${number}.` : '') }
    })
  return withNumbers(document.sections, '')
}

/** "1. Definitions" at the top level, "30.2 Obligations" below it. */
export function numberedHeading(section: NumberedSection): string {
  if (!section.number) return section.heading
  return section.number.includes('.') ? `${section.number} ${section.heading}` : `${section.number}. ${section.heading}`
}

export type InlineToken = { text: string } | { text: string; href: string }

const INLINE_LINK = /\[([^\]]+)\]\(([^)\s]+)\)|(https:\/\/[^\s<>()]*[^\s<>().,;:!?'"])|([\w.%+-]+@[\w-]+(?:\.[\w-]+)+)/g

/** Splits a paragraph into text and links: [label](href), https:// addresses and e-mail addresses. */
export function inlineTokens(paragraph: string): InlineToken[] {
  const tokens: InlineToken[] = []
  let position = 0
  for (const match of paragraph.matchAll(INLINE_LINK)) {
    if (match.index > position) tokens.push({ text: paragraph.slice(position, match.index) })
    const [whole, label, target, url, email] = match
    if (label && target) tokens.push({ text: label, href: target })
    else if (url) tokens.push({ text: url, href: url })
    else if (email) tokens.push({ text: email, href: `mailto:${email}` })
    position = match.index + whole.length
  }
  if (position < paragraph.length) tokens.push({ text: paragraph.slice(position) })
  return tokens
}

/** A paragraph as read: "[Refund Policy](/refund-policy)" reads "Refund Policy (/refund-policy)". */
export function plainText(paragraph: string): string {
  return inlineTokens(paragraph)
    .map((token) =>
      'href' in token && token.text !== token.href && token.href !== `mailto:${token.text}`
        ? `${token.text} (${token.href})`
        : token.text,
    )
    .join('')
}

function blocksText(blocks: Block[]): string[] {
  return blocks.map((block) => {
    if (typeof block === 'string') return plainText(block)
    if ('list' in block) return block.list.map((item) => `- ${plainText(item)}`).join('\n')
    // A table reads as one line per row: "column: cell; column: cell".
    const { columns, rows } = block.table
    return rows
      .map((row) => `- ${row.map((cell, index) => `${columns[index]}: ${plainText(cell)}`).join('; ')}`)
      .join('\n')
  })
}

/** The document as plain text: title, date line, then each heading followed by its paragraphs. */
export function documentText(document: LegalDocument): string {
  const parts = [document.title, ...(document.dateLine ? [document.dateLine] : []), ...blocksText(document.intro ?? [])]
  const addSections = (sections: NumberedSection[]) => {
    for (const section of sections) {
      parts.push(numberedHeading(section), ...blocksText(section.blocks))
      addSections(section.sections)
    }
  }
  addSections(numberSections(document))
  return parts.join('\n\n')
}
