import { z } from 'zod'
import { plainText } from './plain-text'
import {
  CALL_ACTIONS,
  CALL_EXCHANGES,
  CALL_ISIN,
  CALL_LIMITS,
  CALL_SYMBOL,
  callProblems,
  parseRupeesToPaise,
  type CallRecord,
  type FactLine,
} from './research-calls'
import type { ResearchAttachmentRecord } from './research-attachment'
import { FOLLOW_UP_KINDS, type FollowUpRecord } from './research-follow-ups'

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
export type ResearchForm = z.infer<typeof ResearchFormSchema> & { call?: CallRecord }

/** A price typed in rupees ("1,520.50"), as paise. */
export const rupeesField = (label: string) =>
  z.string({ error: `Enter the ${label}.` }).transform((typed, context) => {
    const paise = parseRupeesToPaise(typed)
    if (paise !== null) return paise
    context.addIssue({ code: 'custom', message: `Enter the ${label} in rupees, like 1520.50.` })
    return z.NEVER
  })

/** Up to CALL_LIMITS.targetsMax boxes named "targets"; the empty ones are left out. */
export const targetsField = z
  .array(z.string().optional())
  .optional()
  .transform((typed, context) => {
    const texts = (typed ?? []).filter((text): text is string => typeof text === 'string' && text.trim() !== '')
    const paise = texts.map(parseRupeesToPaise)
    if (paise.every((target) => target !== null)) return paise as number[]
    context.addIssue({ code: 'custom', message: 'Enter each target in rupees, like 1600 or 1600.50.' })
    return z.NEVER
  })

const optionalCode = (pattern: RegExp, max: number, message: string) =>
  z
    .string()
    .trim()
    .transform((code) => code.toUpperCase())
    .pipe(z.string().max(max, message).regex(pattern, message))
    .optional()

/** A call: the report's fields (its body is the rationale, required) and the call's terms, checked by callProblems. */
export const CallFormSchema = ResearchFormSchema.extend({
  body: text('rationale', RESEARCH_LIMITS.bodyMaxChars, true).transform((body) => body.replace(/\r\n?/g, '\n')),
  exchange: z.enum(CALL_EXCHANGES, { error: 'Choose NSE or BSE.' }).optional(),
  symbol: optionalCode(
    CALL_SYMBOL,
    CALL_LIMITS.symbolMaxChars,
    'Enter the symbol as the exchange lists it, like HDFCBANK.',
  ),
  isin: optionalCode(CALL_ISIN, 12, 'Enter the ISIN as 12 letters and digits, like INE040A01034.'),
  action: z.enum(CALL_ACTIONS, { error: 'Choose buy, sell, hold or exit.' }),
  entryLow: rupeesField('entry price'),
  entryHigh: rupeesField('top of the entry range').optional(),
  targets: targetsField,
  stopLoss: rupeesField('stop-loss').optional(),
  horizon: text('horizon', CALL_LIMITS.horizonMaxChars),
})
  .superRefine((form, context) => {
    const issue = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message })
    if (!form.isin && !form.symbol) issue('symbol', 'Enter the exchange and symbol, or the ISIN.')
    if (form.symbol && !form.exchange) issue('exchange', 'Choose the exchange the symbol is listed on.')
    if (form.exchange && !form.symbol) issue('symbol', `Enter the symbol on ${form.exchange}.`)
    for (const problem of callProblems(callTermsOf(form))) issue(problem.field, problem.message)
  })
  .transform(({ exchange, symbol, isin, action, entryLow, entryHigh, targets, stopLoss, horizon, ...report }) => ({
    ...report,
    call: {
      exchange: exchange ?? null,
      symbol: symbol ?? null,
      isin: isin ?? null,
      ...callTermsOf({ action, entryLow, entryHigh, targets, stopLoss }),
      horizon,
    } satisfies CallRecord,
  }))

function callTermsOf(form: {
  action: CallRecord['action']
  entryLow: number
  entryHigh?: number
  targets: number[]
  stopLoss?: number
}) {
  return {
    action: form.action,
    entryLowPaise: form.entryLow,
    entryHighPaise: form.entryHigh === undefined || form.entryHigh === form.entryLow ? null : form.entryHigh,
    targetsPaise: form.targets,
    stopLossPaise: form.stopLoss ?? null,
  }
}

