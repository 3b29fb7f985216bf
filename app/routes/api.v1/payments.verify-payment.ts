import { CheckoutResponseSchema } from '~/domain/checkout-request'
import { paymentErrorResponse, postOnly, readJsonBody, requireApiUser } from '~/server/api.server'
import { verifyCheckoutPayment } from '~/server/payments.server'
import type { Route } from './+types/payments.verify-payment'

export const loader = postOnly

/**
 * The checkout's success response: 200 once the payment is captured and the subscriptions exist.
 * Pending (signed, but the bank has not confirmed the capture yet) answers 202, so the client re-verifies.
 */
export async function action({ request }: Route.ActionArgs) {
  await requireApiUser(request)
  const { razorpayResponse } = await readJsonBody(request, CheckoutResponseSchema)
  try {
    const result = await verifyCheckoutPayment(
      { orderId: razorpayResponse.razorpay_order_id, paymentId: razorpayResponse.razorpay_payment_id, signature: razorpayResponse.razorpay_signature },
      { source: 'checkout' },
    )
    if (result.status === 'pending') {
      return Response.json({ message: 'Payment received; waiting for the bank to confirm it.', data: { paymentId: result.paymentId, status: 'pending' } }, { status: 202 })
    }
    return Response.json({ message: 'Payment verified.', data: { paymentId: result.paymentId, status: 'paid' } })
  } catch (error) {
    return paymentErrorResponse(error)
  }
}
