import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter } from '~/domain/plain-text'
import { isOutboxEnabled, listOutboxMessages } from '~/server/outbox.server'
import type { Route } from './+types/dev.outbox.json'

/** `/dev/outbox.json?to=<E.164 number or e-mail>`: newest first; what the end-to-end suite reads codes from. */
export async function loader({ request }: Route.LoaderArgs) {
  if (!isOutboxEnabled()) return Response.json({ message: 'Not Found' }, { status: 404 })
  const recipient = new URL(request.url).searchParams.get('to')
  if (recipient && hasControlCharacter(recipient)) return Response.json({ message: CONTROL_CHARACTER_MESSAGE }, { status: 400 })
  return Response.json({ messages: await listOutboxMessages(recipient) }, { headers: { 'Cache-Control': 'no-store' } })
}
