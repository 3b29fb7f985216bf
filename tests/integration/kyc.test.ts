import { afterEach, describe, expect, it } from 'vitest'
import * as accountCorrections from '~/routes/account.corrections'
import * as accountEmail from '~/routes/account.email'
import { queuedEmails } from '../support/queued-emails'
import * as adminCustomer from '~/routes/admin/customer'
import * as adminPanCard from '~/routes/admin/customer-pan-card'
import * as details from '~/routes/details'
import * as createOrder from '~/routes/api.v1/payments.create-order'
import * as manualPayment from '~/routes/api.v1/payments.manual-payment'
import * as setDetails from '~/routes/api.v1/users.set-details'
import * as setPanCard from '~/routes/api.v1/users.set-pancard'
import * as payRoute from '~/routes/pay'
import { serializeCart } from '~/server/payments/cart.server'
import { decideCorrectionRequest, fileCorrectionRequest, openPanIn } from '~/server/account/corrections.server'
import { prisma } from '~/server/db.server'
import { FAKE_KRA_OTHER_NAME, FAKE_KRA_TEST_PANS, useKycProvider, type KycProvider } from '~/server/kyc/kra.server'
import { confirmManualPayment, createManualPayment } from '~/server/payments/manual-claims.server'
import { startGatewayPayment } from '~/server/payments/checkout.server'
import { PaymentError } from '~/server/payments/core.server'
import { recheckKyc, savePanCard, saveProfileDetails } from '~/server/account/profile.server'
import { readFlash } from '~/server/http/flash.server'
import { profileDetailsSchema } from '~/domain/profile'
import { createService, STATEMENT_ENTRY } from '../support/payment-fixtures'
import { cookieOf, formRequest, getRequest, jsonRequest, routeArgs } from '../support/route-requests'
import { ASHA_RAO, uniquePan } from '../support/sample-customer'
import { signedInUser } from '../support/sessions'
import { TINY_PNG } from '../support/multipart'
import { receivedFileOf } from '~/server/http/received-file.server'

const detailsWith = (pan: string) => profileDetailsSchema(new Date()).parse({ ...ASHA_RAO, pan })
const checkoutBody = (ids: string[], amount: number) => ({
  amount,
  currency: 'INR',
  receipt: 'ABCPE1234F',
  notes: { number: '+919876543210', details: '{}', cart: JSON.stringify(ids) },
})

afterEach(() => useKycProvider(undefined))

/** A customer whose complete profile the KRA answered `status` for. */
async function customerWithKyc(pan: string) {
  const user = await signedInUser({ completeProfile: true, details: { ...ASHA_RAO, pan } })
  return user
}

const userRow = (id: string) => prisma.user.findUniqueOrThrow({ where: { id } })

