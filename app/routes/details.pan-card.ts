import { requireUser } from '~/server/auth/sign-in.server'
import { panCardResponse } from '~/server/kyc/pan-card-image.server'
import type { Route } from './+types/details.pan-card'

/** The signed-in user's own PAN card image (admins get theirs in the admin console). */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  return panCardResponse(user.panCardKey)
}
