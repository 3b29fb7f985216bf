import { z } from 'zod'
import { plainText } from './plain-text'

// Research items (docs/research.md): the analyst's form, the body's small markup, the disclosures
// printed on every item and the canonical content that is hashed and signed at publication.

/** The sizes of an item's fields (docs/limits.md). */
export const RESEARCH_LIMITS = {
  titleMaxChars: 200,
  bodyMaxChars: 50_000,
  otherConflictMaxChars: 1_000,
  servicesMax: 20,
} as const

/** The yes/no questions SEBI's Research Analyst Regulations ask of every report, in the form's order. */
export const DISCLOSURE_QUESTIONS = [
  {
    name: 'financialInterest',
    question:
      'Do the research analyst, its associates or their relatives have a financial interest in the subject company?',
    printed: 'Financial interest of the research analyst, its associates or relatives in the subject company',
  },
  {
    name: 'ownershipOnePercent',
    question:
      'Do the research analyst or its associates own 1% or more of the subject company’s securities (at the end of the month before this report)?',
    printed: 'Ownership of 1% or more of the subject company’s securities by the research analyst or its associates',
  },
  {
    name: 'compensationPastYear',
    question:
      'Did the research analyst or its associates receive compensation from the subject company in the past 12 months?',
    printed: 'Compensation from the subject company in the past 12 months',
  },
  {
    name: 'aiToolsUsed',
    question: 'Were artificial intelligence tools used in preparing this report?',
    printed: 'Artificial intelligence tools used in preparing this report',
  },
] as const

export type DisclosureName = (typeof DISCLOSURE_QUESTIONS)[number]['name']

const yesNo = (message: string) => z.enum(['yes', 'no'], { error: message }).transform((answer) => answer === 'yes')

const text = (label: string, max: number, multiLine = false) =>
  plainText(
    z
      .string({ error: `Enter the ${label}.` })
      .trim()
      .min(1, `Enter the ${label}.`)
      .max(max, `The ${label} can be at most ${max.toLocaleString('en-IN')} characters.`),
    { multiLine },
  )

/** The analyst's form: the item, its services and each disclosure answered. */
export const ResearchFormSchema = z.object({
  title: text('title', RESEARCH_LIMITS.titleMaxChars),
  body: text('body', RESEARCH_LIMITS.bodyMaxChars, true).transform((body) => body.replace(/\r\n?/g, '\n')),
  serviceIds: z
    .array(z.uuid({ error: 'Choose the services from the list.' }), { error: 'Choose at least one service.' })
    .min(1, 'Choose at least one service.')
    .max(RESEARCH_LIMITS.servicesMax, `Choose at most ${RESEARCH_LIMITS.servicesMax} services.`),
  financialInterest: yesNo('Answer whether there is a financial interest.'),
  ownershipOnePercent: yesNo('Answer whether there is ownership of 1% or more.'),
  compensationPastYear: yesNo('Answer whether compensation was received in the past 12 months.'),
  aiToolsUsed: yesNo('Answer whether AI tools were used.'),
  otherConflict: text(
    'other material conflict of interest (write None if there is none)',
    RESEARCH_LIMITS.otherConflictMaxChars,
    true,
  ),
})
export type ResearchForm = z.infer<typeof ResearchFormSchema>

// ---- The body's markup: "# " or "## " starts a heading, "- " or "* " a list item, a blank line
// ends a paragraph; [label](https://...) or [label](/path) and bare https:// addresses are links.
// Everything else is text: the page renders these blocks as React elements, never as HTML.

export type ResearchInline = { text: string } | { text: string; href: string }
export type ResearchBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; inline: ResearchInline[] }
  | { kind: 'list'; items: ResearchInline[][] }

