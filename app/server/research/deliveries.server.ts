import { getErrorMessage } from '~/domain/error-message'
import { formatIndiaDateTime } from '~/domain/dates'
import { researchBlocks, type ResearchInline } from '~/domain/research'
import { RATING_DEFINITIONS_NOTE } from '~/domain/research-calls'
import { researchSmsText, researchTelegramText } from '~/domain/research-channels'
import { prisma } from '../db.server'
import { emailContext } from '../messaging/customer-notices.server'
import { archiveSentMessage, type SentMessageRecord } from '../messaging/message-archive.server'
import {
  renderEmail,
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
export const RESEARCH_DELIVERY_BATCH_SIZE = 20
/** Tries per delivery before it is FAILED (docs/limits.md). */
export const RESEARCH_DELIVERY_ATTEMPTS = 5
/** The wait after the 1st, 2nd, ... failed try: 1 min, 5 min, 30 min, 2 h (docs/limits.md). */
const BACKOFF_MS = [60_000, 300_000, 1_800_000, 7_200_000] as const
/**
 * A claimed row is not due again for this long: a worker that dies mid-batch leaves its rows to be
 * tried again after it (so a crash can send one e-mail twice, never none). Longer than a batch of
 * sends at the SMTP timeout (20 tries x 20 s).
 */
export const RESEARCH_DELIVERY_CLAIM_MS = 15 * 60_000
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

export type DeliveryRun = { sent: number; retrying: number; failed: number }

/** One batch after another until none is due at `now` or the run's time is up. */
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
  const items = new Map<string, ResearchItemRow | null>()
  while (Date.now() - startedAt < RESEARCH_DELIVERY_RUN_MS) {
    const claimed = await claimDue(now, batchSize)
    if (claimed.length === 0) break
    for (const row of claimed) {
      if (!items.has(row.item_id))
        items.set(
          row.item_id,
          await prisma.researchItem.findUnique({ where: { id: row.item_id }, select: researchItemSelect }),
        )
      run[await deliver(row, items.get(row.item_id) ?? null, context, send, senders, now)]++
    }
  }
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

async function deliver(
  row: Claimed,
  item: ResearchItemRow | null,
  context: EmailContext,
  send: ResearchEmailSender,
  senders: ChannelSenders,
  now: Date,
): Promise<keyof DeliveryRun> {
  const user = await prisma.user.findUnique({
    where: { id: row.user_id },
    select: {
      email: true,
      name: true,
      phone: true,
      closedAt: true,
      erasedAt: true,
      researchChannelChoice: { select: { telegramChatId: true } },
    },
  })
  if (!item || item.status !== 'PUBLISHED') return fail(row, 'The item is not published', now)
  if (!user || user.closedAt || user.erasedAt) return fail(row, 'The account is closed', now)
  const metric = row.channel === 'EMAIL' ? 'email' : row.channel === 'SMS' ? 'sms' : 'telegram'
  // The archive names the signed item rather than copying it once per recipient (100,000 copies of
  // a report per publication): the e-mail and the Telegram text are written from it alone.
  const signedBody = `Research item ${item.id} as published and signed (content SHA-256 ${item.contentSha256})`
  let attempt: () => Promise<string | void>
  let sent: SentMessageRecord
  switch (row.channel) {
    case 'EMAIL': {
      const to = user.email
      if (!to) return fail(row, 'No e-mail address on the account', now)
      const email = { to, userId: row.user_id, ...researchEmail(item, user.name, context) }
      attempt = () => send(email)
      sent = {
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
      if (!user.phone.startsWith('+')) return fail(row, 'No mobile number on the account', now)
      const text = researchSmsText({
        business: context.business.name,
        title: item.title,
        link: itemLink(item, context),
      })
      attempt = () => senders.sms({ to: user.phone, text, userId: row.user_id, template: 'research' })
      sent = { userId: row.user_id, channel: 'sms', recipient: user.phone, template: 'research', body: text }
      break
    }
    case 'TELEGRAM': {
      const chatId = user.researchChannelChoice?.telegramChatId
      const bot = senders.telegram
      if (!chatId) return fail(row, 'Telegram is not linked', now)
      if (!bot) return fail(row, 'Telegram is not configured (TELEGRAM_BOT_TOKEN)', now)
      const { text } = researchTelegram(item, context)
      attempt = async () => {
        const delay = await senders.pace(chatId, senders.clock())
        if (delay > 0) await senders.wait(delay)
        return bot.sendMessage(chatId, text)
      }
      sent = { userId: row.user_id, channel: 'telegram', recipient: chatId, template: 'research', body: signedBody }
      break
    }
  }
  try {
    const messageId = await attempt()
    countMessage(metric, 'sent')
    await archiveSentMessage({ ...sent, providerMessageId: messageId || null }, now)
    await prisma.researchDelivery.updateMany({
      where: { id: row.id, status: 'QUEUED' },
      data: { status: 'SENT', sentAt: now, providerMessageId: messageId || null, lastError: null },
    })
    return 'sent'
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
      return fail(row, `Telegram refused (the bot was blocked or the chat is gone): ${reason}`, now)
    }
    const retryable =
      error instanceof MailDeliveryError || error instanceof SmsDeliveryError || error instanceof TelegramDeliveryError
        ? error.retryable
        : true
    if (!retryable || row.attempts >= RESEARCH_DELIVERY_ATTEMPTS) return fail(row, reason, now)
    const waitMs = Math.max(
      researchDeliveryBackoffMs(row.attempts),
      error instanceof TelegramDeliveryError ? (error.retryAfterMs ?? 0) : 0,
    )
    await prisma.researchDelivery.updateMany({
      where: { id: row.id, status: 'QUEUED' },
      data: { nextAttemptAt: new Date(now.getTime() + waitMs), lastError: reason },
    })
    return 'retrying'
  }
}

async function fail(row: Claimed, reason: string, now: Date): Promise<'failed'> {
  await prisma.researchDelivery.updateMany({
    where: { id: row.id, status: 'QUEUED' },
    data: { status: 'FAILED', failedAt: now, lastError: reason },
  })
  return 'failed'
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

/** The whole item as an e-mail: its text, disclosures, issuer, signature and a link to its page. */
export function researchEmail(item: ResearchItemRow, name: string | null, context: EmailContext): RenderedEmail {
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
  return renderEmail(
    {
      template: 'research',
      subject: `Research: ${view.title}`,
      name,
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
