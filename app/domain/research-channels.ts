// The texts research goes out in by SMS and Telegram, and the pace of Telegram sends (docs/research.md,
// "Channels"; docs/limits.md). Plain text only: nothing here is ever read as markup.

/** How long a Telegram deep link works (docs/limits.md). */
export const TELEGRAM_LINK_TTL_MS = 15 * 60_000
/** The longest title an SMS notice carries; DLT templates' variables are short (docs/limits.md). */
export const RESEARCH_SMS_TITLE_MAX_CHARS = 60
/** A Telegram text is at most 4,096 characters; an item whose whole text is longer goes as a summary. */
export const RESEARCH_TELEGRAM_WHOLE_MAX_CHARS = 3_500
/** A summary's lines of the body after its title (docs/limits.md). */
export const RESEARCH_TELEGRAM_SUMMARY_LINES = 5
/** Each summary line is cut at this many characters. */
export const RESEARCH_TELEGRAM_SUMMARY_LINE_MAX_CHARS = 200
/** Telegram's limit for one bot: about 30 messages a second in all (docs/limits.md). */
export const TELEGRAM_BOT_MESSAGES_PER_SECOND = 30
/** Telegram's limit for one chat: about one message a second (docs/limits.md). */
export const TELEGRAM_CHAT_INTERVAL_MS = 1_000

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`)

export function researchSmsText({ business, title, link }: { business: string; title: string; link: string }) {
  return `${business}: new research "${clip(title.replace(/\s+/g, ' ').trim(), RESEARCH_SMS_TITLE_MAX_CHARS)}". Read it: ${link}`
}

export type ResearchTelegramParts = {
  title: string
  services: string[]
  /** The body as plain lines (headings, paragraphs, list items). */
  lines: string[]
  /** The disclosures and the issuer lines printed with the whole item. */
  disclosures: string[]
  link: string
  /** The PDF attachment's line with its download link; never the file itself (decision 050). */
  attachment?: string | null
}

/** The whole item when it fits, else its title, first lines and the link (which has the rest); the attachment's link in both. */
export function researchTelegramText(parts: ResearchTelegramParts): { text: string; summary: boolean } {
  const head = [`New research for ${parts.services.join(', ')}`, parts.title, '']
  const attachmentLines = parts.attachment ? [parts.attachment] : []
  const whole = [
    ...head,
    ...parts.lines,
    '',
    'Disclosures:',
    ...parts.disclosures,
    '',
    ...attachmentLines,
    `Read it on the site: ${parts.link}`,
  ].join('\n')
  if (whole.length <= RESEARCH_TELEGRAM_WHOLE_MAX_CHARS) return { text: whole, summary: false }
  const first = parts.lines
    .filter((line) => line.trim() !== '')
    .slice(0, RESEARCH_TELEGRAM_SUMMARY_LINES)
    .map((line) => clip(line, RESEARCH_TELEGRAM_SUMMARY_LINE_MAX_CHARS))
  const text = [
    ...head,
    ...first,
    '…',
    '',
    ...attachmentLines,
    `Read the whole item, with its disclosures: ${parts.link}`,
  ].join('\n')
  return { text, summary: true }
}

/**
 * When a Telegram send may go: at most TELEGRAM_BOT_MESSAGES_PER_SECOND in all and one per chat per
 * TELEGRAM_CHAT_INTERVAL_MS. Given when the bot and the chat are next free (epoch ms), the slot this
 * send takes and when each is free after it.
 */
export function telegramSlot(nowMs: number, botFreeAtMs: number, chatFreeAtMs: number) {
  const at = Math.max(nowMs, botFreeAtMs, chatFreeAtMs)
  return {
    waitMs: at - nowMs,
    botFreeAtMs: at + 1000 / TELEGRAM_BOT_MESSAGES_PER_SECOND,
    chatFreeAtMs: at + TELEGRAM_CHAT_INTERVAL_MS,
  }
}
