import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FamilyRelation } from '~/domain/family-relations'
import * as createOrderRoute from '~/routes/api.v1/payments.create-order'
import * as manualPaymentRoute from '~/routes/api.v1/payments.manual-payment'
import * as payRoute from '~/routes/pay'
import { confirmPaymentAsAdmin } from '~/server/admin/payments.server'
import { serializeCart } from '~/server/payments/cart.server'
import { prisma } from '~/server/db.server'
import { markPaymentPaid, PaymentError } from '~/server/payments/core.server'
import { startGatewayPayment } from '~/server/payments/checkout.server'
import { createManualPayment } from '~/server/payments/manual-claims.server'
import { sandboxGateway } from '~/demo/razorpay-sandbox.server'
import {
  cartItemOf,
  createPaymentRow,
  createService,
  createUser,
  recordTestRefund,
  STATEMENT_ENTRY,
} from '../support/payment-fixtures'
import * as accreditedRoute from '~/routes/account.accredited-investor'
import {
  accreditationOf,
  NO_CERTIFICATE_MESSAGE,
  OPT_IN_NOT_CONFIRMED_MESSAGE,
  OPT_IN_TEXT_CHANGED_MESSAGE,
  optInAsAccreditedInvestor,
  withdrawAccreditedOptIn,
} from '~/server/account/accreditation.server'
import { setFeeCapExemption } from '~/server/admin/customers.server'
import { formRequest, getRequest, jsonRequest, routeArgs } from '../support/route-requests'
import { uniquePan } from '../support/sample-customer'
import { queuedEmails } from '../support/queued-emails'
import { signedInUser } from '../support/sessions'

// The tests run with the E2E business details: GST-registered at 18%, so a price of Rs 1,18,000 is
// Rs 1,00,000 before GST. The cap is the default, Rs 1,51,000 over the 12 months before now.
const gateway = sandboxGateway()
// 26-11-2026 10:00 IST
const now = new Date('2026-11-26T04:30:00Z')
const june = new Date('2026-06-01T04:30:00Z') // 01-06-2026 10:00 IST: a payment then counts until 01-06-2027

afterEach(() => vi.restoreAllMocks())
const quiet = () => {
  vi.spyOn(console, 'info').mockImplementation(() => {})
  vi.spyOn(console, 'warn').mockImplementation(() => {})
}

async function customerWithPan(userId?: string) {
  const id = userId ?? (await createUser())
  const pan = uniquePan()
  await prisma.user.update({ where: { id }, data: { pan } })
  return { id, pan }
}

/** `userId` names `member` as family (the other direction is counted too). */
const declare = (userId: string, member: { pan: string }, relation: FamilyRelation = 'SPOUSE') =>
  prisma.familyMember.create({ data: { userId, pan: member.pan, relation } })

/** A payment of `pricePaise` (GST included) paid at `paidAt`, with its ledger row. */
async function paid(userId: string, pricePaise: number, paidAt = june) {
  quiet()
  const service = await createService('Paid', pricePaise, 30)
  const payment = await createPaymentRow(userId, [cartItemOf(service)], {
    method: 'MANUAL',
    createdAt: paidAt,
    expiresAt: new Date(paidAt.getTime() + 86_400_000),
  })
  await markPaymentPaid(payment.id, { source: 'admin', paidAt })
  return payment.id
}

async function refusal(promise: Promise<unknown>): Promise<PaymentError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(PaymentError)
  return error as PaymentError
}

const CAP = 'SEBI caps the fees one family pays a research analyst at Rs 1,51,000 a year, before GST.'

