import { postOnly } from '~/server/api/requests.server'
import { receiveTelegramUpdate } from '~/server/research/telegram-webhook.server'
import type { Route } from './+types/webhooks.telegram'

export const loader = postOnly

/**
 * The research bot's updates from Telegram (setWebhook with secret_token; docs/research.md,
 * "Telegram"). The X-Telegram-Bot-Api-Secret-Token header is the check; Telegram sends no Origin.
 */
export async function action({ request }: Route.ActionArgs) {
  return receiveTelegramUpdate(request)
}
