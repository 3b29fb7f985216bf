import { apiGet, getOnly, requireApiUser } from '~/server/api/requests.server'
import { currentUserJson } from '~/server/api/wire-shapes.server'
import { termsForCustomer } from '~/server/account/terms-versions.server'
import type { Route } from './+types/users.current-user'

export const loader = apiGet(async ({ request }: Route.LoaderArgs) => {
  const user = await requireApiUser(request)
  return Response.json(
    { data: { currentUser: currentUserJson(user, await termsForCustomer(user)) } },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
})

export const action = getOnly
