import { apiGet, currentUserJson, getOnly, requireApiUser } from '~/server/api.server'
import { termsForCustomer } from '~/server/terms-versions.server'
import type { Route } from './+types/users.current-user'

export const loader = apiGet(async ({ request }: Route.LoaderArgs) => {
  const user = await requireApiUser(request)
  return Response.json(
    { data: { currentUser: currentUserJson(user, await termsForCustomer(user)) } },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
})

export const action = getOnly