describe('the KRA check when details are saved', () => {
  it.each([
    ['any other individual PAN', () => uniquePan(), 'VALIDATED'],
    ['the registered test PAN', () => FAKE_KRA_TEST_PANS.registered, 'REGISTERED'],
    ['the on-hold test PAN', () => FAKE_KRA_TEST_PANS.onHold, 'ON_HOLD'],
    ['the not-found test PAN', () => FAKE_KRA_TEST_PANS.notFound, 'NOT_FOUND'],
  ])('stores the answer for %s', async (_label, pan, status) => {
    const { userId } = await signedInUser()
    const chosen = pan()
    await prisma.user.updateMany({ where: { pan: chosen }, data: { pan: null } })
    const saved = await saveProfileDetails(userId, detailsWith(chosen))
    expect(saved).toMatchObject({ ok: true, kyc: { status } })
    const row = await userRow(userId)
    expect(row).toMatchObject({ pan: chosen, kycStatus: status })
    expect(row.kycCheckedAt).toBeInstanceOf(Date)
    expect(row.kycReference).toMatch(/^FAKE-/)
  })

  it.each([
    ['answers with an error', FAKE_KRA_TEST_PANS.error, 1_000],
    ['does not answer in time', FAKE_KRA_TEST_PANS.slow, 200],
  ])('saves nothing when the KRA %s, and says to try again', async (_label, pan, timeoutMs) => {
    const { userId, cookie } = await signedInUser()
    const before = await userRow(userId)
    if (timeoutMs < 1_000) {
      const { fakeKra, checkKyc } = await import('~/server/kyc/kra.server')
      const quick: KycProvider = { name: 'quick', check: (query) => checkKyc(query, { provider: fakeKra, timeoutMs }) }
      useKycProvider(quick)
    }
    const response = await details.action(
      routeArgs(formRequest('/details', { ...ASHA_RAO, pan, 'family[0].pan': '', 'family[0].relation': '' }, cookie)),
    )
    expect(response).toMatchObject({ init: { status: 503 } })
    expect(JSON.stringify(response)).toMatch(/could not check your KYC.*nothing was saved/)
    const after = await userRow(userId)
    expect(after).toMatchObject({ name: before.name, pan: null, kycStatus: null, dateOfBirth: null })
    const api = await setDetails.action(
      routeArgs(jsonRequest('/api/v1/users/set-details', { ...ASHA_RAO, pan }, cookie)),
    )
    expect((api as Response).status).toBe(503)
    expect((await userRow(userId)).pan).toBeNull()
  })
})

describe('paying needs a validated or registered KYC', () => {
  it('lets a REGISTERED customer pay', async () => {
    await prisma.user.updateMany({ where: { pan: FAKE_KRA_TEST_PANS.registered }, data: { pan: null } })
    const { userId } = await customerWithKyc(FAKE_KRA_TEST_PANS.registered)
    const service = await createService('Registered', 100_000, 30)
    const claim = await createManualPayment(userId, [service.id])
    expect(claim.created).toBe(true)
  })

  it.each([FAKE_KRA_TEST_PANS.notFound, FAKE_KRA_TEST_PANS.onHold])(
    'refuses %s on every paying path, pages and API, with what to do',
    async (pan) => {
      await prisma.user.updateMany({ where: { pan }, data: { pan: null } })
      const { userId, cookie } = await customerWithKyc(pan)
      const service = await createService('Refused', 100_000, 30)
      // The functions every path goes through.
      await expect(startGatewayPayment(userId, [service.id])).rejects.toMatchObject({ code: 'kyc', status: 403 })
      await expect(createManualPayment(userId, [service.id])).rejects.toBeInstanceOf(PaymentError)
      // The API.
      for (const route of [createOrder, manualPayment]) {
        const response = (await route.action(
          routeArgs(jsonRequest('/api/v1/payments/x', checkoutBody([service.id], 1000), cookie)),
        )) as Response
        expect(response.status).toBe(403)
        expect((await response.json()).message).toMatch(/You cannot pay yet: your KYC .* on your KYC details page/)
      }
      // /pay: said before paying, and both buttons refused.
      const cart = await serializeCart([service.id])
      const loaded = (await payRoute.loader(routeArgs(getRequest('/pay', [cookie, cart])))) as unknown as {
        data: { kycRefusal?: string }
      }
      expect(loaded.data.kycRefusal).toMatch(/You cannot pay yet/)
      for (const intent of ['gateway', 'manual']) {
        const result = await payRoute.action(
          routeArgs(
            formRequest('/pay', { intent, shownTotalPaise: '100000', paymentKey: crypto.randomUUID() }, [cookie, cart]),
          ),
        )
        expect(result).toMatchObject({ init: { status: 403 } })
      }
      expect(await prisma.payment.count({ where: { userId } })).toBe(0)
    },
  )

  it("refuses the admin's confirmation of a claim once the customer's KYC no longer allows paying", async () => {
    const { userId } = await signedInUser({ completeProfile: true })
    const service = await createService('Claim', 100_000, 30)
    const claim = await createManualPayment(userId, [service.id])
    await prisma.user.update({ where: { id: userId }, data: { kycStatus: 'ON_HOLD' } })
    await expect(confirmManualPayment(claim.paymentId, STATEMENT_ENTRY)).rejects.toMatchObject({ code: 'kyc' })
  })
})

