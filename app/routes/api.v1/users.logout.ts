import { apiPost, postOnly } from '~/server/api/requests.server'
import { destroySession } from '~/server/session.server'
import type { Route } from './+types/users.logout'

export const loader = postOnly

export const action = apiPost(async ({ request }: Route.ActionArgs) => {
  return Response.json({ message: 'Signed out.' }, { headers: { 'Set-Cookie': await destroySession(request) } })
})
