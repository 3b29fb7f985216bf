import { describe, expect, it } from 'vitest'
import * as endRoute from '~/routes/subscriptions.end'
import { prisma } from '~/server/db.server'
import { markPaymentPaid } from '~/server/payments/core.server'
import { cartItemOf, createPaymentRow, createService } from '../support/payment-fixtures'
import { formRequest, getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

/** A signed-in customer who paid for a 30-day service by bank transfer 10 days ago. */
async function customerWithSubscription() {
  const customer = await signedInUser({ completeProfile: true })
  const service = await createService('Equity', 300_000, 30)
  const paidAt = new Date(Date.now() - 10 * 86_400_000 + 60_000)
  const payment = await createPaymentRow(customer.userId, [cartItemOf(service)], {
    method: 'MANUAL',
    createdAt: paidAt,
  })
  await markPaymentPaid(payment.id, { source: 'admin', paidAt })
  return { customer, service, path: `/subscriptions/${service.id}/end` }
}

async function thrown(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise
  } catch (error) {
    if (error instanceof Response) return error
    throw error
  }
  throw new Error('expected a thrown response')
}

describe('/subscriptions/:serviceId/end', () => {
  it('shows the refund before anything ends', async () => {
    const { customer, service, path } = await customerWithSubscription()
    const shown = await endRoute.loader(routeArgs(getRequest(path, customer.cookie), { serviceId: service.id }))
    expect(shown).toMatchObject({ refundPaise: 200_000, bankTransferPaise: 200_000, gatewayPaise: 0 })
    expect(await prisma.refund.count({ where: { userId: customer.userId } })).toBe(0)
  })

  it('asks for a valid bank account, keeping what was typed, then ends it with a flash', async () => {
    const { customer, service, path } = await customerWithSubscription()
    const refused = (await endRoute.action(
      routeArgs(
        formRequest(
          path,
          { intent: 'end', accountName: 'Asha Rao', accountNumber: '12', ifsc: 'SBIN0001234' },
          customer.cookie,
        ),
        { serviceId: service.id },
      ),
    )) as unknown as { init: { status: number }; data: { result: { error: Record<string, string[]> } } }
    expect(refused.init.status).toBe(400)
    expect(refused.data.result.error.accountNumber).toEqual(['Enter the account number: 9 to 18 digits.'])
    expect(await prisma.refund.count({ where: { userId: customer.userId } })).toBe(0)

    const done = (await endRoute.action(
      routeArgs(
        formRequest(
          path,
          { intent: 'end', accountName: 'Asha Rao', accountNumber: '123456789012', ifsc: 'sbin0001234' },
          customer.cookie,
        ),
        { serviceId: service.id },
      ),
    )) as Response
    expect(done.status).toBe(302)
    expect(done.headers.get('location')).toBe('/subscriptions')
    expect(done.headers.get('set-cookie')).toMatch(/flash/)
    expect(await prisma.refund.findFirstOrThrow({ where: { userId: customer.userId } })).toMatchObject({
      amountPaise: 200_000,
      status: 'DUE',
      payeeIfsc: 'SBIN0001234',
    })

    // Sent again (a double click, the back button): nothing more is refunded.
    const again = (await endRoute.action(
      routeArgs(
        formRequest(
          path,
          { intent: 'end', accountName: 'Asha Rao', accountNumber: '123456789012', ifsc: 'SBIN0001234' },
          customer.cookie,
        ),
        { serviceId: service.id },
      ),
    )) as Response
    expect(again.headers.get('location')).toBe('/subscriptions')
    expect(await prisma.refund.count({ where: { userId: customer.userId } })).toBe(1)
  })

  it("cannot end another customer's subscription", async () => {
    const { service, path } = await customerWithSubscription()
    const stranger = await signedInUser({ completeProfile: true })
    const response = await thrown(
      endRoute.loader(routeArgs(getRequest(path, stranger.cookie), { serviceId: service.id })),
    )
    expect(response.headers.get('location')).toBe('/subscriptions')
    await endRoute.action(routeArgs(formRequest(path, { intent: 'end' }, stranger.cookie), { serviceId: service.id }))
    expect(await prisma.subscription.count({ where: { serviceId: service.id, endedAt: { not: null } } })).toBe(0)
  })
})