describe('KYC details lock once the profile is complete', () => {
  it('answers set-details 409 with a message, and the page refuses too', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const before = await userRow(userId)
    const response = (await setDetails.action(
      routeArgs(
        jsonRequest('/api/v1/users/set-details', { ...ASHA_RAO, pan: uniquePan(), name: 'Other Name' }, cookie),
      ),
    )) as Response
    expect(response.status).toBe(409)
    expect((await response.json()).message).toMatch(/correction request/)
    const saved = await saveProfileDetails(userId, detailsWith(uniquePan()))
    expect(saved).toMatchObject({ ok: false, status: 409 })
    expect(await userRow(userId)).toMatchObject({ pan: before.pan, name: before.name })
  })

  it('files a correction request, which an admin approves (KRA asked again, audited with old and new)', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const admin = await signedInUser({ role: 'ADMIN' })
    const before = await userRow(userId)
    const newPan = uniquePan()
    const filed = await accountCorrections.action(
      routeArgs(
        formRequest(
          '/account/corrections',
          { intent: 'correction', pan: newPan, name: '', dob: '', reason: 'Typo in my PAN' },
          cookie,
        ),
      ),
    )
    expect(filed).toBeInstanceOf(Response)
    const request = await prisma.correctionRequest.findFirstOrThrow({ where: { userId } })
    expect(request.status).toBe('PENDING')
    // Stored encrypted, like users.pan (docs/architecture.md, "PANs at rest").
    expect(JSON.stringify([request.oldValues, request.newValues])).not.toMatch(new RegExp(`${before.pan}|${newPan}`))
    expect(openPanIn(request.oldValues as Record<string, string>)).toEqual({ pan: before.pan })
    expect(openPanIn(request.newValues as Record<string, string>)).toEqual({ pan: newPan })
    // Not changed until approved.
    expect((await userRow(userId)).pan).toBe(before.pan)
    const decided = await adminCustomer.action(
      routeArgs(
        formRequest(
          `/admin/customers/${userId}`,
          { intent: 'correction-approve', requestId: request.id },
          admin.cookie,
        ),
        { userId },
      ),
    )
    expect(decided).toMatchObject({ data: { ok: true } })
    const after = await userRow(userId)
    expect(after).toMatchObject({ pan: newPan, kycStatus: 'VALIDATED' })
    expect(after.kycCheckedAt!.getTime()).toBeGreaterThanOrEqual(before.kycCheckedAt!.getTime())
    const audit = await prisma.auditLog.findFirstOrThrow({ where: { subjectId: userId, action: 'correction.approve' } })
    expect(audit.actorId).toBe(admin.userId)
    expect(JSON.stringify([audit.before, audit.after])).not.toMatch(new RegExp(`${before.pan}|${newPan}`))
    expect(openPanIn(audit.before as Record<string, string>)).toEqual({ pan: before.pan })
    expect(openPanIn(audit.after as Record<string, string>)).toMatchObject({ pan: newPan })
  })

  it('a rejected request changes nothing and is audited; a KRA error on approval leaves it waiting', async () => {
    const { userId } = await signedInUser({ completeProfile: true })
    const admin = await signedInUser({ role: 'ADMIN' })
    const before = await userRow(userId)
    await prisma.user.updateMany({ where: { pan: FAKE_KRA_TEST_PANS.error }, data: { pan: null } })
    expect(await fileCorrectionRequest(userId, { pan: FAKE_KRA_TEST_PANS.error, reason: 'wrong' })).toMatchObject({
      ok: true,
    })
    const request = await prisma.correctionRequest.findFirstOrThrow({ where: { userId } })
    expect(await decideCorrectionRequest(admin.userId, userId, request.id, 'approve')).toMatchObject({
      ok: false,
      status: 503,
    })
    expect(await prisma.correctionRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
      status: 'PENDING',
    })
    expect((await userRow(userId)).pan).toBe(before.pan)
    expect(await decideCorrectionRequest(admin.userId, userId, request.id, 'reject', { reason: ' ' })).toMatchObject({
      ok: false,
      status: 400,
    })
    expect(
      await decideCorrectionRequest(admin.userId, userId, request.id, 'reject', {
        reason: 'The KRA holds another PAN.',
      }),
    ).toMatchObject({ ok: true })
    expect(await userRow(userId)).toMatchObject({ pan: before.pan, kycStatus: before.kycStatus })
    expect(
      await prisma.auditLog.count({ where: { subjectId: userId, action: 'correction.reject', actorId: admin.userId } }),
    ).toBe(1)
  })

  it('refuses a correction request for a field that fails validation, and one that changes nothing', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    for (const fields of <Record<string, string>[]>[
      { pan: 'ABCDE1234F', reason: 'x' },
      { name: 'R2-D2', reason: 'x' },
      { dob: '2020-01-01', reason: 'x' },
      { name: '', pan: '', dob: '', reason: 'nothing' },
      { pan: uniquePan(), reason: '' },
    ]) {
      const result = await accountCorrections.action(
        routeArgs(formRequest('/account/corrections', { intent: 'correction', ...fields }, cookie)),
      )
      expect(result).toMatchObject({ init: { status: 400 } })
    }
    const row = await userRow(userId)
    expect(await fileCorrectionRequest(userId, { pan: row.pan!, reason: 'same' })).toMatchObject({
      ok: false,
      status: 400,
    })
    expect(await prisma.correctionRequest.count({ where: { userId } })).toBe(0)
  })
})

