import { getErrorMessage } from '~/domain/error-message'
import { formatIndiaDateTime } from '~/domain/dates'
import { researchBlocks, type ResearchInline } from '~/domain/research'
import { RATING_DEFINITIONS_NOTE } from '~/domain/research-calls'
import { researchSmsText, researchTelegramText } from '~/domain/research-channels'
import { prisma } from '../db.server'
import { emailContext } from '../messaging/customer-notices.server'
import { archiveSentMessages, type SentMessageRecord } from '../messaging/message-archive.server'
import {
  renderEmailForEach,
  type EmailBlock,
  type EmailContext,
  type RenderedEmail,
} from '../messaging/emails/render-email.server'
import { MailDeliveryError, mailProvider, type Email } from '../messaging/mail.server'
import { SmsDeliveryError, smsProvider, type NoticeSms } from '../messaging/sms.server'
import { telegramBot } from '../messaging/telegram-bot.server'
import { TelegramDeliveryError, type TelegramBot } from '../messaging/telegram.server'
import { unlinkTelegram } from './channels.server'
import { reserveTelegramSlot } from './telegram-pace.server'
import { countMessage } from '../operations/metrics.server'
import { loggerFor } from '../operations/logger.server'
import { researchItemSelect, researchItemView, type ResearchItemRow } from './items.server'
import { researchFactBlocks } from './email-facts.server'

const log = loggerFor('research')

// The delivery log is the queue (docs/research.md, "Delivery"): publishing writes one QUEUED row per
// recipient and channel; this job claims due rows in batches with FOR UPDATE SKIP LOCKED, so any
// number of workers at once each take different rows, and writes what became of each try.

/** Rows one claim takes (docs/limits.md). */
export const RESEARCH_DELIVERY_BATCH_SIZE = 100
/**
 * Deliveries tried at once by one run (docs/limits.md): enough to keep every pooled SMTP connection
 * busy, and below the database pool of 10, as a Telegram send books its slot in a transaction.
 */
export const RESEARCH_DELIVERY_CONCURRENCY = 8
/**
 * Batches a run works on at once, each with its share of the concurrency: while one batch's states
 * are written and the next claimed, the other's messages go out (one at a time, the process waited
 * on the database for 40% of a run).
 */
const RESEARCH_DELIVERY_LANES = 2
/** Tries per delivery before it is FAILED (docs/limits.md). */
export const RESEARCH_DELIVERY_ATTEMPTS = 5
/** The wait after the 1st, 2nd, ... failed try: 1 min, 5 min, 30 min, 2 h (docs/limits.md). */
const BACKOFF_MS = [60_000, 300_000, 1_800_000, 7_200_000] as const
/**
 * A claimed row is not due again for this long: a worker that dies mid-batch leaves its rows to be
 * tried again after it (so a crash can send a batch's e-mails twice, never none). Longer than a
 * run's two batches of sends at the SMTP timeout on the pool's connections (200 x 20 s / 4: 17 min).
 */
export const RESEARCH_DELIVERY_CLAIM_MS = 30 * 60_000
/** One run of the job stops taking new batches after this long; the next run goes on (docs/limits.md). */
export const RESEARCH_DELIVERY_RUN_MS = 50_000

export function researchDeliveryBackoffMs(attempt: number): number {
  return BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length) - 1]!
}

/** Sends one e-mail and answers the provider's message id when it gives one. */
export type ResearchEmailSender = (email: Email) => Promise<string | void>

const sendThroughMailProvider: ResearchEmailSender = async (email) => {
  const provider = mailProvider()
  if (!provider) throw new MailDeliveryError('No mail provider is configured (SMTP_URL)', true)
  return provider.send(email)
}

/** Sends one research SMS and answers the provider's message id when it gives one. */
export type ResearchSmsSender = (sms: NoticeSms) => Promise<string | void>

const sendThroughSmsProvider: ResearchSmsSender = (sms) => smsProvider().sendNotice(sms)

