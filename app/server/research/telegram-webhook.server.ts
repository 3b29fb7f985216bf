import { createHash, timingSafeEqual } from 'node:crypto'
import { getErrorMessage } from '~/domain/error-message'
import { prisma } from '../db.server'
import { telegramBot } from '../messaging/telegram-bot.server'
import type { TelegramBot } from '../messaging/telegram.server'
import { loggerFor } from '../operations/logger.server'
import { linkTelegramChat, unlinkTelegramChat } from './channels.server'
import { archiveSentMessage } from '../messaging/message-archive.server'

const log = loggerFor('telegram')

// POST /webhooks/telegram (docs/research.md, "Telegram"): Telegram's updates to the research bot.
// Only a request carrying the webhook secret is read; an update id seen before is answered and
// ignored (Telegram re-sends until it gets a 200); "/start <token>" links, "/stop" unlinks.

/** The largest update read; a text message is far smaller (docs/limits.md). */
export const TELEGRAM_UPDATE_MAX_BYTES = 64 * 1024

const digest = (text: string) => createHash('sha256').update(text).digest()

/** Constant-time: both sides hashed to the same length first. */
export function telegramSecretMatches(given: string | null, expected: string): boolean {
  return given !== null && timingSafeEqual(digest(given), digest(expected))
}

type Update = {
  update_id?: unknown
  message?: { text?: unknown; chat?: { id?: unknown; type?: unknown } }
}

const START = /^\/start(?:@\w+)?\s+([A-Za-z0-9_-]{1,64})$/
const STOP = /^\/stop(?:@\w+)?$/

const json = (body: unknown, status = 200) => Response.json(body, { status })

export async function receiveTelegramUpdate(request: Request, now = new Date()): Promise<Response> {
  const bot = await telegramBot()
  if (!bot) return json({ message: 'Not Found' }, 404)
  if (!telegramSecretMatches(request.headers.get('x-telegram-bot-api-secret-token'), bot.webhookSecret))
    return json({ message: 'The secret token is missing or wrong' }, 401)
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > TELEGRAM_UPDATE_MAX_BYTES) return json({ message: 'The update is too large' }, 413)
  const raw = await request.text()
  if (Buffer.byteLength(raw) > TELEGRAM_UPDATE_MAX_BYTES) return json({ message: 'The update is too large' }, 413)
  let update: Update
  try {
    update = JSON.parse(raw) as Update
  } catch {
    return json({ message: 'The update is not JSON' }, 400)
  }
  const updateId = update?.update_id
  if (typeof updateId !== 'number' || !Number.isSafeInteger(updateId) || updateId < 0)
    return json({ message: 'The update has no update_id' }, 400)
  const fresh = await prisma.$executeRaw`
    INSERT INTO telegram_updates (update_id, received_at) VALUES (${BigInt(updateId)}, ${now}::timestamptz)
    ON CONFLICT DO NOTHING`
  if (fresh === 0) return json({ ok: true, handled: 'replay' })
  try {
    return json({ ok: true, handled: await handleMessage(bot, update, now) })
  } catch (error) {
    // Not handled: Telegram's retry of this update must be read again.
    await prisma.telegramUpdate.deleteMany({ where: { updateId: BigInt(updateId) } })
    throw error
  }
}

async function handleMessage(bot: TelegramBot, update: Update, now: Date): Promise<string> {
  const message = update.message
  const chatId = message?.chat?.id
  const text = typeof message?.text === 'string' ? message.text.trim() : ''
  if (typeof chatId !== 'number' || !Number.isSafeInteger(chatId) || message?.chat?.type !== 'private') return 'ignored'
  const chat = String(chatId)
  const start = START.exec(text)
  if (start) {
    const linked = await linkTelegramChat(start[1]!, chat, now)
    await reply(
      bot,
      chat,
      linked.ok
        ? 'Linked. New research for your subscriptions will arrive here. Send /stop to unlink.'
        : 'This link has expired or was already used. Make a new one on your account page.',
    )
    return linked.ok ? 'linked' : linked.reason
  }
  if (STOP.test(text)) {
    const unlinked = await unlinkTelegramChat(chat, now)
    await reply(bot, chat, 'Unlinked. No research will be sent here; link again from your account page.')
    return unlinked ? 'unlinked' : 'not-linked'
  }
  return 'ignored'
}

/** The bot's answer in the chat: a courtesy, so a failure is logged and the update still handled. */
async function reply(bot: TelegramBot, chatId: string, text: string): Promise<void> {
  try {
    const providerMessageId = await bot.sendMessage(chatId, text)
    const linked = await prisma.researchChannelChoice.findUnique({
      where: { telegramChatId: chatId },
      select: { userId: true },
    })
    await archiveSentMessage({
      userId: linked?.userId,
      channel: 'telegram',
      recipient: chatId,
      template: 'telegram-reply',
      body: text,
      providerMessageId,
    })
  } catch (error) {
    log.warn(`The bot's reply in a chat failed: ${getErrorMessage(error)}`)
  }
}