/** A PAN card upload as a browser (or the API's clients) sends it, with the session cookie. */
function panCardUpload(url: string, cookie: string): Request {
  const form = new FormData()
  form.set('pancard', new File([TINY_PNG], 'card.png', { type: 'image/png' }))
  return new Request(`http://localhost${url}`, { method: 'POST', body: form, headers: { Cookie: cookie } })
}

describe('the PAN card image stays put once the profile is complete', () => {
  it('set-pancard answers 409 JSON, saying how to change it, and keeps the card', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const before = await userRow(userId)
    const response = (await setPanCard.action(
      routeArgs(panCardUpload('/api/v1/users/set-pancard', cookie)),
    )) as Response
    expect(response.status).toBe(409)
    expect(await response.json()).toEqual({ message: expect.stringMatching(/correction request/) })
    expect((await userRow(userId)).panCardKey).toBe(before.panCardKey)
    expect(await prisma.auditLog.count({ where: { subjectId: userId, action: 'profile.pan-card' } })).toBe(1)
  })

  it('the wizard refuses an upload, unread, and says so on the correction page', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const before = await userRow(userId)
    const answer = (await details.action(routeArgs(panCardUpload('/details', cookie)))) as Response
    expect(answer.status).toBe(302)
    expect(answer.headers.get('Location')).toBe('/account/corrections')
    expect(answer.headers.get('Connection')).toBe('close')
    const flash = await readFlash(getRequest('/account/corrections', cookieOf(answer.headers.get('Set-Cookie')!)))
    expect(flash.flash).toEqual({ tone: 'error', message: expect.stringMatching(/correction request/) })
    expect((await userRow(userId)).panCardKey).toBe(before.panCardKey)
  })

  it('an upload that meets the profile completed meanwhile changes nothing (409)', async () => {
    const { userId } = await signedInUser({ completeProfile: true })
    const before = await userRow(userId)
    const stale = { id: userId, panCardKey: before.panCardKey }
    const upload = {
      ok: true as const,
      file: await receivedFileOf(TINY_PNG),
      contentType: 'image/png' as const,
      extension: 'png' as const,
      size: TINY_PNG.length,
      fields: new FormData(),
    }
    expect(await savePanCard(stale, upload)).toEqual({
      ok: false,
      status: 409,
      message: expect.stringMatching(/correction request/),
    })
    expect((await userRow(userId)).panCardKey).toBe(before.panCardKey)
  })
})