const LINK = /\[([^\]\n]+)\]\(((?:https:\/\/|\/(?!\/))[^\s()]*)\)|(https:\/\/[^\s<>()]*[^\s<>().,;:!?'"])/g

/** Text and links: only https:// and same-site paths become links; any other [label](href) stays text. */
export function researchInline(line: string): ResearchInline[] {
  const tokens: ResearchInline[] = []
  let position = 0
  for (const match of line.matchAll(LINK)) {
    if (match.index > position) tokens.push({ text: line.slice(position, match.index) })
    tokens.push(match[1] ? { text: match[1], href: match[2]! } : { text: match[3]!, href: match[3]! })
    position = match.index + match[0].length
  }
  if (position < line.length) tokens.push({ text: line.slice(position) })
  return tokens
}

export function researchBlocks(body: string): ResearchBlock[] {
  const blocks: ResearchBlock[] = []
  let paragraph: string[] = []
  let list: string[] = []
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', inline: researchInline(paragraph.join(' ')) })
    if (list.length) blocks.push({ kind: 'list', items: list.map(researchInline) })
    paragraph = []
    list = []
  }
  for (const raw of body.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim()
    const heading = /^#{1,3}\s+(.+)$/.exec(line)
    const item = /^[-*]\s+(.+)$/.exec(line)
    if (!line) flush()
    else if (heading) {
      flush()
      blocks.push({ kind: 'heading', text: heading[1]! })
    } else if (item) {
      if (paragraph.length) flush()
      list.push(item[1]!)
    } else {
      if (list.length) flush()
      paragraph.push(line)
    }
  }
  flush()
  return blocks
}

// ---- What is signed.

export type ResearchDisclosures = Record<DisclosureName, boolean> & { otherConflict: string }

/** Everything a published item says, as it was signed. */
export type ResearchRecord = {
  id: string
  kind: 'REPORT'
  title: string
  body: string
  /** The services it was published for (ids; any order: the canonical form sorts them). */
  serviceIds: string[]
  disclosures: ResearchDisclosures
  analyst: { name: string; sebiRegistrationNumber: string; bseEnlistmentNumber: string }
  authorId: string
  publishedAt: Date
}

/** The version of the canonical form: a later change of shape is a new version, old records keep theirs. */
export const RESEARCH_CANONICAL_VERSION = 1

/**
 * The one text that is hashed and signed: JSON with its keys in a fixed order, no spaces, the
 * service ids sorted and the time in UTC to the millisecond, so the same record always gives the
 * same bytes.
 */
export function canonicalResearchContent(record: ResearchRecord): string {
  return JSON.stringify({
    version: RESEARCH_CANONICAL_VERSION,
    id: record.id,
    kind: record.kind,
    title: record.title,
    body: record.body,
    services: [...record.serviceIds].sort(),
    disclosures: {
      financialInterest: record.disclosures.financialInterest,
      ownershipOnePercent: record.disclosures.ownershipOnePercent,
      compensationPastYear: record.disclosures.compensationPastYear,
      otherConflict: record.disclosures.otherConflict,
      aiToolsUsed: record.disclosures.aiToolsUsed,
    },
    analyst: {
      name: record.analyst.name,
      sebiRegistrationNumber: record.analyst.sebiRegistrationNumber,
      bseEnlistmentNumber: record.analyst.bseEnlistmentNumber,
    },
    authorId: record.authorId,
    publishedAt: record.publishedAt.toISOString(),
  })
}

/** The lines printed under every item: each disclosure with its answer. */
export function disclosureLines(disclosures: ResearchDisclosures): { label: string; answer: string }[] {
  return [
    ...DISCLOSURE_QUESTIONS.map(({ name, printed }) => ({ label: printed, answer: disclosures[name] ? 'Yes' : 'No' })),
    { label: 'Any other material conflict of interest', answer: disclosures.otherConflict },
  ]
}

/** "Research Store Pvt Ltd, Research Analyst": the business's name as an item's issuer. */
export const researchAnalystLine = (name: string) => `${name}, Research Analyst`

/** A hex fingerprint in groups of four, easier to read aloud and compare. */
export function formatFingerprint(hex: string): string {
  return hex.match(/.{1,4}/g)?.join(' ') ?? hex
}

/** What the item pages show (the customer's, and the admin's preview and record). */
export type ResearchItemView = {
  id: string
  title: string
  body: string
  services: string[]
  disclosures: { label: string; answer: string }[]
  analystLine: string
  sebiRegistrationNumber: string
  bseEnlistmentNumber: string
  /** "29-11-2026, 11:00 IST"-style, or null for a draft. */
  publishedAt: string | null
  contentSha256: string | null
  signingKeyFingerprint: string | null
}