/** The other channels' senders and Telegram's pace; tests pass fakes (and a wait that does not sleep). */
export type ChannelSenders = {
  sms: ResearchSmsSender
  telegram: TelegramBot | null
  pace: (chatId: string, nowMs: number) => Promise<number>
  wait: (ms: number) => Promise<void>
  clock: () => number
}

const waitFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

type Channel = 'EMAIL' | 'SMS' | 'TELEGRAM'
type Claimed = { id: string; item_id: string; user_id: string; attempts: number; channel: Channel }

const recipientSelect = {
  id: true,
  email: true,
  name: true,
  phone: true,
  closedAt: true,
  erasedAt: true,
  researchChannelChoice: { select: { telegramChatId: true } },
} as const
type Recipient = Awaited<ReturnType<typeof recipientsOf>>[number]

/** What became of one try: written for the whole batch at once (recordOutcomes). */
type Outcome =
  | { row: Claimed; state: 'sent'; messageId: string | null; archived: SentMessageRecord }
  | { row: Claimed; state: 'retrying'; reason: string; nextAttemptAt: Date }
  | { row: Claimed; state: 'failed'; reason: string }

export type DeliveryRun = { sent: number; retrying: number; failed: number }

/** Batch after batch, two at a time (RESEARCH_DELIVERY_LANES), until none is due at `now` or the run's time is up. */
export async function sendDueResearchDeliveries({
  now = new Date(),
  send = sendThroughMailProvider,
  batchSize = RESEARCH_DELIVERY_BATCH_SIZE,
  sms = sendThroughSmsProvider,
  telegram,
  pace = reserveTelegramSlot,
  wait = waitFor,
  clock = Date.now,
}: {
  now?: Date
  send?: ResearchEmailSender
  batchSize?: number
} & Partial<ChannelSenders> = {}): Promise<DeliveryRun> {
  const run: DeliveryRun = { sent: 0, retrying: 0, failed: 0 }
  const startedAt = Date.now()
  const context = await emailContext()
  const senders: ChannelSenders = {
    sms,
    telegram: telegram === undefined ? await telegramBot() : telegram,
    pace,
    wait,
    clock,
  }
  const publications = new Map<string, Promise<Publication | null>>()
  const lane = async () => {
    while (Date.now() - startedAt < RESEARCH_DELIVERY_RUN_MS) {
      const claimed = await claimDue(now, batchSize)
      if (claimed.length === 0) return
      const batchPublications = new Map<string, Publication | null>()
      for (const itemId of new Set(claimed.map((row) => row.item_id))) {
        // The other lane may be reading it already: one read a run.
        if (!publications.has(itemId)) publications.set(itemId, publicationOf(itemId, context))
        batchPublications.set(itemId, await publications.get(itemId)!)
      }
      const recipients = new Map((await recipientsOf(claimed)).map((user) => [user.id, user]))
      const outcomes = await atMostAtOnce(claimed, RESEARCH_DELIVERY_CONCURRENCY / RESEARCH_DELIVERY_LANES, (row) =>
        deliver(row, batchPublications.get(row.item_id) ?? null, recipients.get(row.user_id), send, senders, now).catch(
          (error: unknown) => unforeseen(row, error, now),
        ),
      )
      await recordOutcomes(outcomes, now)
      for (const { state } of outcomes) run[state]++
    }
  }
  await Promise.all(Array.from({ length: RESEARCH_DELIVERY_LANES }, lane))
  return run
}

/** Claims up to `limit` due rows: each counts a try and is not due again until its claim runs out. */
function claimDue(now: Date, limit: number): Promise<Claimed[]> {
  return prisma.$queryRaw<Claimed[]>`
    UPDATE research_deliveries d
    SET attempts = d.attempts + 1,
        next_attempt_at = ${new Date(now.getTime() + RESEARCH_DELIVERY_CLAIM_MS)}::timestamptz
    FROM (
      SELECT id FROM research_deliveries
      WHERE status = 'QUEUED' AND next_attempt_at <= ${now}::timestamptz
      ORDER BY next_attempt_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ) due
    WHERE d.id = due.id
    RETURNING d.id::text AS id, d.item_id::text AS item_id, d.user_id::text AS user_id, d.attempts,
      d.channel::text AS channel`
}

