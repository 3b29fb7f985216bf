import { currentUserJson, requireApiUser } from '~/server/api.server'
import type { Route } from './+types/users.current-user'

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireApiUser(request)
  return Response.json({ data: { currentUser: currentUserJson(user) } }, { headers: { 'Cache-Control': 'private, no-store' } })
}
