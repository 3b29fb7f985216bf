import { describe, expect, it } from 'vitest'
import { SEBI_FEE_CAP_PAISE } from '~/domain/fee-cap'
import { updateService } from '~/server/catalog/service-editing.server'
import { prisma } from '~/server/db.server'
import { webhookSignature } from '~/server/payments/gateway/razorpay.server'
import {
  checkUpcomingMandateCharges,
  MANDATE_CHARGE_CHECK_HOURS,
  mandatesAwaitingReauthorisation,
} from '~/server/payments/mandate-lifecycle.server'
import { reconcileOpenOrders } from '~/server/payments/reconciliation.server'
import { endSubscription } from '~/server/payments/refunds/end-subscription.server'
import { handleWebhook } from '~/server/payments/webhooks.server'
import { authorised, customerWithPeriod, DAY, deliver, eventOf, gateway, turnOn } from '../support/mandates'
import { cartItemOf, createPaymentRow, createService, createUser } from '../support/payment-fixtures'
import { queuedEmails } from '../support/queued-emails'

// The rules around a mandate's charges (docs/payments.md, "Renewals and mandates"; decision 055):
// the check before each charge, a failed charge, a price change, ending a subscription, and a
// charge paid by racing paths.

const HOUR = 3_600_000

const mandateOf = (id: string) => prisma.mandate.findUniqueOrThrow({ where: { id } })
const subjects = async (email: string) => (await queuedEmails(email)).map((mail) => mail.subject)

describe('the check before each charge', () => {
  it('stops a mandate whose next charge would break the one-year rule: cancelled at the gateway, the customer told once, nothing charged', async () => {
    const { userId, email, service } = await customerWithPeriod({ endsInDays: 20 })
    const started = await authorised(userId, service.id)
    const { nextChargeAt } = await mandateOf(started.mandateId)

    // Not yet within the window: nothing is checked.
    expect(await checkUpcomingMandateCharges(new Date(), gateway)).toBe(0)

    // The customer was given a period reaching 360 days ahead: a charge in 20 days adding 30 passes a year.
    const end = await prisma.subscription.findFirstOrThrow({ where: { userId }, select: { endsAt: true } })
    await prisma.subscription.create({
      data: {
        userId,
        serviceId: service.id,
        startsAt: end.endsAt,
        endsAt: new Date(Date.now() + 360 * DAY),
        grantReason: 'test extension',
        grantedById: userId,
      },
    })
    const checkAt = new Date(nextChargeAt!.getTime() - (MANDATE_CHARGE_CHECK_HOURS - 1) * HOUR)
    // Two instances' runs at once stop it once.
    const stopped = await Promise.all([
      checkUpcomingMandateCharges(checkAt, gateway),
      checkUpcomingMandateCharges(checkAt, gateway),
    ])
    expect(stopped[0]! + stopped[1]!).toBe(1)

    const mandate = await mandateOf(started.mandateId)
    expect(mandate.state).toBe('CANCELLED')
    expect(mandate.cancelReason).toContain('SEBI allows fees at most one year in advance')
    expect((await gateway.fetchSubscription(started.gatewaySubscriptionId)).status).toBe('cancelled')
    const mails = (await queuedEmails(email)).filter((mail) => mail.subject.includes('stopped before its next charge'))
    expect(mails).toHaveLength(1)
    expect(mails[0]!.body).toContain('SEBI allows fees at most one year in advance')
    expect(mails[0]!.body).toContain(`/renew/${service.id}`)
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)
    expect(await checkUpcomingMandateCharges(checkAt, gateway)).toBe(0)
  })

  it('leaves a charge within the limits alone, and stops it once a later order would take the family past the fee cap', async () => {
    const { userId, email, service } = await customerWithPeriod({ endsInDays: 3 })
    const started = await authorised(userId, service.id)
    expect(await checkUpcomingMandateCharges(new Date(), gateway)).toBe(0)
    expect((await mandateOf(started.mandateId)).state).toBe('ACTIVE')

    const big = await createService('Portfolio', SEBI_FEE_CAP_PAISE * 2, 365)
    await createPaymentRow(userId, [cartItemOf(big)])
    expect(await checkUpcomingMandateCharges(new Date(), gateway)).toBe(1)

    const mandate = await mandateOf(started.mandateId)
    expect(mandate.state).toBe('CANCELLED')
    expect(mandate.cancelReason).toMatch(/SEBI caps the fees one family pays/)
    expect((await gateway.fetchSubscription(started.gatewaySubscriptionId)).status).toBe('cancelled')
    expect(await subjects(email)).toContain(`Automatic renewal of ${service.name} stopped before its next charge`)
  })
})

