import { apiPost, postOnly, requireApiUser } from '~/server/api/requests.server'
import type { Route } from './+types/users.refresh-token'

export const loader = postOnly

/** The session is the token: a live one is extended (rolling expiry) and its number returned. */
export const action = apiPost(async ({ request }: Route.ActionArgs) => {
  const user = await requireApiUser(request)
  return Response.json({ data: { number: user.phone } })
})
