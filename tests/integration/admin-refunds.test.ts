import { afterAll, describe, expect, it } from 'vitest'
import * as endRoute from '~/routes/admin/customer-end-subscription'
import * as refundsRoute from '~/routes/admin/refunds'
import * as stopRoute from '~/routes/admin/stop-services'
import { prisma } from '~/server/db.server'
import { markPaymentPaid } from '~/server/payments/core.server'
import { stopJobs } from '~/server/jobs/queue.server'
import { cartItemOf, createPaymentRow, createService } from '../support/payment-fixtures'
import { formRequest, getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

afterAll(() => stopJobs())

async function paidCustomer() {
  const customer = await signedInUser({ completeProfile: true })
  const service = await createService('Equity', 300_000, 30)
  const paidAt = new Date(Date.now() - 10 * 86_400_000 + 60_000)
  const payment = await createPaymentRow(customer.userId, [cartItemOf(service)], {
    method: 'MANUAL',
    createdAt: paidAt,
  })
  await markPaymentPaid(payment.id, { source: 'admin', paidAt })
  return { customer, service }
}

describe('the admin ends a customer subscription, then pays the refund', () => {
  it('needs a reason, ends it (audited), lists the refund as due, and Mark paid records the bank reference (audited)', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    const { customer, service } = await paidCustomer()
    const path = `/admin/customers/${customer.userId}/end-subscription`
    const post = (fields: Record<string, string>) =>
      endRoute.action(
        routeArgs(formRequest(path, fields, admin.cookie), { userId: customer.userId }),
      ) as Promise<Response>

    const refused = await post({ intent: 'end-subscription', serviceId: service.id, reason: '' })
    expect(refused.headers.get('location')).toBe(`/admin/customers/${customer.userId}`)
    expect(await prisma.refund.count({ where: { userId: customer.userId } })).toBe(0)

    await post({ intent: 'end-subscription', serviceId: service.id, reason: 'Asked by phone' })
    const refund = await prisma.refund.findFirstOrThrow({ where: { userId: customer.userId } })
    expect(refund).toMatchObject({ status: 'DUE', reason: 'ADMIN_ENDED', amountPaise: 200_000, actorId: admin.userId })
    expect(await prisma.auditLog.count({ where: { actorId: admin.userId, action: 'subscription.ended' } })).toBe(1)

    const { sections } = await refundsRoute.loader(routeArgs(getRequest('/admin/refunds', admin.cookie)))
    const refunds = sections.flatMap((section) => section.rows)
    expect(refunds.find((row) => row.id === refund.id)).toMatchObject({ status: 'DUE', payee: null })

    const bad = (await refundsRoute.action(
      routeArgs(
        formRequest('/admin/refunds', { intent: 'mark-paid', refundId: refund.id, bankReference: '12' }, admin.cookie),
      ),
    )) as unknown as { init: { status: number } }
    expect(bad.init.status).toBe(400)
    await refundsRoute.action(
      routeArgs(
        formRequest(
          '/admin/refunds',
          { intent: 'mark-paid', refundId: refund.id, bankReference: 'HDFC0001234567' },
          admin.cookie,
        ),
      ),
    )
    expect(await prisma.refund.findUniqueOrThrow({ where: { id: refund.id } })).toMatchObject({
      status: 'PROCESSED',
      bankReference: 'HDFC0001234567',
    })
    expect(await prisma.auditLog.count({ where: { actorId: admin.userId, action: 'refund.paid' } })).toBe(1)
  })

  it('is not for a customer: the admin routes answer 404', async () => {
    const { customer, service } = await paidCustomer()
    await expect(
      endRoute.action(
        routeArgs(
          formRequest(
            `/admin/customers/${customer.userId}/end-subscription`,
            { intent: 'end-subscription', serviceId: service.id, reason: 'mine' },
            customer.cookie,
          ),
          { userId: customer.userId },
        ),
      ),
    ).rejects.toMatchObject({ init: { status: 404 } })
    await expect(refundsRoute.loader(routeArgs(getRequest('/admin/refunds', customer.cookie)))).rejects.toMatchObject({
      init: { status: 404 },
    })
  })
})

describe('stop all services', () => {
  it('reviews (how many, how much) before it stops anything, then stops every running subscription', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    await paidCustomer()
    const future = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10)
    const review = (await stopRoute.action(
      routeArgs(
        formRequest(
          '/admin/stop-services',
          { intent: 'review', effectiveFrom: future, reason: 'Registration suspended' },
          admin.cookie,
        ),
      ),
    )) as { review: { subscriptions: number; refundPaise: number } }
    expect(review.review.subscriptions).toBeGreaterThan(0)
    expect(await prisma.refund.count({ where: { reason: 'SERVICES_STOPPED' } })).toBe(0)

    const done = (await stopRoute.action(
      routeArgs(
        formRequest(
          '/admin/stop-services',
          { intent: 'confirm', effectiveFrom: future, reason: 'Registration suspended' },
          admin.cookie,
        ),
      ),
    )) as Response
    expect(done.headers.get('location')).toBe('/admin/refunds')
    expect(await prisma.subscription.count({ where: { endsAt: { gt: new Date(`${future}T00:00:00+05:30`) } } })).toBe(0)
    expect(await prisma.auditLog.count({ where: { actorId: admin.userId, action: 'services.stopped' } })).toBe(1)
  })
})
