import { telegramSlot } from '~/domain/research-channels'
import { prisma } from '../db.server'

// Telegram's limits hold for the bot, whichever instance sends (docs/limits.md, "Research
// delivery"): each send books its slot in the database, the bot's under the one telegram_pace row's
// lock and the chat's under its channel-choice row's, so instances running the delivery job at once
// keep one pace between them.

/** Books the next slot for a message to `chatId`; answers how many ms to wait before sending it. */
export async function reserveTelegramSlot(chatId: string, nowMs: number): Promise<number> {
  return prisma.$transaction(async (tx) => {
    const [bot] = await tx.$queryRaw<{ next_at_ms: number }[]>`
      SELECT next_at_ms FROM telegram_pace WHERE singleton FOR UPDATE`
    const [chat] = await tx.$queryRaw<{ free_at_ms: number | null }[]>`
      SELECT telegram_free_at_ms AS free_at_ms FROM research_channel_choices WHERE telegram_chat_id = ${chatId} FOR UPDATE`
    const slot = telegramSlot(nowMs, bot?.next_at_ms ?? 0, chat?.free_at_ms ?? 0)
    await tx.$executeRaw`UPDATE telegram_pace SET next_at_ms = ${slot.botFreeAtMs} WHERE singleton`
    await tx.$executeRaw`
      UPDATE research_channel_choices SET telegram_free_at_ms = ${slot.chatFreeAtMs} WHERE telegram_chat_id = ${chatId}`
    return slot.waitMs
  })
}