describe('a new PAN card image through a correction request', () => {
  /** The correction form with a new image, as the page posts it (multipart). */
  function correctionWithImage(cookie: string, fields: Record<string, string>) {
    const form = new FormData()
    form.set('intent', 'correction')
    for (const [name, value] of Object.entries(fields)) form.set(name, value)
    form.set('panCard', new File([TINY_PNG], 'new-card.png', { type: 'image/png' }))
    return new Request('http://localhost/account/corrections', {
      method: 'POST',
      body: form,
      headers: { Cookie: cookie },
    })
  }

  it('is filed with the image alone, changes nothing until approved, then replaces the card (audited)', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const admin = await signedInUser({ role: 'ADMIN' })
    const before = await userRow(userId)
    const filed = await accountCorrections.action(
      routeArgs(correctionWithImage(cookie, { name: '', pan: '', dob: '', reason: 'My old card was unreadable' })),
    )
    expect(filed).toBeInstanceOf(Response)
    const request = await prisma.correctionRequest.findFirstOrThrow({ where: { userId } })
    const proposed = (request.newValues as Record<string, string>).panCard!
    expect(proposed).toMatch(new RegExp(`^pan-cards/${userId}/`))
    expect(proposed).not.toBe(before.panCardKey)
    expect(request.oldValues).toEqual({ panCard: before.panCardKey })
    expect((await userRow(userId)).panCardKey).toBe(before.panCardKey)
    expect(await prisma.auditLog.count({ where: { subjectId: userId, action: 'correction.request' } })).toBe(1)

    // The admin sees the proposed image before deciding.
    const shown = (await adminPanCard.loader(
      routeArgs(getRequest(`/admin/customers/${userId}/pan-card?correction=${request.id}`, admin.cookie), { userId }),
    )) as Response
    expect(shown.status).toBe(200)
    expect(new Uint8Array(await shown.arrayBuffer())).toEqual(TINY_PNG)

    expect(await decideCorrectionRequest(admin.userId, userId, request.id, 'approve')).toMatchObject({ ok: true })
    expect((await userRow(userId)).panCardKey).toBe(proposed)
    const audit = await prisma.auditLog.findFirstOrThrow({ where: { subjectId: userId, action: 'correction.approve' } })
    expect(audit).toMatchObject({ before: { panCard: before.panCardKey }, after: { panCard: proposed } })
  })

  it('a rejected image leaves the card as it was', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const admin = await signedInUser({ role: 'ADMIN' })
    const before = await userRow(userId)
    await accountCorrections.action(
      routeArgs(correctionWithImage(cookie, { name: '', pan: '', dob: '', reason: 'New card' })),
    )
    const request = await prisma.correctionRequest.findFirstOrThrow({ where: { userId } })
    expect(
      await decideCorrectionRequest(admin.userId, userId, request.id, 'reject', { reason: 'The image is blurred.' }),
    ).toMatchObject({ ok: true })
    expect((await userRow(userId)).panCardKey).toBe(before.panCardKey)
  })
})

