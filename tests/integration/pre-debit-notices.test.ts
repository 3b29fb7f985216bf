import { beforeAll, describe, expect, it } from 'vitest'
import { sandboxGateway } from '~/demo/razorpay-sandbox.server'
import { formatIndiaDate } from '~/domain/dates'
import { prisma } from '~/server/db.server'
import { jobQueue } from '~/server/jobs/queue.server'
import { stopAutoRenewAsAdmin, stopOwnAutoRenew } from '~/server/payments/auto-renew.server'
import { autoRenewOffer, consentSha256, stopAutoRenew, turnOnAutoRenew } from '~/server/payments/mandates.server'
import { sendPreDebitNotices } from '~/server/payments/pre-debit-notices.server'
import { handleWebhook } from '~/server/payments/webhooks.server'
import { createService, createUser } from '../support/payment-fixtures'
import { queuedEmails } from '../support/queued-emails'

// The pre-debit notice of automatic renewals (docs/payments.md, "Renewals and mandates"; decision
// 054): an e-mail once per charge, across runs at once, from 72 hours before it, only for an
// authorised mandate. The clock is passed in. Also who may stop a mandate from the pages.

const gateway = sandboxGateway()
const DAY = 86_400_000
const HOUR = 3_600_000
const origin = { ip: '203.0.113.9', userAgent: 'vitest', channel: 'PAGE' as const }

beforeAll(async () => {
  await jobQueue()
})

/** A customer with a period of a 30-day service ending in 20 days, and its mandate (authorised unless told). */
async function mandateOf({ authorise = true } = {}) {
  const userId = await createUser()
  const email = `notice-${userId.slice(0, 8)}@example.in`
  await prisma.user.update({ where: { id: userId }, data: { email } })
  const service = await createService('Equity', 300_000, 30)
  await prisma.subscription.create({
    data: {
      userId,
      serviceId: service.id,
      startsAt: new Date(Date.now() - 10 * DAY),
      endsAt: new Date(Date.now() + 20 * DAY),
      grantReason: 'test period',
      grantedById: userId,
    },
  })
  const offer = await autoRenewOffer(prisma, userId, service.id, new Date())
  const started = await turnOnAutoRenew(
    userId,
    service.id,
    { shownSha256: consentSha256(offer.consentText), origin },
    new Date(),
    gateway,
  )
  if (authorise)
    for (const delivery of gateway.subscriptionEvent(started.gatewaySubscriptionId, 'authorise'))
      await handleWebhook(delivery.rawBody, delivery.signature, { gateway })
  const mandate = await prisma.mandate.findUniqueOrThrow({ where: { id: started.mandateId } })
  return { userId, email, service, mandate, chargeAt: mandate.nextChargeAt! }
}

const notices = async (email: string) =>
  (await queuedEmails(email)).filter((sent) => sent.subject.startsWith('Automatic renewal: '))

describe('pre-debit notices', () => {
  it('go once per charge from 72 hours before it, stating amount, date and how to stop', async () => {
    const { email, service, mandate, chargeAt } = await mandateOf()
    const at = (hoursBefore: number) => new Date(chargeAt.getTime() - hoursBefore * HOUR)

    await sendPreDebitNotices({ now: at(73), sms: false })
    expect(await notices(email)).toHaveLength(0)

    expect(await sendPreDebitNotices({ now: at(71), sms: false })).toBe(1)
    await sendPreDebitNotices({ now: at(70), sms: false })
    const [notice, ...more] = await notices(email)
    expect(more).toHaveLength(0)
    expect(notice!.subject).toBe(
      `Automatic renewal: Rs. 3,000 will be charged on ${formatIndiaDate(chargeAt)} for ${service.name}`,
    )
    expect(notice!.body).toContain('Stop automatic renewal')
    expect(notice!.body).toContain('/subscriptions')
    expect(notice!.userId).toBe(mandate.userId)
    expect((await prisma.mandate.findUniqueOrThrow({ where: { id: mandate.id } })).noticeSentFor).toEqual(chargeAt)

    // The gateway's next charge time: announced again when its window opens.
    const next = new Date(chargeAt.getTime() + 30 * DAY)
    await prisma.mandate.update({ where: { id: mandate.id }, data: { nextChargeAt: next } })
    await sendPreDebitNotices({ now: new Date(next.getTime() - 48 * HOUR), sms: false })
    expect(await notices(email)).toHaveLength(2)
  })

  it('are sent once when several runs race, here or on other instances', async () => {
    const { email, chargeAt } = await mandateOf()
    const now = new Date(chargeAt.getTime() - 60 * HOUR)
    const counts = await Promise.all(
      Array.from({ length: 4 }, () => sendPreDebitNotices({ now, sms: false, batchRows: 1 })),
    )
    expect(await notices(email)).toHaveLength(1)
    expect(counts.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(1)
  })

  it('are not sent for a mandate not authorised yet, or stopped', async () => {
    const waiting = await mandateOf({ authorise: false })
    const stopped = await mandateOf()
    await stopAutoRenew(stopped.mandate.id, { kind: 'customer' }, new Date(), gateway)
    for (const { chargeAt } of [waiting, stopped])
      await sendPreDebitNotices({ now: new Date(chargeAt.getTime() - 48 * HOUR), sms: false })
    expect(await notices(waiting.email)).toHaveLength(0)
    expect(await notices(stopped.email)).toHaveLength(0)
  })
})

describe('stopping from the pages', () => {
  it("stops only the customer's own mandate; an admin's stop needs a reason and is audited", async () => {
    const { userId, mandate } = await mandateOf()
    const other = await mandateOf()
    expect(await stopOwnAutoRenew(other.userId, mandate.id)).toBeNull()
    expect(await stopOwnAutoRenew(userId, 'not-an-id')).toBeNull()
    const admin = await createUser()
    expect(await stopAutoRenewAsAdmin(admin, other.userId, { mandateId: mandate.id, reason: 'Asked' })).toMatchObject({
      ok: false,
      status: 404,
    })
    expect(await stopAutoRenewAsAdmin(admin, userId, { mandateId: mandate.id, reason: '  ' })).toMatchObject({
      ok: false,
      status: 400,
    })
    expect((await prisma.mandate.findUniqueOrThrow({ where: { id: mandate.id } })).state).toBe('ACTIVE')

    const stopped = await stopAutoRenewAsAdmin(admin, userId, { mandateId: mandate.id, reason: 'Asked by phone' })
    expect(stopped).toMatchObject({ ok: true, status: 200 })
    expect(await prisma.mandate.findUniqueOrThrow({ where: { id: mandate.id } })).toMatchObject({
      state: 'CANCELLED',
      cancelledById: admin,
      cancelReason: 'Asked by phone',
    })
    expect(
      await prisma.auditLog.count({ where: { actorId: admin, action: 'mandate.cancel', subjectId: userId } }),
    ).toBe(1)
    expect(await stopOwnAutoRenew(userId, mandate.id)).toEqual({ stopped: false, serviceName: expect.any(String) })
    expect((await gateway.fetchSubscription(mandate.gatewaySubscriptionId)).status).toBe('cancelled')
  })
})
