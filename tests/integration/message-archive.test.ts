import { describe, expect, it } from 'vitest'
import * as customerRoute from '~/routes/admin/customer'
import { eraseExpiredData } from '~/server/account/retention.server'
import { customerData } from '~/server/account/your-data.server'
import { prisma } from '~/server/db.server'
import { deliverOtpSms, sendEmail, sendNoticeSms } from '~/server/messaging/delivery.server'
import type { SmsProvider } from '~/server/messaging/sms.server'
import { getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

// The archive of sent messages (docs/regulatory.md, "Records"): each message the store sent, with
// recipient, time, template and body, a one-time code masked; kept 5 years; shown to the admin and
// in the customer's data.

const DAY_MS = 86_400_000

const recordingSms = (): SmsProvider => ({
  name: 'recording',
  sendOtp: async () => {},
  sendNotice: async () => 'msg-1',
})

describe('the archive of sent messages', () => {
  it('keeps each e-mail, SMS and sign-in code sent to a customer, the code masked, for the admin and the customer', async () => {
    const customer = await signedInUser({ completeProfile: true })
    const { phone, email } = await prisma.user.findUniqueOrThrow({ where: { id: customer.userId } })
    await deliverOtpSms({ to: phone, code: '482913', text: '482913 is your Research Store code.' }, recordingSms())
    await sendNoticeSms(
      { to: phone, text: 'Your subscription ends tomorrow.', userId: customer.userId, template: 'renewal-reminder' },
      recordingSms(),
    )
    await sendEmail({
      to: email!,
      userId: customer.userId,
      template: 'email-change-code',
      secret: '771204',
      subject: 'Confirm your new e-mail address',
      body: '771204 is your Research Store code to confirm this e-mail address.',
    })

    const archived = await prisma.sentMessage.findMany({
      where: { userId: customer.userId },
      orderBy: { id: 'asc' },
      select: { channel: true, recipient: true, template: true, subject: true, body: true, providerMessageId: true },
    })
    expect(archived).toEqual([
      {
        channel: 'sms',
        recipient: phone,
        template: 'sign-in-code',
        subject: null,
        body: '****** is your Research Store code.',
        providerMessageId: null,
      },
      {
        channel: 'sms',
        recipient: phone,
        template: 'renewal-reminder',
        subject: null,
        body: 'Your subscription ends tomorrow.',
        providerMessageId: 'msg-1',
      },
      {
        channel: 'email',
        recipient: email,
        template: 'email-change-code',
        subject: 'Confirm your new e-mail address',
        body: '****** is your Research Store code to confirm this e-mail address.',
        providerMessageId: expect.any(String),
      },
    ])

    const data = await customerData(customer.userId)
    expect(data?.messagesSent.map((message) => message.template)).toEqual([
      'email-change-code',
      'renewal-reminder',
      'sign-in-code',
    ])
    expect(JSON.stringify(data)).not.toContain('482913')

    const admin = await signedInUser({ role: 'ADMIN' })
    const page = await customerRoute.loader(
      routeArgs(getRequest(`/admin/customers/${customer.userId}`, admin.cookie), { userId: customer.userId }),
    )
    expect(page.messages).toHaveLength(3)
    expect(page.messages[0]).toMatchObject({ channel: 'E-mail', template: 'email-change-code', recipient: email })
  })

  it('keeps no record of an e-mail it did not send (to a closed account)', async () => {
    const customer = await signedInUser({ completeProfile: true })
    await prisma.user.update({ where: { id: customer.userId }, data: { closedAt: new Date() } })
    await sendEmail({ to: 'closed@example.in', userId: customer.userId, template: 'test', subject: 'Hi', body: 'Hi' })
    expect(await prisma.sentMessage.count({ where: { userId: customer.userId } })).toBe(0)
  })

  it('are erased by the retention job once 5 years old', async () => {
    const customer = await signedInUser({ completeProfile: true })
    const now = new Date()
    const sixYearsAgo = new Date(now.getTime() - 6 * 365 * DAY_MS)
    const base = {
      userId: customer.userId,
      channel: 'email',
      recipient: 'old@example.in',
      template: 'test',
      body: 'Hi',
    }
    await prisma.sentMessage.createMany({
      data: [
        { ...base, sentAt: sixYearsAgo },
        { ...base, sentAt: new Date(now.getTime() - DAY_MS) },
      ],
    })
    const report = await eraseExpiredData(now)
    expect(report.sentMessages).toBeGreaterThanOrEqual(1)
    expect(
      (await prisma.sentMessage.findMany({ where: { userId: customer.userId }, select: { sentAt: true } })).map(
        ({ sentAt }) => sentAt.getTime() > sixYearsAgo.getTime(),
      ),
    ).toEqual([true])
  })
})
