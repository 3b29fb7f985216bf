import { afterEach, describe, expect, it } from 'vitest'
import { brandWithRegisteredName } from '~/domain/business-details'
import * as adminCustomer from '~/routes/admin/customer'
import { businessDetails } from '~/server/business.server'
import { decideCorrectionRequest, fileCorrectionRequest } from '~/server/account/corrections.server'
import { prisma } from '~/server/db.server'
import { sendEmail, sendNoticeSms } from '~/server/messaging/delivery.server'
import { useKycProvider } from '~/server/kyc/kra.server'
import type { NoticeSms } from '~/server/messaging/sms.server'
import { queuedEmails } from '../support/queued-emails'
import { formRequest, routeArgs } from '../support/route-requests'
import { uniquePan } from '../support/sample-customer'
import { signedInUser } from '../support/sessions'

// The admin's decision on a correction request reaches the customer: an e-mail, or an SMS when
// there is no e-mail address; PAN masked; a rejection with its reason; nothing once the account is closed.

afterEach(() => useKycProvider(undefined))

async function customerWithRequest({ email }: { email: string | null }) {
  const customer = await signedInUser({ completeProfile: true })
  const before = await prisma.user.findUniqueOrThrow({ where: { id: customer.userId }, select: { pan: true } })
  const newPan = uniquePan()
  expect(await fileCorrectionRequest(customer.userId, { pan: newPan, reason: 'Typo in my PAN' })).toMatchObject({
    ok: true,
  })
  const request = await prisma.correctionRequest.findFirstOrThrow({ where: { userId: customer.userId } })
  // Set after filing: a complete profile needs an e-mail address, but an older account may have none.
  await prisma.user.update({ where: { id: customer.userId }, data: { email } })
  return { ...customer, request, oldPan: before.pan!, newPan }
}

const masked = (pan: string) => `${pan.slice(0, 5)}****${pan.slice(-1)}`

async function queuedSms(to: string): Promise<NoticeSms[]> {
  const jobs = await prisma.$queryRaw<{ data: NoticeSms }[]>`
    SELECT data FROM pgboss.job WHERE name = 'send-notice-sms' AND data->>'to' = ${to} ORDER BY created_on`
  return jobs.map((job) => job.data)
}

describe('the customer is told of the decision on a correction request', () => {
  it('an approval: an e-mail with the old and new PAN masked and the KRA’s answer', async () => {
    const email = `approve-${Date.now()}@example.in`
    const { userId, request, oldPan, newPan } = await customerWithRequest({ email })
    const admin = await signedInUser({ role: 'ADMIN' })
    expect(await decideCorrectionRequest(admin.userId, userId, request.id, 'approve')).toMatchObject({ ok: true })

    const [mail, ...others] = await queuedEmails(email)
    expect(others).toEqual([])
    expect(mail).toMatchObject({ subject: 'Your correction request was approved', userId })
    expect(mail!.body).toContain(`PAN: ${masked(oldPan)} to ${masked(newPan)}`)
    expect(mail!.body).toContain('it answered: Validated')
    expect(`${mail!.body}${mail!.html}`).not.toContain(newPan)
    expect(`${mail!.body}${mail!.html}`).not.toContain(oldPan)
  })

  it('a rejection through the admin’s page: refused without a reason, then e-mailed with it', async () => {
    const email = `reject-${Date.now()}@example.in`
    const { userId, request, newPan } = await customerWithRequest({ email })
    const admin = await signedInUser({ role: 'ADMIN' })
    const reject = (reason: string) =>
      adminCustomer.action(
        routeArgs(
          formRequest(
            `/admin/customers/${userId}`,
            { intent: 'correction-reject', requestId: request.id, reason },
            admin.cookie,
          ),
          { userId },
        ),
      )
    expect(await reject('   ')).toMatchObject({
      init: { status: 400 },
      data: {
        ok: false,
        message: 'Not rejected: the reason below is needed.',
        result: { error: { reason: ['Say why you reject it: the customer is sent the reason.'] } },
      },
    })
    expect(await queuedEmails(email)).toEqual([])
    expect(await reject('The PAN card image shows a different number.')).toMatchObject({ data: { ok: true } })

    const [mail, ...others] = await queuedEmails(email)
    expect(others).toEqual([])
    expect(mail).toMatchObject({ subject: 'Your correction request was not approved', userId })
    expect(mail!.body).toContain('Reason: The PAN card image shows a different number.')
    expect(mail!.body).toContain(`to ${masked(newPan)}`)
    expect(mail!.body).not.toContain(newPan)
    const audit = await prisma.auditLog.findFirstOrThrow({ where: { subjectId: userId, action: 'correction.reject' } })
    expect(audit.after).toMatchObject({ reason: 'The PAN card image shows a different number.' })
  })

  it('without an e-mail address, an SMS to the account’s number', async () => {
    const { userId, phone, request } = await customerWithRequest({ email: null })
    const admin = await signedInUser({ role: 'ADMIN' })
    expect(
      await decideCorrectionRequest(admin.userId, userId, request.id, 'reject', { reason: 'Not your PAN.' }),
    ).toMatchObject({ ok: true })
    expect(await queuedSms(phone)).toEqual([
      {
        to: phone,
        userId,
        text: `${brandWithRegisteredName(businessDetails)}: we did not approve your correction request (PAN). Reason: Not your PAN.`,
      },
    ])
  })

  it('is dropped, e-mail or SMS, when the account is closed before it goes', async () => {
    const email = `closed-${Date.now()}@example.in`
    const withEmail = await customerWithRequest({ email })
    const withoutEmail = await customerWithRequest({ email: null })
    const admin = await signedInUser({ role: 'ADMIN' })
    for (const customer of [withEmail, withoutEmail])
      await decideCorrectionRequest(admin.userId, customer.userId, customer.request.id, 'reject', { reason: 'No.' })
    await prisma.user.updateMany({
      where: { id: { in: [withEmail.userId, withoutEmail.userId] } },
      data: { closedAt: new Date() },
    })
    for (const mail of await queuedEmails(email)) await sendEmail(mail)
    for (const sms of await queuedSms(withoutEmail.phone)) await sendNoticeSms(sms)
    expect(await prisma.outboxMessage.count({ where: { recipient: { in: [email, withoutEmail.phone] } } })).toBe(0)
  })
})
