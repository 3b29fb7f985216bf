import { requireAdmin } from '~/server/auth/admin-role.server'
import { panCardKeyForAdmin } from '~/server/admin/customers.server'
import { panCardResponse } from '~/server/kyc/pan-card-image.server'
import type { Route } from './+types/customer-pan-card'

/** A customer's PAN card image, for admins only; `?correction=<id>`: the one a correction request proposes. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await requireAdmin(request)
  const correctionId = new URL(request.url).searchParams.get('correction')
  return panCardResponse(await panCardKeyForAdmin(admin.id, params.userId, correctionId))
}
