import { apiGet, getOnly, requireApiUser } from '~/server/api/requests.server'
import { pendingPaymentJson } from '~/server/api/wire-shapes.server'
import { pendingPayments } from '~/server/payments/core.server'
import type { Route } from './+types/payments.pending-payments'

/**
 * "Payment(s) Pending for Verification" (docs/product.md section 2): manual claims awaiting the team and gateway
 * orders still open.
 */
export const loader = apiGet(async ({ request }: Route.LoaderArgs) => {
  const user = await requireApiUser(request)
  const payments = await pendingPayments(user.id, new Date())
  return Response.json(
    { data: { data: { payments: payments.map(pendingPaymentJson) } } },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
})

export const action = getOnly
