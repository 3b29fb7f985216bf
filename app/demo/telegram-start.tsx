import { siteTitle } from '~/domain/business-details'
import { data, Form } from 'react-router'
import { Field, FormMessage, StatusButton } from '~/components/forms'
import { isOutboxEnabled } from '~/server/messaging/outbox.server'
import { telegramBot } from '~/server/messaging/telegram-bot.server'
import { receiveTelegramUpdate } from '~/server/research/telegram-webhook.server'
import type { Route } from './+types/telegram-start'

// The customer pressing Start in Telegram, for the fake bot (demo mode and tests): the deep link's
// token, sent as Telegram would, with the webhook secret, through the real webhook handler.

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: siteTitle(matches, 'Fake Telegram') },
  { name: 'robots', content: 'noindex' },
]

const TOKEN = /^[A-Za-z0-9_-]{1,64}$/
const CHAT_ID = /^[1-9]\d{0,14}$/
const randomUpTo = (limit: number) => Math.floor(Math.random() * limit)

export async function loader({ request }: Route.LoaderArgs) {
  if (!isOutboxEnabled()) throw data('Not Found', { status: 404 })
  const token = new URL(request.url).searchParams.get('start') ?? ''
  if (!TOKEN.test(token)) throw data('Open this page from a deep link: ?start=<token>', { status: 400 })
  return { token, chatId: String(100_000_000 + randomUpTo(900_000_000)) }
}

export async function action({ request }: Route.ActionArgs) {
  if (!isOutboxEnabled()) throw data('Not Found', { status: 404 })
  const form = await request.formData()
  const token = String(form.get('token') ?? '')
  const chatId = String(form.get('chatId') ?? '')
  if (!TOKEN.test(token) || !CHAT_ID.test(chatId))
    return data({ linked: false, outcome: 'Give the token and a chat id of digits.', chatId }, 400)
  const bot = (await telegramBot())!
  const update = {
    update_id: 1 + randomUpTo(2 ** 47),
    message: { message_id: 1, chat: { id: Number(chatId), type: 'private' }, text: `/start ${token}` },
  }
  const answer = await receiveTelegramUpdate(
    new Request(new URL('/webhooks/telegram', request.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': bot.webhookSecret },
      body: JSON.stringify(update),
    }),
  )
  const { handled } = (await answer.json()) as { handled?: string }
  const linked = handled === 'linked'
  return { linked, outcome: linked ? `Chat ${chatId} is linked.` : `Not linked: ${handled}.`, chatId }
}

export default function FakeTelegramStart({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-lg space-y-4">
      <h1 className="text-2xl font-semibold">Fake Telegram</h1>
      <p className="text-sm">
        Demo mode only: what pressing Start on the research bot&apos;s deep link does. The bot&apos;s messages to this
        chat appear in the dev outbox, to telegram:&lt;chat id&gt;.
      </p>
      {actionData ? (
        <FormMessage tone={actionData.linked ? 'success' : 'error'}>{actionData.outcome}</FormMessage>
      ) : null}
      <Form method="post" className="space-y-3">
        <input type="hidden" name="token" value={loaderData.token} />
        <Field
          label="Chat id"
          inputProps={{ name: 'chatId', id: 'chat-id', defaultValue: actionData?.chatId ?? loaderData.chatId }}
        />
        <StatusButton>Start</StatusButton>
      </Form>
    </section>
  )
}