/** A batch's customers, in one query. */
function recipientsOf(rows: Claimed[]) {
  return prisma.user.findMany({
    where: { id: { in: [...new Set(rows.map((row) => row.user_id))] } },
    select: recipientSelect,
  })
}

/** `task` on each of `rows`, at most `limit` at once; the answers in the rows' order. */
async function atMostAtOnce<Row, Answer>(
  rows: Row[],
  limit: number,
  task: (row: Row) => Promise<Answer>,
): Promise<Answer[]> {
  const answers: Answer[] = new Array<Answer>(rows.length)
  let next = 0
  const worker = async () => {
    while (next < rows.length) {
      const index = next++
      answers[index] = await task(rows[index]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, rows.length) }, worker))
  return answers
}

/**
 * The batch's sent messages archived, then every row's state in one statement. A crash between the
 * sends and this sends the batch again after its claim runs out: at least once, never none.
 */
async function recordOutcomes(outcomes: Outcome[], now: Date): Promise<void> {
  const sent = outcomes.filter((outcome) => outcome.state === 'sent')
  await archiveSentMessages(
    sent.map(({ archived, messageId }) => ({ ...archived, providerMessageId: messageId })),
    now,
  )
  await prisma.$executeRaw`
    UPDATE research_deliveries d
    SET status = o.status::"ResearchDeliveryStatus",
        sent_at = CASE WHEN o.status = 'SENT' THEN ${now}::timestamptz END,
        failed_at = CASE WHEN o.status = 'FAILED' THEN ${now}::timestamptz END,
        next_attempt_at = COALESCE(o.next_attempt_at, d.next_attempt_at),
        provider_message_id = o.provider_message_id,
        last_error = o.last_error
    FROM unnest(
      ${outcomes.map(({ row }) => row.id)}::uuid[],
      ${outcomes.map(({ state }) => (state === 'sent' ? 'SENT' : state === 'failed' ? 'FAILED' : 'QUEUED'))}::text[],
      ${outcomes.map((outcome) => (outcome.state === 'retrying' ? outcome.nextAttemptAt.toISOString() : null))}::timestamptz[],
      ${outcomes.map((outcome) => (outcome.state === 'sent' ? outcome.messageId : null))}::text[],
      ${outcomes.map((outcome) => (outcome.state === 'sent' ? null : outcome.reason))}::text[]
    ) AS o(id, status, next_attempt_at, provider_message_id, last_error)
    WHERE d.id = o.id AND d.status = 'QUEUED'`
}

/** A try that failed in the store, not at the provider (say the database between): tried again later like a failed send. */
function unforeseen(row: Claimed, error: unknown, now: Date): Outcome {
  const reason = getErrorMessage(error)
  log.error({ itemId: row.item_id, userId: row.user_id, channel: row.channel }, `A research delivery failed: ${reason}`)
  return tryAgainLater(row, reason, now)
}

/** A failed try: due again after its backoff (or `atLeastMs`, a provider's retry-after), FAILED after the last. */
function tryAgainLater(row: Claimed, reason: string, now: Date, atLeastMs = 0): Outcome {
  if (row.attempts >= RESEARCH_DELIVERY_ATTEMPTS) return { row, state: 'failed', reason }
  const waitMs = Math.max(researchDeliveryBackoffMs(row.attempts), atLeastMs)
  return { row, state: 'retrying', reason, nextAttemptAt: new Date(now.getTime() + waitMs) }
}

/** A published item's messages, written once a run for all its recipients. */
type Publication = {
  emailTo: (name: string | null | undefined) => RenderedEmail
  smsText: string
  telegramText: string
  /**
   * What the archive keeps of an e-mail or a Telegram message: it names the signed item rather than
   * copying it once per recipient (100,000 copies of a report per publication), as they are written
   * from the item alone.
   */
  signedBody: string
}