describe('a failed charge', () => {
  const failedSubject = (name: string) => `Your automatic renewal payment for ${name} did not go through`

  it('tells the customer once, with a link to pay, and extends nothing when the gateway gives up', async () => {
    const { userId, email, service } = await customerWithPeriod({ endsInDays: 20 })
    const started = await authorised(userId, service.id)
    const before = await prisma.subscription.findFirstOrThrow({ where: { userId }, select: { endsAt: true } })

    const failed = gateway.subscriptionEvent(started.gatewaySubscriptionId, 'fail')
    expect(failed.map((delivery) => delivery.event)).toEqual(['payment.failed', 'subscription.pending'])
    for (const delivery of failed) expect(await deliver(delivery)).toEqual({ status: 200, outcome: 'processed' })
    // The same event in a second body (a retry built again), then the gateway gives up: still one e-mail.
    const pending = eventOf(failed, 'subscription.pending')
    const again = pending.rawBody.replace('"entity":"event"', '"entity":"event","retry":1')
    expect((await handleWebhook(again, webhookSignature(again, gateway.webhookSecret), { gateway })).status).toBe(200)
    for (const delivery of gateway.subscriptionEvent(started.gatewaySubscriptionId, 'halt')) await deliver(delivery)

    const mails = (await queuedEmails(email)).filter((mail) => mail.subject === failedSubject(service.name))
    expect(mails).toHaveLength(1)
    expect(mails[0]!.body).toContain(`/renew/${service.id}`)
    expect(mails[0]!.body).toContain('will try the charge again')
    expect((await mandateOf(started.mandateId)).state).toBe('HALTED')
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)
    const after = await prisma.subscription.findMany({ where: { userId }, select: { endsAt: true } })
    expect(after).toEqual([{ endsAt: before.endsAt }])
  })

  it('tells again for the next failed charge after a retry succeeded', async () => {
    const { userId, email, service } = await customerWithPeriod({ endsInDays: 20 })
    const started = await authorised(userId, service.id)
    const before = await prisma.subscription.findFirstOrThrow({ where: { userId }, select: { endsAt: true } })

    for (const delivery of gateway.subscriptionEvent(started.gatewaySubscriptionId, 'fail')) await deliver(delivery)
    // The gateway's retry succeeds: one period, paid once.
    for (const delivery of gateway.subscriptionEvent(started.gatewaySubscriptionId, 'charge')) await deliver(delivery)
    for (const delivery of gateway.subscriptionEvent(started.gatewaySubscriptionId, 'fail')) await deliver(delivery)
    // Halted for the charge already told of: no third e-mail.
    const halted = gateway.subscriptionEvent(started.gatewaySubscriptionId, 'halt')
    for (const delivery of halted) await deliver(delivery)

    const mails = (await queuedEmails(email)).filter((mail) => mail.subject === failedSubject(service.name))
    expect(mails).toHaveLength(2)
    expect(await prisma.payment.count({ where: { userId, status: 'PAID' } })).toBe(1)
    const latest = await prisma.subscription.aggregate({ where: { userId }, _max: { endsAt: true } })
    expect(latest._max.endsAt).toEqual(new Date(before.endsAt.getTime() + 30 * DAY))
  })

  it('is told by halted alone when no pending came first, saying the gateway stopped trying', async () => {
    const { userId, email, service } = await customerWithPeriod({ endsInDays: 20 })
    const started = await authorised(userId, service.id)
    for (const delivery of gateway.subscriptionEvent(started.gatewaySubscriptionId, 'halt')) await deliver(delivery)
    const mails = (await queuedEmails(email)).filter((mail) => mail.subject === failedSubject(service.name))
    expect(mails).toHaveLength(1)
    expect(mails[0]!.body).toContain('has stopped trying')
  })
})

