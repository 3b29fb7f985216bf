import { z } from 'zod'
import { apiPost, postOnly, readJsonBody, requireApiUser } from '~/server/api/requests.server'
import { cancelGatewayPayment } from '~/server/payments/checkout.server'
import type { Route } from './+types/payments.cancel-payment'

const Body = z.object({
  orderId: z.string({ error: 'Send orderId: the order the checkout was opened for.' }).min(1, 'Send orderId.'),
})

export const loader = postOnly

/** The customer closed the checkout. Not final: a capture that still arrives pays. */
export const action = apiPost(async ({ request }: Route.ActionArgs) => {
  const user = await requireApiUser(request)
  const { orderId } = await readJsonBody(request, Body)
  const cancelled = await cancelGatewayPayment(user.id, orderId)
  return Response.json({ message: cancelled ? 'Payment cancelled.' : 'Nothing to cancel.', data: { cancelled } })
})
