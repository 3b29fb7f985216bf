import { getErrorMessage } from '~/domain/error-message'
import { serverSecret } from '../secrets.server'

// The research bot on Telegram (docs/research.md, "Telegram"): the Bot API's sendMessage over plain
// fetch (decision 038). Which bot a process uses (this one or the demo's fake) is telegram-bot.server.ts.

/** How long sendMessage waits for Telegram (docs/limits.md). */
export const TELEGRAM_REQUEST_TIMEOUT_MS = 10_000

export class TelegramDeliveryError extends Error {
  override name = 'TelegramDeliveryError'
  constructor(
    message: string,
    /** A retry may succeed (network failure, 429, 5xx); a 400 or 403 fails the same way again. */
    readonly retryable: boolean,
    /** Telegram answered 403: the user blocked the bot (or deleted their account); the link is dead. */
    readonly blocked = false,
    /** Telegram's 429 says how long to wait (parameters.retry_after), in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message)
  }
}

export type TelegramBot = {
  name: string
  /** Without @, for the deep link t.me/<username>?start=<token>. */
  username: string
  /** What Telegram sends in X-Telegram-Bot-Api-Secret-Token with each update. */
  webhookSecret: string
  /** Sends plain text (no parse_mode: nothing in it is markup) and answers Telegram's message id. */
  sendMessage: (chatId: string, text: string) => Promise<string>
}

type BotApiAnswer = {
  ok?: boolean
  description?: string
  result?: { message_id?: number }
  parameters?: { retry_after?: number }
}

export function telegramBotApi({
  token,
  username,
  webhookSecret,
  baseUrl,
}: {
  token: string
  username: string
  webhookSecret: string
  baseUrl: string
}): TelegramBot {
  return {
    name: 'Telegram',
    username,
    webhookSecret,
    async sendMessage(chatId, text) {
      let response: Response
      try {
        response = await fetch(new URL(`/bot${token}/sendMessage`, baseUrl), {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ chat_id: chatId, text, link_preview_options: { is_disabled: true } }),
          signal: AbortSignal.timeout(TELEGRAM_REQUEST_TIMEOUT_MS),
        })
      } catch (error) {
        throw new TelegramDeliveryError(`Telegram could not be reached: ${getErrorMessage(error)}`, true)
      }
      const answer = (await response.json().catch(() => ({}))) as BotApiAnswer
      const description = String(answer.description ?? '').slice(0, 200)
      if (response.ok && answer.ok && answer.result?.message_id !== undefined) return String(answer.result.message_id)
      if (response.status === 403) throw new TelegramDeliveryError(`Telegram answered 403: ${description}`, false, true)
      if (response.status === 429) {
        const seconds = Number(answer.parameters?.retry_after ?? 1)
        throw new TelegramDeliveryError(`Telegram answered 429: ${description}`, true, false, seconds * 1000)
      }
      throw new TelegramDeliveryError(
        `Telegram answered ${response.status}: ${description}`,
        response.status >= 500 || response.ok,
      )
    },
  }
}

/** The fake bot answers to this secret (derived from SESSION_SECRET or the demo secret, never configured). */
export function fakeTelegramWebhookSecret(): string {
  return serverSecret('telegram-fake-webhook-secret')
}
