import { recordAudit } from '~/server/audit.server'
import { requireAdmin } from '~/server/admin.server'
import { panCardKeyOf } from '~/server/admin-customers.server'
import { prisma } from '~/server/db.server'
import { panCardResponse } from '~/server/pan-card-image.server'
import type { Route } from './+types/customer-pan-card'

/** A customer's PAN card image, for admins only; every view is audited (it is identity data). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await requireAdmin(request)
  const key = await panCardKeyOf(params.userId)
  if (key) {
    await prisma.$transaction((tx) =>
      recordAudit(tx, {
        actorId: admin.id,
        action: 'customer.pan-card.view',
        subjectType: 'User',
        subjectId: params.userId,
        before: null,
        after: null,
      }),
    )
  }
  return panCardResponse(key)
}
