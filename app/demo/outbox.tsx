import { siteTitle } from '~/domain/business-details'
import { data } from 'react-router'
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter } from '~/domain/control-characters'
import { isOutboxEnabled, listOutboxMessages } from '~/server/messaging/outbox.server'
import type { Route } from './+types/outbox'

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: siteTitle(matches, 'Dev outbox') },
  { name: 'robots', content: 'noindex' },
]

export async function loader({ request }: Route.LoaderArgs) {
  if (!isOutboxEnabled()) throw data('Not Found', { status: 404 })
  const recipient = new URL(request.url).searchParams.get('to')
  if (recipient && hasControlCharacter(recipient)) throw data(CONTROL_CHARACTER_MESSAGE, { status: 400 })
  return { recipient, messages: await listOutboxMessages(recipient) }
}

export default function DevOutbox({ loaderData }: Route.ComponentProps) {
  const { recipient, messages } = loaderData
  return (
    <section>
      <h1 className="text-2xl font-semibold">Dev outbox</h1>
      <p className="mt-2 text-sm">
        What the store would have sent by SMS, e-mail or Telegram{recipient ? ` to ${recipient}` : ''}, newest first.
        Demo mode only.
      </p>
      {messages.length === 0 ? (
        <p className="mt-4">Nothing has been sent yet.</p>
      ) : (
        <ol className="mt-4 space-y-3">
          {messages.map((message) => (
            <li key={message.id} className="rounded-md border border-gray-200 p-3 dark:border-gray-700">
              <p className="text-xs text-gray-600 dark:text-gray-400">
                {message.channel.toUpperCase()} to {message.recipient} at{' '}
                <time dateTime={message.createdAt}>{message.createdAt}</time>
              </p>
              {message.subject ? <p className="font-medium">{message.subject}</p> : null}
              <p className="whitespace-pre-wrap">{message.body}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
