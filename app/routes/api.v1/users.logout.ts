import { apiPost, postOnly } from '~/server/api/requests.server'
import { signOutHeaders } from '~/server/auth/sign-out.server'
import type { Route } from './+types/users.logout'

export const loader = postOnly

export const action = apiPost(async ({ request }: Route.ActionArgs) => {
  return Response.json({ message: 'Signed out.' }, { headers: await signOutHeaders(request) })
})