/** Null when the item is gone or not published: its deliveries fail. */
async function publicationOf(itemId: string, context: EmailContext): Promise<Publication | null> {
  const item = await prisma.researchItem.findUnique({ where: { id: itemId }, select: researchItemSelect })
  if (!item || item.status !== 'PUBLISHED') return null
  return {
    emailTo: researchEmail(item, context),
    smsText: researchSmsText({ business: context.business.name, title: item.title, link: itemLink(item, context) }),
    telegramText: researchTelegram(item, context).text,
    signedBody: `Research item ${item.id} as published and signed (content SHA-256 ${item.contentSha256})`,
  }
}

async function deliver(
  row: Claimed,
  publication: Publication | null,
  user: Recipient | undefined,
  send: ResearchEmailSender,
  senders: ChannelSenders,
  now: Date,
): Promise<Outcome> {
  const failed = (reason: string): Outcome => ({ row, state: 'failed', reason })
  if (!publication) return failed('The item is not published')
  if (!user || user.closedAt || user.erasedAt) return failed('The account is closed')
  const metric = row.channel === 'EMAIL' ? 'email' : row.channel === 'SMS' ? 'sms' : 'telegram'
  const { signedBody } = publication
  let attempt: () => Promise<string | void>
  let archived: SentMessageRecord
  switch (row.channel) {
    case 'EMAIL': {
      const to = user.email
      if (!to) return failed('No e-mail address on the account')
      const email = { to, userId: row.user_id, ...publication.emailTo(user.name) }
      attempt = () => send(email)
      archived = {
        userId: row.user_id,
        channel: 'email',
        recipient: to,
        template: 'research',
        subject: email.subject,
        body: signedBody,
      }
      break
    }
    case 'SMS': {
      if (!user.phone.startsWith('+')) return failed('No mobile number on the account')
      const text = publication.smsText
      attempt = () => senders.sms({ to: user.phone, text, userId: row.user_id, template: 'research' })
      archived = { userId: row.user_id, channel: 'sms', recipient: user.phone, template: 'research', body: text }
      break
    }
    case 'TELEGRAM': {
      const chatId = user.researchChannelChoice?.telegramChatId
      const bot = senders.telegram
      if (!chatId) return failed('Telegram is not linked')
      if (!bot) return failed('Telegram is not configured (TELEGRAM_BOT_TOKEN)')
      attempt = async () => {
        const delay = await senders.pace(chatId, senders.clock())
        if (delay > 0) await senders.wait(delay)
        return bot.sendMessage(chatId, publication.telegramText)
      }
      archived = { userId: row.user_id, channel: 'telegram', recipient: chatId, template: 'research', body: signedBody }
      break
    }
  }
  try {
    const messageId = await attempt()
    countMessage(metric, 'sent')
    return { row, state: 'sent', messageId: messageId || null, archived }
  } catch (error) {
    countMessage(metric, 'failed')
    const reason = getErrorMessage(error)
    log.error(
      { itemId: row.item_id, userId: row.user_id, channel: row.channel },
      `A research delivery failed: ${reason}`,
    )
    if (error instanceof TelegramDeliveryError && error.blocked) {
      // The customer blocked the bot: this delivery fails and the channel is unlinked; the item stands.
      await unlinkTelegram(row.user_id, `Telegram refused: ${reason}`, now)
      return failed(`Telegram refused (the bot was blocked or the chat is gone): ${reason}`)
    }
    const retryable =
      error instanceof MailDeliveryError || error instanceof SmsDeliveryError || error instanceof TelegramDeliveryError
        ? error.retryable
        : true
    if (!retryable) return failed(reason)
    return tryAgainLater(row, reason, now, error instanceof TelegramDeliveryError ? (error.retryAfterMs ?? 0) : 0)
  }
}

const itemLink = (item: ResearchItemRow, context: EmailContext) => `${context.origin ?? ''}/research/${item.id}`

