import { randomInt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { SEBI_FEE_CAP_PAISE } from '~/domain/fee-cap'
import { prisma } from '~/server/db.server'
import { webhookSignature } from '~/server/payments/gateway/razorpay.server'
import type { WebhookDelivery } from '~/server/payments/gateway/sandbox.server'
import {
  autoRenewOffer,
  consentSha256,
  MandateError,
  stopAutoRenew,
  turnOnAutoRenew,
} from '~/server/payments/mandates.server'
import { sendRenewalReminders } from '~/server/payments/renewal-reminders.server'
import { handleWebhook } from '~/server/payments/webhooks.server'
import { createService } from '../support/payment-fixtures'
import { authorised, customerWithPeriod, DAY, deliver, eventOf, gateway, turnOn } from '../support/mandates'
import { queuedEmails } from '../support/queued-emails'

// Automatic renewal through Razorpay Subscriptions (docs/payments.md, "Renewals and mandates"):
// turning it on with its consent, and the webhooks' rules and races: forged, replayed, charged
// twice, charged for a cancelled mandate, charged before its period may start.

const origin = { ip: '203.0.113.9', userAgent: 'vitest', channel: 'PAGE' as const }

const chargedEvent = (deliveries: WebhookDelivery[]) => eventOf(deliveries, 'subscription.charged')

describe('turning automatic renewal on', () => {
  it('records the consent as an acceptance and a mandate waiting for authorisation, charging from the current end', async () => {
    const { userId, service } = await customerWithPeriod()
    const offer = await autoRenewOffer(prisma, userId, service.id, new Date())
    expect(offer.consentText).toContain('Rs. 3,000 ')
    expect(offer.consentText).toContain('every 30 days')
    expect(offer.consentText).toContain('Stop automatic renewal')

    const started = await turnOn(userId, service.id)

    const mandate = await prisma.mandate.findUniqueOrThrow({ where: { id: started.mandateId } })
    const acceptance = await prisma.acceptance.findUniqueOrThrow({ where: { id: mandate.acceptanceId } })
    expect(mandate).toMatchObject({ state: 'CREATED', amountPaise: 300_000, maxAmountPaise: 300_000, periodDays: 30 })
    expect(acceptance).toMatchObject({
      kind: 'AUTOPAY_MANDATE',
      textSha256: consentSha256(offer.consentText),
      ip: origin.ip,
    })
    const end = await prisma.subscription.findFirstOrThrow({ where: { userId }, select: { endsAt: true } })
    expect(mandate.firstChargeAt).toEqual(end.endsAt)
    expect((await gateway.fetchSubscription(started.gatewaySubscriptionId)).status).toBe('created')
  })

  it('refuses consent to terms other than the ones now in force, and a second mandate for the service', async () => {
    const { userId, service } = await customerWithPeriod()
    await expect(
      turnOnAutoRenew(userId, service.id, { shownSha256: consentSha256('other words'), origin }, new Date(), gateway),
    ).rejects.toThrow('The terms of automatic renewal have changed')
    await turnOn(userId, service.id)
    await expect(turnOn(userId, service.id)).rejects.toThrow('already renews automatically')
    expect(await prisma.mandate.count({ where: { userId } })).toBe(1)
  })

  it('refuses a customer who could not buy the service now: KYC incomplete, fee cap, not on sale', async () => {
    const noKyc = await prisma.user.create({ data: { phone: `+9197${String(randomInt(0, 1e8)).padStart(8, '0')}` } })
    const service = await createService('Equity', 300_000, 30)
    await prisma.subscription.create({
      data: {
        userId: noKyc.id,
        serviceId: service.id,
        startsAt: new Date(),
        endsAt: new Date(Date.now() + 9 * DAY),
        grantReason: 'test',
        grantedById: noKyc.id,
      },
    })
    await expect(autoRenewOffer(prisma, noKyc.id, service.id, new Date())).rejects.toBeInstanceOf(MandateError)

    const overCap = await customerWithPeriod({ pricePaise: SEBI_FEE_CAP_PAISE * 2 })
    await expect(autoRenewOffer(prisma, overCap.userId, overCap.service.id, new Date())).rejects.toThrow(
      /SEBI caps the fees one family pays/,
    )

    const offSale = await customerWithPeriod()
    await prisma.service.update({ where: { id: offSale.service.id }, data: { active: false } })
    await expect(autoRenewOffer(prisma, offSale.userId, offSale.service.id, new Date())).rejects.toThrow(
      'is no longer on sale',
    )
    expect(await prisma.mandate.count({ where: { userId: { in: [noKyc.id, overCap.userId, offSale.userId] } } })).toBe(
      0,
    )
  })
})

describe('the subscription webhooks', () => {
  it('refuse a forged delivery and change nothing', async () => {
    const { userId, service } = await customerWithPeriod()
    const started = await turnOn(userId, service.id)
    const [authorise] = gateway.subscriptionEvent(started.gatewaySubscriptionId, 'authorise')
    const forged = await handleWebhook(authorise!.rawBody, webhookSignature(authorise!.rawBody, 'not the secret'), {
      gateway,
    })
    expect(forged).toEqual({ status: 400, outcome: 'invalid-signature' })
    expect((await prisma.mandate.findUniqueOrThrow({ where: { id: started.mandateId } })).state).toBe('CREATED')
    expect(await deliver(authorise!)).toEqual({ status: 200, outcome: 'processed' })
    expect((await prisma.mandate.findUniqueOrThrow({ where: { id: started.mandateId } })).state).toBe('ACTIVE')
  })

  it('pay a charge once, for the next period from the current end, with its invoice; a replay changes nothing', async () => {
    const { userId, service } = await customerWithPeriod()
    const started = await authorised(userId, service.id)
    const before = await prisma.subscription.findFirstOrThrow({ where: { userId }, select: { endsAt: true } })

    const deliveries = gateway.subscriptionEvent(started.gatewaySubscriptionId, 'charge')
    for (const delivery of deliveries) expect((await deliver(delivery)).status).toBe(200)
    expect(await deliver(chargedEvent(deliveries))).toEqual({ status: 200, outcome: 'duplicate' })

    const payments = await prisma.payment.findMany({
      where: { userId },
      include: { subscriptions: true, ledgerEntries: true },
    })
    expect(payments).toHaveLength(1)
    expect(payments[0]).toMatchObject({ status: 'PAID', mandateId: started.mandateId, amountPaise: 300_000 })
    expect(payments[0]!.subscriptions).toHaveLength(1)
    expect(payments[0]!.subscriptions[0]!.startsAt).toEqual(before.endsAt)
    expect(payments[0]!.subscriptions[0]!.endsAt).toEqual(new Date(before.endsAt.getTime() + 30 * DAY))
    expect(payments[0]!.ledgerEntries).toHaveLength(1)
    expect(payments[0]!.ledgerEntries[0]!.documentNumber).toMatch(/^(INV|RCT)\//)
  })

  it('pay a charge once when two different deliveries of it race', async () => {
    const { userId, service } = await customerWithPeriod()
    const started = await authorised(userId, service.id)
    const charged = chargedEvent(gateway.subscriptionEvent(started.gatewaySubscriptionId, 'charge'))
    // The same charge in a second, different body (a retry Razorpay built again): its own signature.
    const again = charged.rawBody.replace('"entity":"event"', '"entity":"event","retry":1')
    const results = await Promise.all([
      deliver(charged),
      handleWebhook(again, webhookSignature(again, gateway.webhookSecret), { gateway }),
    ])
    expect(results.map((result) => result.status)).toEqual([200, 200])
    expect(await prisma.payment.count({ where: { userId, status: 'PAID' } })).toBe(1)
    expect(await prisma.subscription.count({ where: { userId, paymentId: { not: null } } })).toBe(1)
    expect(await prisma.ledgerEntry.count({ where: { userId } })).toBe(1)
  })

  it('refund in full a charge for a mandate stopped before it arrived, and start no period', async () => {
    const { userId, email, service } = await customerWithPeriod()
    const started = await authorised(userId, service.id)
    // The gateway charged before it heard of the stop.
    const charged = chargedEvent(gateway.subscriptionEvent(started.gatewaySubscriptionId, 'charge'))
    expect(await stopAutoRenew(started.mandateId, { kind: 'customer' }, new Date(), gateway)).toBe(true)
    expect((await gateway.fetchSubscription(started.gatewaySubscriptionId)).status).toBe('cancelled')

    expect(await deliver(charged)).toEqual({ status: 200, outcome: 'processed' })

    const payment = await prisma.payment.findFirstOrThrow({
      where: { userId },
      include: { subscriptions: true, refunds: true },
    })
    expect(payment.status).toBe('PAID')
    expect(payment.subscriptions).toHaveLength(0)
    expect(payment.refunds).toMatchObject([
      { kind: 'WHOLE_PAYMENT', reason: 'MANDATE_CHARGE_REFUSED', amountPaise: 300_000 },
    ])
    const ledger = await prisma.ledgerEntry.findMany({ where: { paymentId: payment.id } })
    expect(ledger.reduce((sum, row) => sum + row.amountPaise, 0)).toBe(0)
    const emails = await queuedEmails(email)
    expect(emails.map((mail) => mail.subject)).toContain(
      'Automatic renewal stopped: your payment is being refunded in full',
    )
  })

  it('refund a charge that comes before its period may start (the one-year rule), and cancel the mandate at the gateway', async () => {
    const { userId, service } = await customerWithPeriod({ endsInDays: 340 })
    const started = await authorised(userId, service.id)
    // Charged now, although the first charge was due in 340 days: 340 + 30 days is beyond a year.
    for (const delivery of gateway.subscriptionEvent(started.gatewaySubscriptionId, 'charge')) await deliver(delivery)

    const payment = await prisma.payment.findFirstOrThrow({
      where: { userId },
      include: { subscriptions: true, refunds: true },
    })
    expect(payment.subscriptions).toHaveLength(0)
    expect(payment.refunds).toMatchObject([{ reason: 'MANDATE_CHARGE_REFUSED', amountPaise: 300_000 }])
    expect(payment.refunds[0]!.note).toContain('SEBI allows fees at most one year in advance')
    const mandate = await prisma.mandate.findUniqueOrThrow({ where: { id: started.mandateId } })
    expect(mandate.state).toBe('CANCELLED')
    expect((await gateway.fetchSubscription(started.gatewaySubscriptionId)).status).toBe('cancelled')
  })

  it('halt and cancel end the mandate; nothing is charged after', async () => {
    const { userId, service } = await customerWithPeriod()
    const started = await authorised(userId, service.id)
    for (const delivery of gateway.subscriptionEvent(started.gatewaySubscriptionId, 'halt')) await deliver(delivery)
    expect((await prisma.mandate.findUniqueOrThrow({ where: { id: started.mandateId } })).state).toBe('HALTED')
    expect(() => gateway.subscriptionEvent(started.gatewaySubscriptionId, 'charge')).toThrow('cannot be charged')
    for (const delivery of gateway.subscriptionEvent(started.gatewaySubscriptionId, 'cancel')) await deliver(delivery)
    expect((await prisma.mandate.findUniqueOrThrow({ where: { id: started.mandateId } })).state).toBe('CANCELLED')
  })
})

describe('renewal reminders', () => {
  it('skip a service that renews automatically, and remind it again once the mandate is stopped', async () => {
    const { userId, service } = await customerWithPeriod({ endsInDays: 3 })
    const started = await turnOn(userId, service.id)
    for (const delivery of gateway.subscriptionEvent(started.gatewaySubscriptionId, 'authorise'))
      await deliver(delivery)
    const stageOf = async () =>
      (await prisma.subscription.findFirstOrThrow({ where: { userId }, select: { reminderStage: true } })).reminderStage

    await sendRenewalReminders({ sms: false })
    expect(await stageOf()).toBe(0)

    await stopAutoRenew(started.mandateId, { kind: 'customer' }, new Date(), gateway)
    await sendRenewalReminders({ sms: false })
    expect(await stageOf()).toBe(1)
  })
})