describe('the family fee cap at every way in', () => {
  it('lets a purchase within the cap pass and refuses the one over it, with the amount left, creating nothing', async () => {
    const customer = await customerWithPan()
    const spouse = await customerWithPan()
    await declare(customer.id, spouse)
    await paid(spouse.id, 11_800_000) // Rs 1,00,000 before GST
    const half = await createService('Half', 5_900_000, 30) // Rs 50,000 before GST
    const more = await createService('More', 236_000, 30) // Rs 2,000 before GST

    await expect(createManualPayment(customer.id, [half.id], { now })).resolves.toMatchObject({ created: true })
    // Rs 1,50,000 counted with the open claim: Rs 1,000 left.
    // One after the other: a refusal started early would be unhandled while the other is awaited.
    for (const attempt of [
      () => startGatewayPayment(customer.id, [more.id], { gateway, now }),
      () => createManualPayment(customer.id, [more.id], { now }),
    ]) {
      expect(await refusal(attempt())).toMatchObject({
        code: 'fee-cap',
        status: 409,
        message: `${CAP} Your family has Rs 1,000 of it left; this purchase is Rs 2,000 before GST. It fits from 02-06-2027, when earlier payments stop counting.`,
      })
    }
    expect(await prisma.payment.count({ where: { userId: customer.id } })).toBe(1)
  })

  it("counts a family member's payments whichever of them declared the other", async () => {
    const customer = await customerWithPan()
    const parent = await customerWithPan()
    await declare(customer.id, parent, 'PARENT')
    const more = await createService('More', 236_000, 30)
    await paid(customer.id, 17_700_000)
    // The parent did not declare the customer, yet the customer's payment counts for the parent.
    expect(await refusal(createManualPayment(parent.id, [more.id], { now }))).toMatchObject({ code: 'fee-cap' })
    // And an unrelated customer is not affected.
    const stranger = await customerWithPan()
    await expect(createManualPayment(stranger.id, [more.id], { now })).resolves.toMatchObject({ created: true })
    // A spouse's parent is not the customer's family: not transitive.
    const spouse = await customerWithPan()
    await declare(spouse.id, customer)
    const spousesParent = await customerWithPan()
    await declare(spouse.id, spousesParent, 'PARENT')
    expect(await refusal(createManualPayment(spouse.id, [more.id], { now }))).toMatchObject({ code: 'fee-cap' })
    await expect(createManualPayment(spousesParent.id, [more.id], { now })).resolves.toMatchObject({ created: true })
  })

  it('counts payments less what was refunded of them, and not payments before the window', async () => {
    const customer = await customerWithPan()
    const first = await paid(customer.id, 11_800_000) // Rs 1,00,000
    await paid(customer.id, 5_900_000) // Rs 50,000
    await paid(customer.id, 11_800_000, new Date('2025-11-25T18:29:59Z')) // 25-11-2025 23:59:59 IST: outside
    const more = await createService('More', 236_000, 30) // Rs 2,000
    expect((await refusal(createManualPayment(customer.id, [more.id], { now }))).message).toContain(
      'Rs 1,000 of it left',
    )
    await recordTestRefund(first, 1_180_000, { at: now }) // Rs 10,000 of the first back
    await expect(createManualPayment(customer.id, [more.id], { now })).resolves.toMatchObject({ created: true })
  })

  it('counts fees before GST: a family may pay Rs 1,51,000 plus GST, and not a paisa more', async () => {
    const customer = await customerWithPan()
    await paid(customer.id, 11_800_000) // Rs 1,00,000 before GST
    const exact = await createService('Exact', 6_018_000, 30) // Rs 51,000 before GST, Rs 60,180 with it
    const overByOne = await createService('Over', 6_018_001, 30) // Rs 51,000.01 before GST
    const other = await customerWithPan()
    await paid(other.id, 11_800_000)
    expect(await refusal(createManualPayment(other.id, [overByOne.id], { now }))).toMatchObject({ code: 'fee-cap' })
    await expect(createManualPayment(customer.id, [exact.id], { now })).resolves.toMatchObject({ created: true })
  })

  it('lets a customer marked exempt pass, and still counts their family', async () => {
    const customer = await customerWithPan()
    await paid(customer.id, 17_700_000)
    const more = await createService('More', 236_000, 30)
    await prisma.user.update({
      where: { id: customer.id },
      data: { feeCapExemption: 'NON_INDIVIDUAL', feeCapExemptionReason: 'A private trust, deed seen' },
    })
    await expect(startGatewayPayment(customer.id, [more.id], { gateway, now })).resolves.toMatchObject({
      amountPaise: 236_000,
    })
    await expect(createManualPayment(customer.id, [more.id], { now })).resolves.toMatchObject({ created: true })
    // The exemption is the customer's: their payments still count for their spouse.
    const spouse = await customerWithPan()
    await declare(spouse.id, customer)
    expect(await refusal(createManualPayment(spouse.id, [more.id], { now }))).toMatchObject({ code: 'fee-cap' })
  })

  it('lets one of two family members buying at the same moment pass; the other is refused', async () => {
    const customer = await customerWithPan()
    const spouse = await customerWithPan()
    await declare(spouse.id, customer)
    await paid(customer.id, 11_800_000) // Rs 1,00,000: room for one more Rs 50,000, not two
    const half = await createService('Half', 5_900_000, 30)
    const results = await Promise.allSettled([
      startGatewayPayment(customer.id, [half.id], { gateway, now }),
      createManualPayment(spouse.id, [half.id], { now }),
      createManualPayment(customer.id, [half.id], { now, idempotencyKey: 'tab-3' }),
      startGatewayPayment(spouse.id, [half.id], { gateway, now }),
    ])
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    for (const result of results.filter((candidate) => candidate.status === 'rejected')) {
      expect(result.reason).toMatchObject({ code: 'fee-cap', status: 409 })
    }
    const open = await prisma.payment.count({
      where: { userId: { in: [customer.id, spouse.id] }, status: { in: ['CREATED', 'PENDING_VERIFICATION'] } },
    })
    expect(open).toBe(1)
  })

  it("refuses the admin's confirmation of a claim that no longer fits, and pays nothing", async () => {
    quiet()
    const actorId = await createUser()
    const customer = await customerWithPan()
    const spouse = await customerWithPan()
    await declare(customer.id, spouse)
    const half = await createService('Half', 5_900_000, 30)
    const claim = await createManualPayment(customer.id, [half.id], { now })
    // Counted without itself, the claim fits: a spouse's order made before the claim is captured first.
    const big = await createService('Big', 13_000_000, 30) // Rs 1,10,169.49 before GST
    const order = await createPaymentRow(spouse.id, [cartItemOf(big)], { createdAt: june })
    await markPaymentPaid(order.id, { gatewayPaymentId: 'pay_spouse', paidAt: now, source: 'webhook' })

    const outcome = await confirmPaymentAsAdmin(actorId, claim.paymentId, STATEMENT_ENTRY, now)
    expect(outcome).toEqual({
      ok: false,
      status: 409,
      message: `${CAP} Your family has Rs 40,830.51 of it left; this purchase is Rs 50,000 before GST. It fits from 27-11-2027, when earlier payments stop counting.`,
    })
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: claim.paymentId } })).toMatchObject({
      status: 'PENDING_VERIFICATION',
    })
    expect(await prisma.subscription.count({ where: { paymentId: claim.paymentId } })).toBe(0)
  })
})