describe('a price change of the service', () => {
  const formOf = (service: Awaited<ReturnType<typeof createService>>) => ({
    name: service.name,
    description: service.description,
    pricePaise: service.pricePaise,
    durationDays: service.durationDays,
    riskLevel: service.riskLevel,
    delivery: service.delivery,
  })

  it('ends its running mandates (audited, at the gateway too), tells each customer, and refunds a charge at the old amount', async () => {
    const admin = await createUser()
    const a = await customerWithPeriod()
    const active = await authorised(a.userId, a.service.id)
    const b = await customerWithPeriod({ service: a.service })
    const waiting = await turnOn(b.userId, a.service.id)
    const other = await customerWithPeriod()
    const untouched = await authorised(other.userId, other.service.id)
    // A charge the gateway takes before it hears of the change.
    const lateCharge = eventOf(
      gateway.subscriptionEvent(active.gatewaySubscriptionId, 'charge'),
      'subscription.charged',
    )

    // Another change (the description) leaves them alone.
    await updateService(admin, a.service.id, { ...formOf(a.service), description: ['Changed words'] })
    expect((await mandateOf(active.mandateId)).state).toBe('ACTIVE')

    expect(await updateService(admin, a.service.id, { ...formOf(a.service), pricePaise: 350_000 })).toEqual({
      ok: true,
      serviceId: a.service.id,
    })

    for (const started of [active, waiting]) {
      expect(await mandateOf(started.mandateId)).toMatchObject({
        state: 'CANCELLED',
        reauthorisationAmountPaise: 350_000,
        cancelledById: admin,
      })
      expect((await gateway.fetchSubscription(started.gatewaySubscriptionId)).status).toBe('cancelled')
    }
    expect((await mandateOf(untouched.mandateId)).state).toBe('ACTIVE')
    expect(await prisma.auditLog.count({ where: { actorId: admin, action: 'mandate.reauthorisation-needed' } })).toBe(2)
    for (const customer of [a, b]) {
      const mails = (await queuedEmails(customer.email)).filter((mail) =>
        mail.subject.includes('automatic renewal needs your new authorisation'),
      )
      expect(mails).toHaveLength(1)
      expect(mails[0]!.body).toContain('Rs. 3,500')
      expect(mails[0]!.body).toContain('/subscriptions')
    }

    expect(await deliver(lateCharge)).toEqual({ status: 200, outcome: 'processed' })
    const payment = await prisma.payment.findFirstOrThrow({
      where: { userId: a.userId },
      include: { subscriptions: true, refunds: true },
    })
    expect(payment.subscriptions).toHaveLength(0)
    expect(payment.refunds).toMatchObject([{ reason: 'MANDATE_CHARGE_REFUSED', amountPaise: 300_000 }])

    expect(await mandatesAwaitingReauthorisation(a.userId)).toMatchObject([
      { serviceId: a.service.id, oldAmountPaise: 300_000, newAmountPaise: 350_000 },
    ])
    const renewed = await turnOn(a.userId, a.service.id)
    expect((await mandateOf(renewed.mandateId)).amountPaise).toBe(350_000)
    expect(await mandatesAwaitingReauthorisation(a.userId)).toEqual([])
  })
})