/** The item for Telegram: whole when short, else a summary and the link; plain text (no parse_mode). */
export function researchTelegram(item: ResearchItemRow, context: EmailContext) {
  const view = researchItemView(item)
  const lines = researchBlocks(item.body).flatMap((block) => {
    switch (block.kind) {
      case 'heading':
        return [block.text]
      case 'paragraph':
        return [inlineText(block.inline)]
      case 'list':
        return block.items.map((entry) => `- ${inlineText(entry)}`)
    }
  })
  return researchTelegramText({
    title: view.title,
    services: view.services,
    lines,
    disclosures: [
      ...view.disclosures.map(({ label, answer }) => `${label}: ${answer}`),
      view.analystLine,
      `SEBI registration: ${view.sebiRegistrationNumber}`,
      `BSE enlistment: ${view.bseEnlistmentNumber}`,
      `Signature fingerprint: ${view.signingKeyFingerprint ?? ''}`,
    ],
    link: itemLink(item, context),
    attachment: view.attachment
      ? `Attachment: ${view.attachment.name} (PDF, ${view.attachment.size}): ${itemLink(item, context)}/attachment`
      : null,
  })
}

const inlineText = (inline: ResearchInline[]) =>
  inline.map((part) => ('href' in part && part.href !== part.text ? `${part.text} (${part.href})` : part.text)).join('')

/**
 * The whole item as an e-mail: its text, disclosures, issuer, signature and a link to its page;
 * rendered once, answering each recipient's copy by the name it greets.
 */
export function researchEmail(
  item: ResearchItemRow,
  context: EmailContext,
): (name: string | null | undefined) => RenderedEmail {
  const view = researchItemView(item)
  const body: EmailBlock[] = researchBlocks(item.body).map((block) => {
    switch (block.kind) {
      case 'heading':
        return { kind: 'note', label: 'Section', text: block.text }
      case 'paragraph':
        return { kind: 'paragraph', text: inlineText(block.inline) }
      case 'list':
        return { kind: 'list', items: block.items.map(inlineText) }
    }
  })
  return renderEmailForEach(
    {
      template: 'research',
      subject: `Research: ${view.title}`,
      blocks: [
        { kind: 'paragraph', text: `New research for ${view.services.join(', ')}: ${view.title}` },
        ...researchFactBlocks(view),
        ...body,
        // A link, never the file: a 10 MB attachment would not reach most inboxes (decision 050).
        ...(view.attachment
          ? [
              {
                kind: 'paragraph' as const,
                text: `This item has a PDF attachment: ${view.attachment.name} (${view.attachment.size}), SHA-256 ${view.attachment.sha256}. Download it on the site after signing in.`,
              },
              { kind: 'action' as const, label: 'Download the PDF', path: `/research/${item.id}/attachment` },
            ]
          : []),
        { kind: 'paragraph', text: 'Disclosures:' },
        { kind: 'list', items: view.disclosures.map(({ label, answer }) => `${label}: ${answer}`) },
        ...(view.ratingDefinitions.length
          ? [
              { kind: 'paragraph' as const, text: 'What our ratings mean:' },
              { kind: 'list' as const, items: view.ratingDefinitions.map(({ label, value }) => `${label}: ${value}`) },
              { kind: 'paragraph' as const, text: RATING_DEFINITIONS_NOTE },
            ]
          : []),
        { kind: 'paragraph', text: view.analystLine },
        { kind: 'note', label: 'SEBI registration', text: view.sebiRegistrationNumber },
        { kind: 'note', label: 'BSE enlistment', text: view.bseEnlistmentNumber },
        ...(item.publishedAt
          ? [{ kind: 'note' as const, label: 'Published', text: formatIndiaDateTime(item.publishedAt) }]
          : []),
        { kind: 'note', label: 'Content SHA-256', text: view.contentSha256 ?? '' },
        { kind: 'note', label: 'Signature fingerprint', text: view.signingKeyFingerprint ?? '' },
        { kind: 'action', label: 'Read it on the site', path: `/research/${item.id}` },
      ],
    },
    context,
  )
}
