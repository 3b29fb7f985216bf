import { z } from 'zod'
import { failedOrderId, failureReason } from '~/domain/checkout-request'
import { apiError, apiPost, postOnly, readJsonBody, requireApiUser } from '~/server/api/requests.server'
import { recordGatewayFailure } from '~/server/payments/checkout.server'
import type { Route } from './+types/payments.failed-payment'

const Body = z.object({ response: z.unknown() })

export const loader = postOnly

/** The checkout reported a failed attempt: recorded on the customer's own open order, not final (a late capture still pays). */
export const action = apiPost(async ({ request }: Route.ActionArgs) => {
  const user = await requireApiUser(request)
  const { response } = await readJsonBody(request, Body)
  const orderId = failedOrderId(response)
  if (!orderId) return apiError(400, "Send response: the checkout's failure response, with metadata.order_id.")
  const recorded = await recordGatewayFailure({ orderId, reason: failureReason(response), userId: user.id })
  return Response.json({ message: 'Payment failure recorded.', data: { recorded } })
})
