import { afterAll, describe, expect, it, vi } from 'vitest'
import { formatIndiaDate, MS_PER_DAY } from '~/domain/dates'
import { MANUAL_PAYMENT_EXPIRY_DAYS } from '~/domain/payment-status'
import { businessDetails } from '~/server/business.server'
import { prisma } from '~/server/db.server'
import { stopJobs } from '~/server/jobs/queue.server'
import { deliverEmail } from '~/server/messaging/mail.server'
import { createManualPayment } from '~/server/payments/manual-claims.server'
import { createService } from '../support/payment-fixtures'
import { queuedEmails } from '../support/queued-emails'
import { signedInUser } from '../support/sessions'

// A bank-transfer claim is answered at once: "we got your claim", what happens next and the day it
// is dismissed if not confirmed (MANUAL_PAYMENT_EXPIRY_DAYS), through the e-mail queue, archived once sent.

afterAll(() => stopJobs())

const SUBJECT = 'We got your bank transfer claim'

/** The claim e-mails queued for this customer (the sample customers share one address). */
const claimEmails = async (email: string, userId: string) =>
  (await queuedEmails(email)).filter((queued) => queued.subject === SUBJECT && queued.userId === userId)

async function customerAndServices() {
  vi.spyOn(console, 'info').mockImplementation(() => {})
  const customer = await signedInUser({ completeProfile: true })
  const { email } = await prisma.user.findUniqueOrThrow({ where: { id: customer.userId } })
  const equity = await createService('Equity', 299_900, 30)
  const swing = await createService('Swing', 149_900, 90)
  return { customer, email: email!, services: [equity, swing], serviceIds: [equity.id, swing.id] }
}

describe('a bank-transfer claim', () => {
  it('queues one "we got your claim" e-mail saying what happens next and by when', async () => {
    const { customer, email, services, serviceIds } = await customerAndServices()
    const now = new Date('2026-12-01T06:00:00Z')

    const claim = await createManualPayment(customer.userId, serviceIds, { now, idempotencyKey: 'claim-1' })
    const again = await createManualPayment(customer.userId, serviceIds, { now, idempotencyKey: 'claim-1' })

    expect(again).toMatchObject({ paymentId: claim.paymentId, created: false })
    const dismissedOn = formatIndiaDate(new Date(now.getTime() + MANUAL_PAYMENT_EXPIRY_DAYS * MS_PER_DAY))
    const sent = await claimEmails(email, customer.userId)
    expect(sent).toEqual([
      expect.objectContaining({ template: 'claim-received', userId: customer.userId, subject: SUBJECT }),
    ])
    const body = sent[0]!.body
    expect(body).toContain(
      `We got your claim of a bank transfer of Rs. 4,498 for ${services.map((service) => service.name).join(', ')}, made on 01-12-2026.`,
    )
    expect(body).toContain(`send the screenshot of the transfer on WhatsApp to ${businessDetails.whatsappNumber}`)
    expect(body).toContain('When we confirm it, your subscriptions start and we e-mail you.')
    expect(body).toContain(
      `A claim we cannot confirm within ${MANUAL_PAYMENT_EXPIRY_DAYS} days is dismissed: if yours is not confirmed by ${dismissedOn}, no subscription starts.`,
    )
    expect(dismissedOn).toBe('08-12-2026')
  })

  it('is delivered and archived in sent_messages like the other messages', async () => {
    const { customer, email, serviceIds } = await customerAndServices()
    await createManualPayment(customer.userId, serviceIds)
    const [queued] = await claimEmails(email, customer.userId)

    expect(await deliverEmail(queued!)).toBe(true)

    expect(
      await prisma.sentMessage.findMany({
        where: { userId: customer.userId, template: 'claim-received' },
        select: { channel: true, recipient: true, subject: true },
      }),
    ).toEqual([{ channel: 'email', recipient: email, subject: SUBJECT }])
    expect(
      await prisma.outboxMessage.count({ where: { recipient: email, subject: SUBJECT, body: queued!.body } }),
    ).toBe(1)
  })
})
