import type { Env } from '~/server/env.server'
import { recordOutboxMessage } from '~/server/messaging/outbox.server'
import { fakeTelegramWebhookSecret, type TelegramBot } from '~/server/messaging/telegram.server'

// The fake research bot (demo mode and tests only; loaded by telegramBot() in
// app/server/messaging/telegram.server.ts): what it "sends" lands in the dev outbox, to
// "telegram:<chat id>". /dev/telegram/start plays the customer pressing Start in Telegram.

export const FAKE_TELEGRAM_BOT_USERNAME = 'ResearchStoreDemoBot'

/** The outbox's recipient for a chat of the fake bot. */
export const fakeTelegramRecipient = (chatId: string) => `telegram:${chatId}`

/** A deployment (DEMO_MODE=0) would "deliver" research to nobody: the fake refuses to run there. */
export function assertTelegramFakeAllowed(mode: Pick<Env, 'DEMO_MODE' | 'NODE_ENV'>): void {
  if (!mode.DEMO_MODE && mode.NODE_ENV !== 'test')
    throw new Error(
      'The fake Telegram bot cannot run with DEMO_MODE=0: set TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET and TELEGRAM_BOT_USERNAME',
    )
}

export function fakeTelegramBot(mode: Pick<Env, 'DEMO_MODE' | 'NODE_ENV'>): TelegramBot {
  assertTelegramFakeAllowed(mode)
  return {
    name: 'fake Telegram bot',
    username: FAKE_TELEGRAM_BOT_USERNAME,
    webhookSecret: fakeTelegramWebhookSecret(),
    sendMessage: async (chatId, text) =>
      recordOutboxMessage({ channel: 'telegram', recipient: fakeTelegramRecipient(chatId), body: text }),
  }
}
