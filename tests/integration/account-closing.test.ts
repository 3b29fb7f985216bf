import { randomInt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import * as accountRoute from '~/routes/account'
import { prisma } from '~/server/db.server'
import { signInWithVerifiedCode, SignInError } from '~/server/auth/sign-in.server'
import { closeAccount } from '~/server/account/closing.server'
import { requestOtp } from '~/server/auth/one-time-codes.server'
import { markPaymentPaid } from '~/server/payments/core.server'
import { sendOnboardingCopy } from '~/server/account/acceptances.server'
import { sendEmail, sendNoticeSms } from '~/server/messaging/delivery.server'
import { getSessionUser } from '~/server/session.server'
import { queuedEmails } from '../support/queued-emails'
import { cartItemOf, createPaymentRow, createService } from '../support/payment-fixtures'
import { formRequest, getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

/** The code in the newest queued SMS to `phone`: what the customer would read. */
async function codeSentTo(phone: string): Promise<string> {
  const [job] = await prisma.$queryRaw<{ data: { code: string } }[]>`
    SELECT data FROM pgboss.job WHERE name = 'send-sms' AND data->>'to' = ${phone} ORDER BY created_on DESC LIMIT 1`
  return job!.data.code
}

const ip = () => `10.${randomInt(0, 255)}.${randomInt(0, 255)}.${randomInt(1, 254)}`

async function post(fields: Record<string, string>, cookie: string, clientIp: string) {
  try {
    return (await accountRoute.action(
      routeArgs(formRequest('/account', fields, cookie), {}, { clientIp, cspNonce: '' }),
    )) as unknown
  } catch (error) {
    if (error instanceof Response) return error
    throw error
  }
}

type Answer = {
  init: { status: number } | null
  data: { step: string; message?: string; result?: { error: Record<string, string[]> } }
}

/** A customer who paid for a 30-day service at the gateway 10 days ago. */
async function payingCustomer() {
  const customer = await signedInUser({ completeProfile: true })
  const service = await createService('Equity', 300_000, 30)
  const paidAt = new Date(Date.now() - 10 * 86_400_000 + 60_000)
  const payment = await createPaymentRow(customer.userId, [cartItemOf(service)], {
    method: 'GATEWAY',
    createdAt: paidAt,
  })
  await markPaymentPaid(payment.id, { source: 'webhook', paidAt, gatewayPaymentId: `pay_${randomInt(0, 1e12)}` })
  return { customer, service }
}

describe('closing an account at /account', () => {
  it('ends the running service with its refund, signs out every session, and the number cannot sign in again', async () => {
    const { customer, service } = await payingCustomer()
    const secondCookie = (await signedInUser()).cookie // someone else's session stays
    const otherDevice = await prisma.session.create({
      data: {
        id: `other-${randomInt(0, 1e12)}`,
        userId: customer.userId,
        expiresAt: new Date(Date.now() + 86_400_000),
      },
    })
    const clientIp = ip()

    const page = await accountRoute.loader(routeArgs(getRequest('/account', customer.cookie)))
    expect(page.closing).toMatchObject({ ok: true, services: [{ name: service.name, refund: 'Rs. 2,000' }] })

    const sent = (await post({ intent: 'close-send-code' }, customer.cookie, clientIp)) as Answer
    expect(sent.data.step).toBe('code')
    const wrong = (await post(
      { intent: 'close', code: '000000' === (await codeSentTo(customer.phone)) ? '111111' : '000000' },
      customer.cookie,
      clientIp,
    )) as Answer
    expect(wrong.init!.status).toBe(400)
    expect(wrong.data.result!.error.code![0]).toMatch(/code/i)
    expect(await prisma.user.findUniqueOrThrow({ where: { id: customer.userId } })).toMatchObject({ closedAt: null })

    const closed = (await post(
      { intent: 'close', code: await codeSentTo(customer.phone) },
      customer.cookie,
      clientIp,
    )) as Response
    expect(closed.status).toBe(302)
    expect(closed.headers.get('Location')).toBe('/services')
    expect(closed.headers.get('Set-Cookie')).toMatch(/session=;/)

    const user = await prisma.user.findUniqueOrThrow({ where: { id: customer.userId }, select: { closedAt: true } })
    expect(user.closedAt).toBeInstanceOf(Date)
    expect(await prisma.session.count({ where: { userId: customer.userId } })).toBe(0)
    expect(await prisma.session.count({ where: { id: otherDevice.id } })).toBe(0)
    expect(await getSessionUser(getRequest('/account', secondCookie))).not.toBeNull()
    const refunds = await prisma.refund.findMany({
      where: { userId: customer.userId },
      select: { amountPaise: true, reason: true },
    })
    expect(refunds).toEqual([{ amountPaise: 200_000, reason: 'CUSTOMER_ENDED' }])
    expect(await prisma.auditLog.count({ where: { subjectId: customer.userId, action: 'account.closed' } })).toBe(1)

    // The old cookie no longer signs anyone in.
    expect(await getSessionUser(getRequest('/account', customer.cookie))).toBeNull()
    await expect(accountRoute.loader(routeArgs(getRequest('/account', customer.cookie)))).rejects.toMatchObject({
      status: 302,
    })

    // Signing in again: a code checks out, and the closed account is refused with a clear message.
    await requestOtp({ phone: customer.phone, ip: ip(), now: new Date(Date.now() + 3_600_000) })
    const code = await codeSentTo(customer.phone)
    const signIn = signInWithVerifiedCode({ phone: customer.phone, code, ip: ip() })
    await expect(signIn).rejects.toBeInstanceOf(SignInError)
    await expect(signIn).rejects.toThrow(/This account was closed on \d{2}-\d{2}-\d{4} and cannot be used to sign in/)
  })

  it('stops the messages queued for it; the refund and credit note e-mails still go', async () => {
    const { customer } = await payingCustomer()
    const email = `closing-${customer.userId.slice(0, 8)}@example.in`
    await prisma.user.update({ where: { id: customer.userId }, data: { email } })
    await sendOnboardingCopy(customer.userId, [], new Date())
    const closed = await closeAccount(customer.userId, new Date())
    expect(closed.ok).toBe(true)

    const queued = await queuedEmails(email)
    const copy = queued.find((message) => message.userId === customer.userId)
    const refund = queued.find((message) => message.userId === undefined)
    expect(copy).toBeDefined()
    expect(refund).toBeDefined()
    for (const message of queued) await sendEmail(message)
    const delivered = await prisma.outboxMessage.findMany({ where: { recipient: email }, select: { subject: true } })
    expect(delivered.map((row) => row.subject)).toEqual([refund!.subject])

    await sendNoticeSms({ to: customer.phone, text: 'For the account', userId: customer.userId })
    await sendNoticeSms({ to: customer.phone, text: 'An answer to a complaint' })
    const texts = await prisma.outboxMessage.findMany({
      where: { recipient: customer.phone, channel: 'sms' },
      select: { body: true },
    })
    expect(texts.map((row) => row.body)).toEqual([expect.stringContaining('An answer to a complaint')])
  })

  it('a closed account whose session row still exists is signed out', async () => {
    const customer = await signedInUser({ completeProfile: true })
    await prisma.user.update({ where: { id: customer.userId }, data: { closedAt: new Date() } })
    expect(await getSessionUser(getRequest('/account', customer.cookie))).toBeNull()
  })

  it('lists a payment in flight (an open gateway order or a manual claim) as cancelled by closing, and closes', async () => {
    for (const method of ['GATEWAY', 'MANUAL'] as const) {
      const customer = await signedInUser({ completeProfile: true })
      const service = await createService('Momentum', 150_000, 30)
      const payment = await createPaymentRow(customer.userId, [cartItemOf(service)], { method })
      const page = await accountRoute.loader(routeArgs(getRequest('/account', customer.cookie)))
      expect(page.closing).toMatchObject({
        ok: true,
        cancels: [
          expect.stringMatching(
            method === 'GATEWAY'
              ? /^Your payment of Rs. 1,500 in progress at the payment gateway is cancelled/
              : /^Your bank transfer claim of Rs. 1,500 is cancelled/,
          ),
        ],
      })
      const clientIp = ip()
      const sent = (await post({ intent: 'close-send-code' }, customer.cookie, clientIp)) as Answer
      expect(sent.data.step).toBe('code')
      const closed = (await post(
        { intent: 'close', code: await codeSentTo(customer.phone) },
        customer.cookie,
        clientIp,
      )) as Response
      expect(closed.status).toBe(302)
      expect(await prisma.payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({
        status: 'CANCELLED',
      })
    }
  })

  it('asks to end first a service whose refund goes by bank transfer', async () => {
    const customer = await signedInUser({ completeProfile: true })
    const service = await createService('Options', 300_000, 30)
    const paidAt = new Date(Date.now() - 86_400_000)
    const payment = await createPaymentRow(customer.userId, [cartItemOf(service)], {
      method: 'MANUAL',
      createdAt: paidAt,
    })
    await markPaymentPaid(payment.id, { source: 'admin', paidAt })
    const page = await accountRoute.loader(routeArgs(getRequest('/account', customer.cookie)))
    expect(page.closing).toMatchObject({ ok: false, serviceId: service.id })
    expect(page.closing.ok ? '' : page.closing.message).toMatch(/goes by bank transfer, so end that service first/)
  })
})
