import { PayerAccountNameSchema } from '~/domain/bank-reference'
import { CheckoutRequestSchema } from '~/domain/checkout-request'
import { rupeesToPaise } from '~/domain/money'
import { apiPost, paymentErrorResponse, postOnly, readJsonBody, requireApiCustomer } from '~/server/api/requests.server'
import { createManualPayment } from '~/server/payments/manual-claims.server'
import type { Route } from './+types/payments.manual-payment'

export const loader = postOnly

/** The checkout request, and optionally the name on the account the transfer comes from. */
const ManualPaymentRequestSchema = CheckoutRequestSchema.extend({ payerAccountName: PayerAccountNameSchema.optional() })

/**
 * "I'll Pay & Send Screenshot": a claim for the cart awaiting the team's check. A double submit
 * (an `Idempotency-Key` header, or the same cart within a minute) answers the first claim.
 */
export const action = apiPost(async ({ request }: Route.ActionArgs) => {
  const user = await requireApiCustomer(request)
  const { amount, notes, payerAccountName } = await readJsonBody(request, ManualPaymentRequestSchema)
  const idempotencyKey = request.headers.get('Idempotency-Key')?.trim().slice(0, 100) || undefined
  try {
    const claim = await createManualPayment(user.id, notes.cart, {
      expectedAmountPaise: rupeesToPaise(amount),
      idempotencyKey,
      payerAccountName,
    })
    return Response.json({
      message: 'Payment recorded; it will be confirmed once the transfer is checked.',
      data: {
        paymentId: claim.paymentId,
        amount: claim.amountPaise,
        expiresAt: claim.expiresAt.toISOString(),
        created: claim.created,
      },
    })
  } catch (error) {
    return paymentErrorResponse(error)
  }
})
