import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter } from '~/domain/control-characters'
import { isOutboxEnabled, listOutboxMessages } from '~/server/messaging/outbox.server'
import type { Route } from './+types/outbox.json'

/**
 * `/dev/outbox.json?to=<E.164 number or e-mail>`: newest first; what the end-to-end suite reads codes
 * from. One recipient's messages only: a list of everyone's would hand out every sign-in code at once.
 */
export async function loader({ request }: Route.LoaderArgs) {
  if (!isOutboxEnabled()) return Response.json({ message: 'Not Found' }, { status: 404 })
  const recipient = new URL(request.url).searchParams.get('to')
  if (!recipient) {
    return Response.json(
      {
        message: 'Query parameter "to" is required: the phone number (+919876543210) or e-mail whose messages to list',
      },
      { status: 400 },
    )
  }
  if (hasControlCharacter(recipient)) return Response.json({ message: CONTROL_CHARACTER_MESSAGE }, { status: 400 })
  return Response.json({ messages: await listOutboxMessages(recipient) }, { headers: { 'Cache-Control': 'no-store' } })
}
