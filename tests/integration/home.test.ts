import { describe, expect, it } from 'vitest'
import { loader } from '~/routes/home'
import { confirmManualPayment, createManualPayment } from '~/server/payments/manual-claims.server'
import { cartItemOf, createPaymentRow, createService, STATEMENT_ENTRY } from '../support/payment-fixtures'
import { getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

describe('the signed-in home page', () => {
  it('greets the customer and counts active subscriptions and payments pending verification', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const equity = await createService('Equity', 299_900, 30)
    const swing = await createService('Swing', 149_900, 30)
    const paid = await createManualPayment(userId, [equity.id])
    await confirmManualPayment(paid.paymentId, STATEMENT_ENTRY)
    await createPaymentRow(userId, [cartItemOf(swing)], {
      method: 'MANUAL',
      expiresAt: new Date(Date.now() + 86_400_000),
    })

    const result = await loader(routeArgs(getRequest('/', cookie)))
    expect(result).toEqual({ name: 'Asha Rao', activeSubscriptionCount: 1, pendingPaymentCount: 1 })
  })
})
