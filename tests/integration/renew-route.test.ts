import { describe, expect, it } from 'vitest'
import { formatIndiaDate, MS_PER_DAY } from '~/domain/dates'
import * as payRoute from '~/routes/pay'
import * as renewRoute from '~/routes/renew'
import * as subscriptionsRoute from '~/routes/subscriptions'
import { prisma } from '~/server/db.server'
import { markPaymentPaid } from '~/server/payments/core.server'
import { cartItemOf, createPaymentRow, createService } from '../support/payment-fixtures'
import { getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

// The one-tap renewal (docs/payments.md, "Renewals"): /renew/:serviceId puts the service in the
// cart and opens /pay, which states the new period from the current end.

async function thrown(promise: Promise<unknown>): Promise<Response> {
  try {
    const value = await promise
    if (value instanceof Response) return value
  } catch (error) {
    if (error instanceof Response) return error
    throw error
  }
  throw new Error('expected a response')
}

/** A customer who paid for a 30-day service 20 days ago: 10 days left. */
async function customerWithSubscription() {
  const customer = await signedInUser({ completeProfile: true })
  const service = await createService('Equity', 300_000, 30)
  const paidAt = new Date(Date.now() - 20 * MS_PER_DAY)
  const payment = await createPaymentRow(customer.userId, [cartItemOf(service)], {
    method: 'MANUAL',
    createdAt: paidAt,
  })
  await markPaymentPaid(payment.id, { source: 'admin', paidAt })
  const subscription = await prisma.subscription.findFirstOrThrow({ where: { paymentId: payment.id } })
  return { customer, service, endsAt: subscription.endsAt }
}

const renew = (serviceId: string, cookie?: string) =>
  thrown(renewRoute.loader(routeArgs(getRequest(`/renew/${serviceId}`, cookie), { serviceId })))

describe('/renew/:serviceId', () => {
  it('asks a visitor to sign in first, and comes back here', async () => {
    const service = await createService('Equity', 300_000, 30)
    const response = await renew(service.id)
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe(`/auth?redirectTo=%2Frenew%2F${service.id}`)
  })

  it('puts the service in the cart and opens /pay, which states the new period from the current end', async () => {
    const { customer, service, endsAt } = await customerWithSubscription()
    const response = await renew(service.id, customer.cookie)
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/pay')
    const cart = response.headers.get('Set-Cookie')!
    expect(cart).toMatch(/^cart=/)

    const pay = (await payRoute.loader(routeArgs(getRequest('/pay', [customer.cookie, cart])))) as unknown as {
      data: { items: { serviceId: string; period: string | null }[] }
    }
    const newEnd = new Date(endsAt.getTime() + 30 * MS_PER_DAY)
    expect(pay.data.items).toEqual([
      expect.objectContaining({
        serviceId: service.id,
        period: `Renewal: ${formatIndiaDate(endsAt)} (when your current period ends) to ${formatIndiaDate(newEnd)}`,
      }),
    ])
  })

  it('a service taken off sale gets a page saying so, and the cart is left alone', async () => {
    const { customer, service } = await customerWithSubscription()
    await prisma.service.update({ where: { id: service.id }, data: { active: false } })
    const answer = await renewRoute.loader(
      routeArgs(getRequest(`/renew/${service.id}`, customer.cookie), { serviceId: service.id }),
    )
    expect(answer).toEqual({ offSale: { name: service.name } })
  })

  it('an unknown service is not found', async () => {
    const customer = await signedInUser({ completeProfile: true })
    for (const serviceId of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      await expect(
        renewRoute.loader(routeArgs(getRequest(`/renew/${serviceId}`, customer.cookie), { serviceId })),
      ).rejects.toMatchObject({ init: { status: 404 } })
    }
  })
})

describe('/subscriptions offers "Renew"', () => {
  it('on a running service and one ended in the last 30 days, not on one ended longer ago', async () => {
    const { customer, service } = await customerWithSubscription()
    const ended = await createService('Ended', 100_000, 30)
    const old = await createService('Old', 100_000, 30)
    for (const [each, endedDaysAgo] of [
      [ended, 5],
      [old, 40],
    ] as const) {
      const paidAt = new Date(Date.now() - (30 + endedDaysAgo) * MS_PER_DAY)
      const payment = await createPaymentRow(customer.userId, [cartItemOf(each)], {
        method: 'MANUAL',
        createdAt: paidAt,
      })
      await markPaymentPaid(payment.id, { source: 'admin', paidAt })
    }
    const page = (await subscriptionsRoute.loader(
      routeArgs(getRequest('/subscriptions?check=1', customer.cookie)),
    )) as unknown as {
      active: { serviceId: string; renewPath: string | null }[]
      recentlyEnded: { serviceId: string; name: string; endedOn: string; renewPath: string | null }[]
    }
    expect(page.active).toEqual([expect.objectContaining({ serviceId: service.id, renewPath: `/renew/${service.id}` })])
    expect(page.recentlyEnded).toEqual([
      expect.objectContaining({ serviceId: ended.id, name: ended.name, renewPath: `/renew/${ended.id}` }),
    ])
  })
})
