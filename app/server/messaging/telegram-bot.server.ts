import { env, type Env } from '../env.server'
import { telegramBotApi, type TelegramBot } from './telegram.server'

// Which research bot this process sends through: the Bot API when configured, else (demo mode and
// tests) the fake in app/demo/telegram-fake.server.ts, loaded by the one dynamic import below, whose
// messages land in the dev outbox; a deployment without Telegram gets none.

type TelegramSettings = Pick<
  Env,
  | 'TELEGRAM_BOT_TOKEN'
  | 'TELEGRAM_WEBHOOK_SECRET'
  | 'TELEGRAM_BOT_USERNAME'
  | 'TELEGRAM_API_BASE_URL'
  | 'DEMO_MODE'
  | 'NODE_ENV'
>

let fakeLoading: Promise<TelegramBot> | undefined

/**
 * The bot research goes through: the real one when configured, the fake in demo mode and tests,
 * else null (a deployment without Telegram: customers cannot link it).
 */
export async function telegramBot(settings: TelegramSettings = env): Promise<TelegramBot | null> {
  if (settings.TELEGRAM_BOT_TOKEN && settings.TELEGRAM_WEBHOOK_SECRET && settings.TELEGRAM_BOT_USERNAME)
    return telegramBotApi({
      token: settings.TELEGRAM_BOT_TOKEN,
      username: settings.TELEGRAM_BOT_USERNAME,
      webhookSecret: settings.TELEGRAM_WEBHOOK_SECRET,
      baseUrl: settings.TELEGRAM_API_BASE_URL,
    })
  if (!settings.DEMO_MODE && settings.NODE_ENV !== 'test') return null
  return (fakeLoading ??= import('~/demo/telegram-fake.server').then((fake) => fake.fakeTelegramBot(settings)))
}