/** A follow-up's form: its kind, a note saying what changed and why, its figures, the disclosures asked again. */
export const FollowUpFormSchema = ResearchFormSchema.omit({ title: true, serviceIds: true }).extend({
  body: text('note', RESEARCH_LIMITS.bodyMaxChars, true).transform((body) => body.replace(/\r\n?/g, '\n')),
  kind: z.enum(FOLLOW_UP_KINDS, { error: 'Choose what this follow-up is.' }),
  targets: targetsField,
  stopLoss: rupeesField('new stop-loss').optional(),
  price: rupeesField('price').optional(),
})
export type FollowUpForm = z.infer<typeof FollowUpFormSchema>

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
  kind: 'REPORT' | 'CALL' | 'FOLLOW_UP'
  title: string
  body: string
  /** The services it was published for (ids; any order: the canonical form sorts them). */
  serviceIds: string[]
  disclosures: ResearchDisclosures
  analyst: { name: string; sebiRegistrationNumber: string; bseEnlistmentNumber: string }
  authorId: string
  publishedAt: Date
  /** A call's terms (kind CALL). */
  call?: CallRecord | null
  /** What a follow-up follows and carries (kind FOLLOW_UP). */
  followUp?: FollowUpRecord | null
  /** The PDF attachment's SHA-256, size and name, when the item has one (decision 050). */
  attachment?: ResearchAttachmentRecord | null
}

/** The version of the canonical form: a later change of shape is a new version, old records keep theirs. */
export const RESEARCH_CANONICAL_VERSION = 1

/**
 * The one text that is hashed and signed: JSON with its keys in a fixed order, no spaces, the
 * service ids sorted and the time in UTC to the millisecond, so the same record always gives the
 * same bytes. A call and a follow-up add one key at the end (decision 037); a report has
 * exactly the keys it had before calls existed, so its signature still verifies. An item with a PDF
 * attachment adds its hash, size and name as the very last key (decision 050).
 */
export function canonicalResearchContent(record: ResearchRecord): string {
  const content = {
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
  }
  const ofKind =
    record.kind === 'CALL'
      ? { ...content, call: canonicalCall(record.call) }
      : record.kind === 'FOLLOW_UP'
        ? { ...content, followUp: canonicalFollowUp(record.followUp) }
        : content
  // An attachment adds one last key; without one the bytes are what they were (decision 050).
  if (!record.attachment) return JSON.stringify(ofKind)
  const { sha256, size, name } = record.attachment
  return JSON.stringify({ ...ofKind, attachment: { sha256, size, name } })
}

function canonicalCall(call: CallRecord | null | undefined) {
  if (!call) throw new Error('A call is signed with its terms')
  return {
    exchange: call.exchange,
    symbol: call.symbol,
    isin: call.isin,
    action: call.action,
    entryLowPaise: call.entryLowPaise,
    entryHighPaise: call.entryHighPaise,
    targetsPaise: call.targetsPaise,
    stopLossPaise: call.stopLossPaise,
    horizon: call.horizon,
  }
}

function canonicalFollowUp(followUp: FollowUpRecord | null | undefined) {
  if (!followUp) throw new Error('A follow-up is signed with what it follows')
  return {
    originalId: followUp.originalId,
    kind: followUp.kind,
    targetsPaise: followUp.targetsPaise,
    stopLossPaise: followUp.stopLossPaise,
    pricePaise: followUp.pricePaise,
  }
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
  /** "Report", "Call", or the follow-up's kind ("Correction"). */
  kindWords: string
  /** A call's terms or a follow-up's figures, printed above the body. */
  facts: FactLine[]
  /** What each rating means, printed beside a call (not signed: decision 051); empty for other kinds. */
  ratingDefinitions: FactLine[]
  /** What the body is called on the page: "Rationale" for a call, "Note" for a follow-up. */
  bodyHeading: string | null
  /** The item a follow-up follows. */
  original: { id: string; title: string } | null
  /** The PDF attachment: its name and size as printed next to the download link, and its SHA-256. */
  attachment: { name: string; size: string; sha256: string } | null
  /** The published follow-ups of this item, oldest first: its page's notice links to each. */
  followUps: { id: string; title: string; kindWords: string; publishedAt: string }[]
}