describe('every change of the name, PAN, date of birth or PAN card is audited', () => {
  it("the wizard's details and PAN card, with the old and new values (the PAN sealed)", async () => {
    const { userId, cookie } = await signedInUser()
    const firstPan = uniquePan()
    expect(await saveProfileDetails(userId, detailsWith(firstPan))).toMatchObject({ ok: true })
    const secondPan = uniquePan()
    expect(await saveProfileDetails(userId, detailsWith(secondPan))).toMatchObject({ ok: true })
    const entries = await prisma.auditLog.findMany({
      where: { subjectId: userId, action: 'profile.details' },
      orderBy: { id: 'asc' },
    })
    expect(entries).toHaveLength(2)
    expect(entries.every((entry) => entry.actorId === userId && entry.subjectType === 'User')).toBe(true)
    expect(JSON.stringify(entries.map((entry) => [entry.before, entry.after]))).not.toMatch(
      new RegExp(`${firstPan}|${secondPan}`),
    )
    expect(openPanIn(entries[0]!.before as Record<string, string>)).toEqual({ name: null, pan: null, dob: null })
    expect(openPanIn(entries[0]!.after as Record<string, string>)).toEqual({
      name: 'Asha Rao',
      pan: firstPan,
      dob: ASHA_RAO.dob,
    })
    expect(openPanIn(entries[1]!.before as Record<string, string>)).toEqual({ pan: firstPan })
    expect(openPanIn(entries[1]!.after as Record<string, string>)).toEqual({ pan: secondPan })

    const response = (await setPanCard.action(
      routeArgs(panCardUpload('/api/v1/users/set-pancard', cookie)),
    )) as Response
    expect(response.status).toBe(200)
    const card = await prisma.auditLog.findFirstOrThrow({ where: { subjectId: userId, action: 'profile.pan-card' } })
    expect(card).toMatchObject({
      actorId: userId,
      before: { panCardKey: null },
      after: { panCardKey: (await userRow(userId)).panCardKey, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    })
  })

  it('saving the same details again records nothing', async () => {
    const { userId } = await signedInUser()
    const pan = uniquePan()
    await saveProfileDetails(userId, detailsWith(pan))
    await saveProfileDetails(userId, detailsWith(pan))
    expect(await prisma.auditLog.count({ where: { subjectId: userId, action: 'profile.details' } })).toBe(1)
  })
})

describe("the admin's customer page", () => {
  it('shows the KYC status, date, reference and a name mismatch', async () => {
    await prisma.user.updateMany({ where: { pan: FAKE_KRA_TEST_PANS.otherName }, data: { pan: null } })
    const { userId } = await customerWithKyc(FAKE_KRA_TEST_PANS.otherName)
    const admin = await signedInUser({ role: 'ADMIN' })
    const loaded = (await adminCustomer.loader(
      routeArgs(getRequest(`/admin/customers/${userId}`, admin.cookie), { userId }),
    )) as {
      customer: {
        kyc: { status: string; reference: string; checkedAt: string; nameOnRecord: string; nameMismatch: boolean }
      }
    }
    expect(loaded.customer.kyc).toMatchObject({
      status: 'Validated',
      nameOnRecord: FAKE_KRA_OTHER_NAME,
      nameMismatch: true,
      reference: expect.stringMatching(/^FAKE-/),
      checkedAt: expect.any(String),
    })
  })
})

describe('the e-mail address of a complete profile', () => {
  it('changes only with the code sent to the new address (audited)', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const before = await userRow(userId)
    const email = `new-${crypto.randomUUID().slice(0, 8)}@example.in`
    const sent = await accountEmail.action(
      routeArgs(formRequest('/account/email', { intent: 'send-code', email: email.toUpperCase() }, cookie)),
    )
    expect(sent).toMatchObject({ step: 'confirm', sentTo: email })
    const [message] = await queuedEmails(email)
    const code = /(\d{6}) is your Research Store code/.exec(message!.body)![1]!
    const wrong = code === '000000' ? '111111' : '000000'
    const refused = await accountEmail.action(
      routeArgs(formRequest('/account/email', { intent: 'confirm', email, code: wrong }, cookie)),
    )
    expect(refused).toMatchObject({ init: { status: 400 } })
    expect((await userRow(userId)).email).toBe(before.email)
    // A code for another address does not confirm this one.
    const other = await accountEmail.action(
      routeArgs(formRequest('/account/email', { intent: 'confirm', email: 'other@example.in', code }, cookie)),
    )
    expect(other).toMatchObject({ init: { status: 400 } })
    const confirmed = await accountEmail.action(
      routeArgs(formRequest('/account/email', { intent: 'confirm', email, code }, cookie)),
    )
    expect(confirmed).toBeInstanceOf(Response)
    expect((await userRow(userId)).email).toBe(email)
    expect(
      await prisma.auditLog.findFirstOrThrow({ where: { subjectId: userId, action: 'customer.email.change' } }),
    ).toMatchObject({ before: { email: before.email }, after: { email } })
  })

  it('refuses a malformed address', async () => {
    const { cookie } = await signedInUser({ completeProfile: true })
    const result = await accountEmail.action(
      routeArgs(formRequest('/account/email', { intent: 'send-code', email: 'not an address' }, cookie)),
    )
    expect(result).toMatchObject({ init: { status: 400 } })
  })
})