describe('ending a subscription', () => {
  it('stops its automatic renewal in the same flow, here and at the gateway; the refund is as before', async () => {
    const { userId, service } = await customerWithPeriod({ endsInDays: 20 })
    const started = await authorised(userId, service.id)
    // One charge paid: a period from the current end, not started yet.
    for (const delivery of gateway.subscriptionEvent(started.gatewaySubscriptionId, 'charge')) await deliver(delivery)

    const ended = await endSubscription({
      userId,
      serviceId: service.id,
      by: { kind: 'customer' },
      reason: 'CUSTOMER_ENDED',
      now: new Date(),
    })

    expect(ended.cancelledMandates).toEqual([started.gatewaySubscriptionId])
    expect(ended.refunds).toMatchObject([{ amountPaise: 300_000, status: 'PENDING' }])
    expect((await mandateOf(started.mandateId)).state).toBe('CANCELLED')
    expect((await gateway.fetchSubscription(started.gatewaySubscriptionId)).status).toBe('cancelled')
  })

  it('by an admin: cancelled by them, said in the audit entry', async () => {
    const admin = await createUser()
    const { userId, service } = await customerWithPeriod()
    const started = await authorised(userId, service.id)
    await endSubscription({
      userId,
      serviceId: service.id,
      by: { kind: 'admin', adminId: admin },
      reason: 'CUSTOMER_ENDED',
      note: 'asked by phone',
      now: new Date(),
    })
    expect(await mandateOf(started.mandateId)).toMatchObject({ state: 'CANCELLED', cancelledById: admin })
    const entry = await prisma.auditLog.findFirstOrThrow({ where: { actorId: admin, action: 'subscription.ended' } })
    expect(entry.after).toMatchObject({ automaticRenewalStopped: true })
  })

  it('racing a charge: whichever is first, nothing runs after and the charge is refunded in full', async () => {
    const { userId, service } = await customerWithPeriod()
    const started = await authorised(userId, service.id)
    const charged = eventOf(gateway.subscriptionEvent(started.gatewaySubscriptionId, 'charge'), 'subscription.charged')
    const now = new Date()
    const [, delivered] = await Promise.all([
      endSubscription({ userId, serviceId: service.id, by: { kind: 'customer' }, reason: 'CUSTOMER_ENDED', now }),
      deliver(charged),
    ])
    // A delivery that waited too long for the locks is retried by Razorpay.
    if (delivered.status !== 200) expect((await deliver(charged)).status).toBe(200)

    const payment = await prisma.payment.findFirstOrThrow({ where: { userId }, include: { refunds: true } })
    expect(payment.status).toBe('PAID')
    expect(payment.refunds.reduce((sum, refund) => sum + refund.amountPaise, 0)).toBe(300_000)
    expect(await prisma.subscription.count({ where: { userId, endsAt: { gt: now } } })).toBe(0)
    expect((await mandateOf(started.mandateId)).state).toBe('CANCELLED')
  })
})

describe('a charge paid by racing paths', () => {
  it('webhooks, their duplicates and reconciliation at once: one payment, one period, one invoice', async () => {
    const { userId, service } = await customerWithPeriod()
    const started = await authorised(userId, service.id)
    const deliveries = gateway.subscriptionEvent(started.gatewaySubscriptionId, 'charge')
    const charged = eventOf(deliveries, 'subscription.charged')
    const entity = (
      JSON.parse(charged.rawBody) as {
        payload: { payment: { entity: { id: string; order_id: string; amount: number } } }
      }
    ).payload.payment.entity
    // A first delivery recorded the charge and failed before paying it (its transaction timed out):
    // Razorpay retries while reconciliation finds the open row.
    await prisma.payment.create({
      data: {
        userId,
        method: 'GATEWAY',
        status: 'CREATED',
        amountPaise: entity.amount,
        currency: 'INR',
        cart: [{ serviceId: service.id, name: service.name, pricePaise: entity.amount, durationDays: 30 }],
        gatewayOrderId: entity.order_id,
        gatewayPaymentId: entity.id,
        mandateId: started.mandateId,
        createdAt: new Date(Date.now() - 20 * 60_000),
      },
    })

    const results = await Promise.all([
      deliver(charged),
      deliver(eventOf(deliveries, 'payment.captured')),
      reconcileOpenOrders(new Date(), { gateway }),
      deliver(charged),
    ])
    expect(results[0]).toMatchObject({ status: 200 })
    expect(results[3]).toMatchObject({ status: 200 })
    expect(['processed', 'duplicate']).toContain((results[0] as { outcome: string }).outcome)

    expect(await prisma.payment.count({ where: { userId } })).toBe(1)
    expect(await prisma.payment.count({ where: { userId, status: 'PAID' } })).toBe(1)
    expect(await prisma.subscription.count({ where: { userId, paymentId: { not: null } } })).toBe(1)
    expect(await prisma.ledgerEntry.count({ where: { userId } })).toBe(1)
    expect(await prisma.refund.count({ where: { userId } })).toBe(0)
  })
})