describe('/pay and the JSON API', () => {
  async function customerNearTheCap() {
    const session = await signedInUser({ completeProfile: true })
    const { pan } = await prisma.user.findUniqueOrThrow({ where: { id: session.userId }, select: { pan: true } })
    const spouse = await customerWithPan()
    await declare(spouse.id, { pan: pan! })
    await paid(spouse.id, 17_700_000, new Date()) // Rs 1,50,000 before GST
    const more = await createService('More', 236_000, 30) // Rs 2,000 before GST
    return { ...session, more }
  }

  it('/pay shows the refusal before paying and refuses both ways to pay with 409', async () => {
    const { userId, cookie, more } = await customerNearTheCap()
    const cart = await serializeCart([more.id])
    const loaded = (await payRoute.loader(routeArgs(getRequest('/pay', [cookie, cart])))) as unknown as {
      data: { feeCapRefusal?: string }
    }
    expect(loaded.data.feeCapRefusal).toMatch(
      /^SEBI caps the fees one family pays .* Your family has Rs 1,000 of it left; this purchase is Rs 2,000 before GST\. It fits from \d\d-\d\d-\d{4}, when earlier payments stop counting\.$/,
    )
    for (const intent of ['gateway', 'manual']) {
      const result = await payRoute.action(
        routeArgs(
          formRequest('/pay', { intent, shownTotalPaise: '236000', paymentKey: crypto.randomUUID() }, [cookie, cart]),
        ),
      )
      expect(result).toMatchObject({ init: { status: 409 } })
      expect(JSON.stringify(result)).toContain(loaded.data.feeCapRefusal!)
    }
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)
  })

  it("the API's create-order and manual-payment answer 409 JSON with the message", async () => {
    const { userId, cookie, more } = await customerNearTheCap()
    const body = { amount: 2360, currency: 'INR', receipt: 'x', notes: { cart: JSON.stringify([more.id]) } }
    for (const [route, path] of [
      [createOrderRoute, '/api/v1/payments/create-order'],
      [manualPaymentRoute, '/api/v1/payments/manual-payment'],
    ] as const) {
      const response = await route.action(routeArgs(jsonRequest(path, body, cookie)))
      expect(response.status).toBe(409)
      expect((await response.json()).message).toContain('Your family has Rs 1,000 of it left')
    }
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)
  })
})

