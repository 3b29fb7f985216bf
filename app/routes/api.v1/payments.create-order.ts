import { CheckoutRequestSchema } from '~/domain/checkout-request'
import { rupeesToPaise } from '~/domain/money'
import { apiPost, paymentErrorResponse, postOnly, readJsonBody, requireApiCustomer } from '~/server/api/requests.server'
import { startGatewayPayment } from '~/server/payments/checkout.server'
import type { Route } from './+types/payments.create-order'

export const loader = postOnly

/** Opens a gateway order for the cart in notes.cart at the server's prices; the client's amount must match them (else 409). */
export const action = apiPost(async ({ request }: Route.ActionArgs) => {
  const user = await requireApiCustomer(request)
  const { amount, notes } = await readJsonBody(request, CheckoutRequestSchema)
  try {
    const started = await startGatewayPayment(user.id, notes.cart, { expectedAmountPaise: rupeesToPaise(amount) })
    return Response.json({
      message: 'Order created.',
      data: {
        data: {
          order: { id: started.orderId, amount: started.amountPaise, currency: started.currency },
          key: started.keyId,
          paymentId: started.paymentId,
        },
      },
    })
  } catch (error) {
    return paymentErrorResponse(error)
  }
})
