import { activeSubscriptionJson } from '~/server/api/wire-shapes.server'
import { apiGet, getOnly, requireApiUser } from '~/server/api/requests.server'
import { activeSubscriptions } from '~/server/payments/subscriptions.server'
import type { Route } from './+types/subscriptions.get-active-subscriptions'

/** One entry per service still running, with its latest end. */
export const loader = apiGet(async ({ request }: Route.LoaderArgs) => {
  const user = await requireApiUser(request)
  const subscriptions = await activeSubscriptions(user.id, new Date())
  return Response.json(
    { data: { data: { activeSubscriptions: subscriptions.map(activeSubscriptionJson) } } },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
})

export const action = getOnly