describe("an accredited investor's exemption", () => {
  const origin = { ip: '203.0.113.7', userAgent: 'vitest', channel: 'PAGE' as const }
  const accredited = (certificate = 'AI-2026-0042', validUntil = '2027-03-31') =>
    ({
      intent: 'fee-cap-exempt',
      exemption: 'ACCREDITED_INVESTOR',
      reason: 'Certificate from NSDL seen',
      certificate,
      validUntil,
    }) as const

  it("lifts the cap only with the certificate on record and the customer's own opt-in, until its last valid day", async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    const customer = await customerWithPan()
    await paid(customer.id, 17_700_000) // Rs 1,50,000 before GST: no room for Rs 2,000 more
    const [more, again, afterExpiry] = await Promise.all([
      createService('More', 236_000, 30),
      createService('Again', 236_000, 30),
      createService('Expired', 236_000, 30),
    ])

    const email = `accredited-${customer.id.slice(0, 8)}@example.in`
    await prisma.user.update({ where: { id: customer.id }, data: { email } })
    expect(await setFeeCapExemption(admin.userId, customer.id, accredited(), now)).toMatchObject({ ok: true })
    // The customer is told how to opt in.
    expect(await queuedEmails(email)).toEqual([
      expect.objectContaining({
        subject: 'Your accreditation certificate is on record: choose whether to use it',
        body: expect.stringContaining('/account/accredited-investor'),
      }),
    ])
    // The admin's word alone: the cap still applies.
    expect(await refusal(createManualPayment(customer.id, [more.id], { now }))).toMatchObject({ code: 'fee-cap' })

    const shown = await accreditationOf(customer.id, now)
    expect(shown).toMatchObject({
      certificate: 'AI-2026-0042',
      validUntil: '31-03-2027',
      expired: false,
      optedInAt: null,
      feeCapApplies: true,
    })
    expect(shown!.statement).toContain('accreditation certificate AI-2026-0042 valid until 31-03-2027')
    expect(
      await optInAsAccreditedInvestor(
        customer.id,
        { confirmed: true, shownSha256: shown!.statementSha256 },
        origin,
        now,
      ),
    ).toEqual({ ok: true, message: 'Recorded: you are treated as an accredited investor until 31-03-2027.' })

    const user = await prisma.user.findUniqueOrThrow({ where: { id: customer.id } })
    const acceptance = await prisma.acceptance.findUniqueOrThrow({ where: { id: user.accreditationOptInId! } })
    expect(acceptance).toMatchObject({
      userId: customer.id,
      kind: 'ACCREDITED_INVESTOR_OPT_IN',
      textSha256: shown!.statementSha256,
      version: `accredited-${shown!.statementSha256.slice(0, 12)}`,
      acceptedAt: now,
      ip: '203.0.113.7',
      channel: 'PAGE',
    })
    expect(
      await prisma.auditLog.count({
        where: { subjectId: customer.id, action: 'customer.accredited-investor.opt-in', actorId: customer.id },
      }),
    ).toBe(1)
    await expect(createManualPayment(customer.id, [more.id], { now })).resolves.toMatchObject({ created: true })

    // The day after the certificate's last valid day, the cap applies again.
    const lastDay = new Date('2027-03-31T18:00:00Z') // 31-03-2027 23:30 IST
    const dayAfter = new Date('2027-03-31T18:31:00Z') // 01-04-2027 00:01 IST
    expect((await accreditationOf(customer.id, lastDay))!.feeCapApplies).toBe(false)
    expect(await accreditationOf(customer.id, dayAfter)).toMatchObject({ expired: true, feeCapApplies: true })
    expect(await refusal(createManualPayment(customer.id, [afterExpiry.id], { now: dayAfter }))).toMatchObject({
      code: 'fee-cap',
    })

    // Withdrawn: the cap applies again at once, audited.
    expect(await withdrawAccreditedOptIn(customer.id, now)).toMatchObject({ ok: true })
    expect(await refusal(createManualPayment(customer.id, [again.id], { now }))).toMatchObject({ code: 'fee-cap' })
    expect(
      await prisma.auditLog.count({
        where: { subjectId: customer.id, action: 'customer.accredited-investor.withdraw' },
      }),
    ).toBe(1)
  })

  it('refuses an opt-in with no certificate, without the box ticked, or to a statement that has changed; a new certificate asks again', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    const customer = await customerWithPan()
    expect(await optInAsAccreditedInvestor(customer.id, { confirmed: true, shownSha256: 'x' }, origin, now)).toEqual({
      ok: false,
      status: 409,
      message: NO_CERTIFICATE_MESSAGE,
    })
    await setFeeCapExemption(admin.userId, customer.id, accredited('AI-1'), now)
    const first = (await accreditationOf(customer.id, now))!
    expect(
      await optInAsAccreditedInvestor(
        customer.id,
        { confirmed: false, shownSha256: first.statementSha256 },
        origin,
        now,
      ),
    ).toEqual({ ok: false, status: 400, message: OPT_IN_NOT_CONFIRMED_MESSAGE })
    await optInAsAccreditedInvestor(customer.id, { confirmed: true, shownSha256: first.statementSha256 }, origin, now)

    // The admin records a renewed certificate: the opt-in was for the old one.
    await setFeeCapExemption(admin.userId, customer.id, accredited('AI-2', '2028-03-31'), now)
    expect(await accreditationOf(customer.id, now)).toMatchObject({
      certificate: 'AI-2',
      optedInAt: null,
      feeCapApplies: true,
    })
    expect(
      await optInAsAccreditedInvestor(
        customer.id,
        { confirmed: true, shownSha256: first.statementSha256 },
        origin,
        now,
      ),
    ).toEqual({ ok: false, status: 409, message: OPT_IN_TEXT_CHANGED_MESSAGE })
    expect(await prisma.acceptance.count({ where: { userId: customer.id, kind: 'ACCREDITED_INVESTOR_OPT_IN' } })).toBe(
      1,
    )
  })

  it("takes the opt-in on the customer's page without JavaScript, and refuses an intent it does not have", async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    const customer = await signedInUser({ completeProfile: true })
    await setFeeCapExemption(admin.userId, customer.userId, accredited('AI-PAGE-7', '2099-12-31'))
    const page = await accreditedRoute.loader(routeArgs(getRequest('/account/accredited-investor', customer.cookie)))
    expect(page.accreditation).toMatchObject({ certificate: 'AI-PAGE-7', validUntil: '31-12-2099', optedInAt: null })
    const post = (fields: Record<string, string>) =>
      accreditedRoute.action(routeArgs(formRequest('/account/accredited-investor', fields, customer.cookie)))

    expect(await post({ intent: 'become-exempt' })).toMatchObject({
      init: { status: 409 },
      data: { message: 'Choose what to do.' },
    })
    expect(await post({ intent: 'opt-in', statementSha256: page.accreditation!.statementSha256 })).toMatchObject({
      init: { status: 400 },
      data: { message: OPT_IN_NOT_CONFIRMED_MESSAGE },
    })
    const saved = (await post({
      intent: 'opt-in',
      confirm: 'on',
      statementSha256: page.accreditation!.statementSha256,
    })) as Response
    expect(saved.status).toBe(302)
    expect(saved.headers.get('Location')).toBe('/account/accredited-investor')
    const after = await accreditedRoute.loader(routeArgs(getRequest('/account/accredited-investor', customer.cookie)))
    expect(after.accreditation).toMatchObject({ feeCapApplies: false, optedInAt: expect.any(String) })
  })
})
