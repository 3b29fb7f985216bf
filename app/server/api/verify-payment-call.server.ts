import { CheckoutResponseSchema } from '~/domain/checkout-request'
import { verifyCheckoutPayment } from '../payments/checkout.server'
import { paymentErrorResponse, readJsonBody, requireApiUser } from './requests.server'

/**
 * verify-payment and re-verify-payment: 200 once the payment is captured and the subscriptions
 * exist; 202 while it is signed but the bank has not confirmed the capture (the webhook or the
 * reconciliation job pays it then); 400 for a forged or foreign signature, and the same 400 for
 * an order that is unknown or another customer's, so order ids cannot be probed.
 */
export async function verifyPaymentCall(request: Request, source: 'checkout' | 'reverify'): Promise<Response> {
  const user = await requireApiUser(request)
  const { razorpayResponse } = await readJsonBody(request, CheckoutResponseSchema)
  try {
    const result = await verifyCheckoutPayment(razorpayResponse, { source, userId: user.id })
    if (result.status === 'pending') {
      return Response.json(
        {
          message: 'Payment received; waiting for the bank to confirm it.',
          data: { paymentId: result.paymentId, status: 'pending' },
        },
        { status: 202 },
      )
    }
    return Response.json({ message: 'Payment verified.', data: { paymentId: result.paymentId, status: 'paid' } })
  } catch (error) {
    return paymentErrorResponse(error)
  }
}
