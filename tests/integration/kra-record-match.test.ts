import { randomInt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import * as accountCorrections from '~/routes/account.corrections'
import * as adminCustomer from '~/routes/admin/customer'
import * as createOrder from '~/routes/api.v1/payments.create-order'
import * as payRoute from '~/routes/pay'
import { prisma } from '~/server/db.server'
import { FAKE_KRA_OTHER_NAME, fakeKraTestPan } from '~/server/kyc/kra.server'
import { serializeCart } from '~/server/payments/cart.server'
import { startGatewayPayment } from '~/server/payments/checkout.server'
import { createManualPayment } from '~/server/payments/manual-claims.server'
import { createService } from '../support/payment-fixtures'
import { queuedEmails } from '../support/queued-emails'
import { formRequest, getRequest, jsonRequest, routeArgs } from '../support/route-requests'
import { ASHA_RAO } from '../support/sample-customer'
import { signedInUser } from '../support/sessions'

// The KRA's record must match the profile (issue 28 item 4, decision 047): a PAN whose KRA record
// carries another name or date of birth cannot pay until the admin decides, and the decision is audited.

const digits = () => String(randomInt(0, 1e4)).padStart(4, '0')

async function customerWhoseRecordDiffers(kind: 'otherName' | 'otherDob') {
  const pan = fakeKraTestPan(kind, digits())
  await prisma.user.updateMany({ where: { pan }, data: { pan: null } })
  return signedInUser({ completeProfile: true, details: { ...ASHA_RAO, pan } })
}

const orderBody = (ids: string[]) => ({
  amount: 1000,
  currency: 'INR',
  receipt: 'ABCPE1234F',
  notes: { number: '+919876543210', details: '{}', cart: JSON.stringify(ids) },
})

async function apiCreateOrder(cookie: string, serviceId: string) {
  return (await createOrder.action(
    routeArgs(jsonRequest('/api/v1/payments/create-order', orderBody([serviceId]), cookie)),
  )) as Response
}

async function decide(adminCookie: string, userId: string, decision: string) {
  return adminCustomer.action(
    routeArgs(formRequest(`/admin/customers/${userId}`, { intent: 'kra-record-decide', decision }, adminCookie), {
      userId,
    }),
  )
}

describe('a KRA record with another name or date of birth', () => {
  it('stores what the KRA returned', async () => {
    const { userId } = await customerWhoseRecordDiffers('otherDob')
    const row = await prisma.user.findUniqueOrThrow({ where: { id: userId } })
    expect(row.kycStatus).toBe('VALIDATED')
    expect(row.kycNameOnRecord).toBe('ASHA RAO')
    expect(row.kycDobOnRecord?.toISOString().slice(0, 10)).toBe('2000-05-17')
  })

  it.each(['otherName', 'otherDob'] as const)(
    'refuses paying (%s) on the API and /pay, saying the analyst will check it',
    async (kind) => {
      const { userId, cookie } = await customerWhoseRecordDiffers(kind)
      const service = await createService('Record differs', 100_000, 30)
      const field = kind === 'otherName' ? 'name' : 'date of birth'
      const refusal = new RegExp(
        `You cannot pay yet: the ${field} the KYC registration agency \\(KRA\\) holds for your PAN is not the ${field} in your profile\\. The analyst will check`,
      )
      const api = await apiCreateOrder(cookie, service.id)
      expect(api.status).toBe(403)
      const body = (await api.json()) as { message: string }
      expect(body.message).toMatch(refusal)
      expect(body.message).not.toMatch(/\/account/)
      await expect(createManualPayment(userId, [service.id])).rejects.toMatchObject({ code: 'kyc', status: 403 })

      const cart = await serializeCart([service.id])
      const loaded = (await payRoute.loader(routeArgs(getRequest('/pay', [cookie, cart])))) as unknown as {
        data: { kycRefusal?: string }
      }
      expect(loaded.data.kycRefusal).toMatch(refusal)
      const posted = await payRoute.action(
        routeArgs(
          formRequest('/pay', { intent: 'gateway', shownTotalPaise: '100000', paymentKey: crypto.randomUUID() }, [
            cookie,
            cart,
          ]),
        ),
      )
      expect(posted).toMatchObject({ init: { status: 403 } })
      expect(await prisma.payment.count({ where: { userId } })).toBe(0)

      // The KYC details page says the same, with what the KRA holds.
      const page = (await accountCorrections.loader(routeArgs(getRequest('/account/corrections', cookie)))) as {
        kyc: { allowsPayment: boolean; advice: string; record: { name: string; dob: string } | null }
      }
      expect(page.kyc.allowsPayment).toBe(false)
      expect(page.kyc.advice).toMatch(/ask for a correction below/)
      expect(page.kyc.record).toEqual(
        kind === 'otherName'
          ? { name: FAKE_KRA_OTHER_NAME, dob: '17-05-2001' }
          : { name: 'ASHA RAO', dob: '17-05-2000' },
      )
    },
  )

  it('the admin sees the difference and accepts it: paying works, and the decision is audited', async () => {
    const { userId, cookie } = await customerWhoseRecordDiffers('otherDob')
    const admin = await signedInUser({ role: 'ADMIN' })
    const loaded = (await adminCustomer.loader(
      routeArgs(getRequest(`/admin/customers/${userId}`, admin.cookie), { userId }),
    )) as { customer: { kyc: { record: { rows: unknown[]; decision: string } | null } } }
    expect(loaded.customer.kyc.record).toEqual({
      rows: [
        { field: 'Name', profile: 'Asha Rao', record: 'ASHA RAO', differs: false },
        { field: 'Date of birth', profile: '17-05-2001', record: '17-05-2000', differs: true },
      ],
      decision: 'Waiting for your decision: the customer cannot pay until then.',
    })

    const answer = await decide(admin.cookie, userId, 'ACCEPTED')
    expect(answer).toMatchObject({ data: { ok: true, message: 'Decided: accepted: the record is the same person.' } })
    const service = await createService('Accepted', 100_000, 30)
    expect((await apiCreateOrder(cookie, service.id)).status).toBe(200)

    const audit = await prisma.auditLog.findFirstOrThrow({
      where: { subjectId: userId, action: 'customer.kra-record.accept' },
    })
    expect(audit.actorId).toBe(admin.userId)
    expect(audit.after).toEqual({
      review: 'ACCEPTED',
      differences: ['dob'],
      profile: { name: 'Asha Rao', dob: '2001-05-17' },
      record: { name: 'ASHA RAO', dob: '2000-05-17' },
    })
  })

  it('asking the customer to correct keeps paying refused, says so, and is audited; a new record asks again', async () => {
    const { userId, cookie } = await customerWhoseRecordDiffers('otherName')
    const admin = await signedInUser({ role: 'ADMIN' })
    expect(await decide(admin.cookie, userId, 'CORRECTION_ASKED')).toMatchObject({ data: { ok: true } })
    const service = await createService('Asked', 100_000, 30)
    const refused = await apiCreateOrder(cookie, service.id)
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /The analyst has checked it and asks you to correct your details: ask for a correction on your KYC details page/,
    )
    expect(
      await prisma.auditLog.count({
        where: { subjectId: userId, action: 'customer.kra-record.ask-correction', actorId: admin.userId },
      }),
    ).toBe(1)

    // An acceptance holds only for the values it was made on.
    expect(await decide(admin.cookie, userId, 'ACCEPTED')).toMatchObject({ data: { ok: true } })
    expect((await apiCreateOrder(cookie, service.id)).status).toBe(200)
    await prisma.user.update({ where: { id: userId }, data: { kycNameOnRecord: 'SOMEONE ELSE ENTIRELY' } })
    await expect(startGatewayPayment(userId, [service.id])).rejects.toMatchObject({ code: 'kyc' })
  })

  it('tells the customer the decision by e-mail, with what to do next', async () => {
    const asked = await customerWhoseRecordDiffers('otherName')
    const accepted = await customerWhoseRecordDiffers('otherDob')
    const askedEmail = `kra-asked-${asked.userId.slice(0, 8)}@example.in`
    const acceptedEmail = `kra-accepted-${accepted.userId.slice(0, 8)}@example.in`
    await prisma.user.update({ where: { id: asked.userId }, data: { email: askedEmail } })
    await prisma.user.update({ where: { id: accepted.userId }, data: { email: acceptedEmail } })
    const admin = await signedInUser({ role: 'ADMIN' })

    await decide(admin.cookie, asked.userId, 'CORRECTION_ASKED')
    await decide(admin.cookie, accepted.userId, 'ACCEPTED')

    const [askedNotice] = await queuedEmails(askedEmail)
    expect(await queuedEmails(askedEmail)).toHaveLength(1)
    expect(askedNotice).toMatchObject({
      subject: 'Your KYC record was checked: please correct your details',
      template: 'kra-record-decided',
      userId: asked.userId,
    })
    expect(askedNotice!.body).toContain('The name the KYC registration agency (KRA) holds')
    expect(askedNotice!.body).toContain('ask for a correction on your KYC details page')
    expect(askedNotice!.body).toContain('update it through your broker or mutual fund')
    expect(askedNotice!.body).toContain('/account/corrections')
    const [acceptedNotice] = await queuedEmails(acceptedEmail)
    expect(acceptedNotice).toMatchObject({ subject: 'Your KYC record was checked: you can pay again' })
    expect(acceptedNotice!.body).toContain('The date of birth the KYC registration agency (KRA) holds')

    // A refused decision (nothing to decide any more) tells no one.
    await prisma.user.update({ where: { id: accepted.userId }, data: { kycDobOnRecord: null } })
    expect(await decide(admin.cookie, accepted.userId, 'ACCEPTED')).toMatchObject({ init: { status: 409 } })
    expect(await queuedEmails(acceptedEmail)).toHaveLength(1)
  })

  it('refuses a decision with nothing to decide, or none named', async () => {
    const { userId } = await signedInUser({ completeProfile: true })
    const admin = await signedInUser({ role: 'ADMIN' })
    expect(await decide(admin.cookie, userId, 'ACCEPTED')).toMatchObject({ init: { status: 409 } })
    expect(await decide(admin.cookie, userId, 'MAYBE')).toMatchObject({ init: { status: 400 } })
    expect(
      await prisma.auditLog.count({ where: { subjectId: userId, action: { startsWith: 'customer.kra-record' } } }),
    ).toBe(0)
  })
})