describe('"Check my KYC again"', () => {
  it('from the wizard asks the KRA again, says its answer, audits it, and goes to the first missing step', async () => {
    const { userId, cookie } = await signedInUser({ details: { ...ASHA_RAO, pan: uniquePan() } })
    await prisma.user.update({ where: { id: userId }, data: { kycStatus: 'ON_HOLD' } })
    const response = (await details.action(
      routeArgs(formRequest('/details?step=details&redirectTo=/pay', { intent: 'recheck' }, cookie)),
    )) as Response
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/details?redirectTo=%2Fpay')
    expect(
      await readFlash(getRequest('/details', [cookie, response.headers.get('Set-Cookie')!.split(';')[0]!])),
    ).toMatchObject({
      flash: { tone: 'success', message: 'The KRA answered: Validated.' },
    })
    expect(await userRow(userId)).toMatchObject({ kycStatus: 'VALIDATED' })
    const audit = await prisma.auditLog.findMany({ where: { subjectId: userId, action: 'kyc.recheck' } })
    expect(audit.map((row) => [row.actorId, row.before, row.after])).toEqual([
      [userId, expect.objectContaining({ kycStatus: 'ON_HOLD' }), expect.objectContaining({ kycStatus: 'VALIDATED' })],
    ])
  })

  it('is limited to 5 an hour per customer, on the wizard and the KYC details page alike', async () => {
    const { userId } = await signedInUser({ completeProfile: true, details: { ...ASHA_RAO, pan: uniquePan() } })
    const now = new Date('2026-12-01T10:00:00Z')
    for (let check = 0; check < 5; check++) expect(await recheckKyc(userId, now)).toMatchObject({ ok: true })
    expect(await recheckKyc(userId, new Date(now.getTime() + 60_000))).toEqual({
      ok: false,
      status: 429,
      message: 'You asked the KRA 5 times in the last hour. Try again in 59 minutes.',
    })
    expect(await recheckKyc(userId, new Date(now.getTime() + 60 * 60_000 + 1))).toMatchObject({ ok: true })
  })

  it('when the KRA does not answer, keeps the answer it had and audits nothing', async () => {
    const { userId, cookie } = await signedInUser({
      details: { ...ASHA_RAO, pan: `KRAPH${String(Date.now() % 10_000).padStart(4, '0')}Z` },
    })
    useKycProvider({
      name: 'down',
      check: async () => {
        throw new Error('down')
      },
    })
    const response = await details.action(routeArgs(formRequest('/details', { intent: 'recheck' }, cookie)))
    expect(response).toMatchObject({ init: { status: 503 } })
    expect(JSON.stringify(response)).toMatch(/could not check your KYC/)
    expect(await userRow(userId)).toMatchObject({ kycStatus: 'ON_HOLD' })
    expect(await prisma.auditLog.count({ where: { subjectId: userId, action: 'kyc.recheck' } })).toBe(0)
  })
})
