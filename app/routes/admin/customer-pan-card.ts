import { requireAdmin } from '~/server/auth/admin-role.server'
import { panCardKeyForAdmin } from '~/server/admin/customers.server'
import { panCardResponse } from '~/server/kyc/pan-card-image.server'
import type { Route } from './+types/customer-pan-card'

/** A customer's PAN card image, for admins only. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await requireAdmin(request)
  return panCardResponse(await panCardKeyForAdmin(admin.id, params.userId))
}
