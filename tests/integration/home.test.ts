import { describe, expect, it } from 'vitest'
import { loader } from '~/routes/home'
import { prisma } from '~/server/db.server'
import { confirmManualPayment, createManualPayment } from '~/server/payments/manual-claims.server'
import { createSession } from '~/server/session.server'
import { cartItemOf, createPaymentRow, createService, createUser } from '../support/payment-fixtures'

describe('the signed-in home page', () => {
  it('greets the customer and counts active subscriptions and payments pending verification', async () => {
    const userId = await createUser()
    await prisma.user.update({
      where: { id: userId },
      data: {
        name: 'asha rao',
        email: 'asha@example.in',
        dateOfBirth: new Date('2001-05-17'),
        pan: 'ABCPE1234F',
        panCardKey: 'pan-cards/x/1.png',
        agreementAcceptedAt: new Date(),
      },
    })
    const equity = await createService('Equity', 299_900, 30)
    const swing = await createService('Swing', 149_900, 30)
    const paid = await createManualPayment(userId, [equity.id])
    await confirmManualPayment(paid.paymentId)
    await createPaymentRow(userId, [cartItemOf(swing)], {
      method: 'MANUAL',
      expiresAt: new Date(Date.now() + 86_400_000),
    })

    const cookie = (await createSession(userId)).split(';')[0]!
    const result = await loader({
      request: new Request('http://localhost/', { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    } as never)
    expect(result).toEqual({ name: 'asha rao', activeSubscriptionCount: 1, pendingPaymentCount: 1 })
  })
})
