import { afterEach, describe, expect, it, vi } from 'vitest'
import { MS_PER_DAY } from '~/domain/dates'
import { GATEWAY_LATE_AUTHORISATION_WINDOW_MS } from '~/domain/payment-status'
import * as createOrderRoute from '~/routes/api.v1/payments.create-order'
import * as manualPaymentRoute from '~/routes/api.v1/payments.manual-payment'
import * as adminPaymentsRoute from '~/routes/admin/payments'
import * as payRoute from '~/routes/pay'
import * as servicesRoute from '~/routes/services'
import { confirmPaymentAsAdmin, overLimitPeriods } from '~/server/admin/payments.server'
import { invalidate } from '~/server/cache.server'
import { serializeCart } from '~/server/payments/cart.server'
import { prisma } from '~/server/db.server'
import { queuedEmails } from '../support/queued-emails'
import { markPaymentPaid, PaymentError } from '~/server/payments/core.server'
import { startGatewayPayment } from '~/server/payments/checkout.server'
import { createManualPayment } from '~/server/payments/manual-claims.server'
import { ACTIVE_SERVICES_CACHE_KEY } from '~/server/catalog/services.server'
import { sandboxGateway } from '~/demo/razorpay-sandbox.server'
import { cartItemOf, createPaymentRow, createService, createUser, STATEMENT_ENTRY } from '../support/payment-fixtures'
import { formRequest, getRequest, jsonRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

const gateway = sandboxGateway()
// 26-11-2026 10:00 IST
const now = new Date('2026-11-26T04:30:00Z')
const days = (count: number, from = now) => new Date(from.getTime() + count * MS_PER_DAY)

afterEach(() => vi.restoreAllMocks())
const quiet = () => {
  vi.spyOn(console, 'info').mockImplementation(() => {})
  vi.spyOn(console, 'warn').mockImplementation(() => {})
}

/** A subscription running to `endsAt` (granted here; a purchase leaves the same end). */
async function subscribedUntil(userId: string, serviceId: string, endsAt: Date) {
  await prisma.subscription.create({
    data: { userId, serviceId, startsAt: days(-30, endsAt), endsAt, grantReason: 'test', grantedById: userId },
  })
}

async function refusal(promise: Promise<unknown>): Promise<PaymentError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(PaymentError)
  return error as PaymentError
}

/** A customer paid up on a 365-day service to 336 days from now: 30 days more would be one day too many. */
async function paidUpCustomer() {
  const userId = await createUser()
  const equity = await createService('Equity', 299_900, 30)
  await subscribedUntil(userId, equity.id, days(336))
  return { userId, equity }
}

const expectedMessage = (name: string) =>
  `${name} is paid up to 28-10-2027. SEBI allows fees at most one year in advance: you can renew it from 28-11-2026.`

describe('startGatewayPayment and createManualPayment: the one-year advance limit', () => {
  it('refuses a renewal that would end more than 365 days from now, with 409 and the message, creating nothing', async () => {
    const { userId, equity } = await paidUpCustomer()
    for (const attempt of [
      startGatewayPayment(userId, [equity.id], { gateway, now }),
      createManualPayment(userId, [equity.id], { now }),
    ]) {
      const error = await refusal(attempt)
      expect(error).toMatchObject({ code: 'advance-limit', status: 409, message: expectedMessage(equity.name) })
    }
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)
  })

  it('allows the same renewal from the date it names', async () => {
    const { userId, equity } = await paidUpCustomer()
    const renewableFrom = new Date('2026-11-27T18:30:00Z') // 28-11-2026 00:00 IST
    await refusal(createManualPayment(userId, [equity.id], { now: new Date(renewableFrom.getTime() - MS_PER_DAY) }))
    await expect(createManualPayment(userId, [equity.id], { now: renewableFrom })).resolves.toMatchObject({
      created: true,
    })
  })

  it('counts open gateway orders and open manual claims, but not expired claims or orders past the late-authorisation window', async () => {
    const userId = await createUser()
    const year = await createService('Yearly', 1_000_000, 365)
    const other = await createService('Other', 100_000, 30)
    const yearLine = cartItemOf(year)
    // An order past the late-authorisation window, a rejected and an expired claim: not committed.
    await createPaymentRow(userId, [yearLine], {
      createdAt: new Date(now.getTime() - GATEWAY_LATE_AUTHORISATION_WINDOW_MS - 1),
    })
    await createPaymentRow(userId, [yearLine], { method: 'MANUAL', status: 'REJECTED', createdAt: days(-1) })
    await createPaymentRow(userId, [yearLine], { method: 'MANUAL', createdAt: days(-8), expiresAt: days(-1) })
    const first = await startGatewayPayment(userId, [year.id], { gateway, now })

    // The open order is committed: a second year is refused by both ways, whatever else the cart holds.
    const byGateway = await refusal(startGatewayPayment(userId, [year.id, other.id], { gateway, now }))
    expect(byGateway.message).toBe(
      `${year.name} is paid up to 26-11-2027. SEBI allows fees at most one year in advance: you can renew it from 27-11-2027.`,
    )
    await refusal(createManualPayment(userId, [year.id], { now }))
    // A second click on the same cart reopens the same order: it is not counted against itself.
    await expect(startGatewayPayment(userId, [year.id], { gateway, now })).resolves.toMatchObject({
      paymentId: first.paymentId,
    })

    // Once the order is closed, a claim for the year can be made, and then it is what counts.
    await prisma.payment.update({ where: { id: first.paymentId }, data: { status: 'CANCELLED' } })
    await createManualPayment(userId, [year.id], { now })
    await refusal(startGatewayPayment(userId, [year.id], { gateway, now }))
  })

  it('lets two tabs racing for the same renewal make one payment: the other gets the advance message', async () => {
    const userId = await createUser()
    const year = await createService('Yearly', 1_000_000, 365)
    const other = await createService('Other', 100_000, 30)
    const results = await Promise.allSettled([
      startGatewayPayment(userId, [year.id], { gateway, now }),
      startGatewayPayment(userId, [year.id, other.id], { gateway, now }),
      createManualPayment(userId, [year.id], { now }),
      createManualPayment(userId, [year.id, other.id], { now, idempotencyKey: 'tab-4' }),
    ])
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    for (const result of results.filter((candidate) => candidate.status === 'rejected')) {
      expect(result.reason).toMatchObject({ code: 'advance-limit', status: 409 })
    }
    expect(await prisma.payment.count({ where: { userId } })).toBe(1)
  })
})

describe("the admin's confirmation of a claim", () => {
  it('is refused with the same message when the year was paid meanwhile, and pays nothing; alone, the claim is confirmed', async () => {
    quiet()
    const actorId = await createUser()
    const userId = await createUser()
    const year = await createService('Yearly', 1_000_000, 365)
    const claim = await createManualPayment(userId, [year.id], { now })

    // Counted without itself, the claim alone is within the limit.
    const lone = await createUser()
    const loneClaim = await createManualPayment(lone, [year.id], { now })
    await expect(confirmPaymentAsAdmin(actorId, loneClaim.paymentId, STATEMENT_ENTRY, now)).resolves.toMatchObject({
      ok: true,
    })

    // A gateway order made before the claim (so not refused) is captured first.
    const order = await createPaymentRow(userId, [cartItemOf(year)], { createdAt: days(-1) })
    await markPaymentPaid(order.id, { gatewayPaymentId: 'pay_first', paidAt: now, source: 'webhook' })

    const outcome = await confirmPaymentAsAdmin(actorId, claim.paymentId, STATEMENT_ENTRY, days(1))
    expect(outcome).toEqual({
      ok: false,
      status: 409,
      message: `${year.name} is paid up to 26-11-2027. SEBI allows fees at most one year in advance: you can renew it from 27-11-2027.`,
    })
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: claim.paymentId } })).toMatchObject({
      status: 'PENDING_VERIFICATION',
    })
    expect(await prisma.subscription.count({ where: { paymentId: claim.paymentId } })).toBe(0)
    expect(await prisma.auditLog.count({ where: { subjectId: claim.paymentId } })).toBe(0)
  })
})

describe('a gateway capture past the limit', () => {
  it('is cut at the limit, its excess refunded with a credit note and the customer told, and not listed as still to refund', async () => {
    quiet()
    const userId = await createUser()
    const email = `excess-${userId.slice(0, 8)}@example.in`
    await prisma.user.update({ where: { id: userId }, data: { email, name: 'asha rao' } })
    const year = await createService('Yearly', 365_000, 365)
    const order = await createPaymentRow(userId, [cartItemOf(year)], { createdAt: days(-1) })
    await subscribedUntil(userId, year.id, days(100))

    await markPaymentPaid(order.id, { gatewayPaymentId: 'pay_late', paidAt: now, source: 'webhook' })

    const subscription = await prisma.subscription.findFirstOrThrow({ where: { paymentId: order.id } })
    expect(subscription).toMatchObject({ startsAt: days(100), endsAt: days(365) })
    const refund = await prisma.refund.findFirstOrThrow({ where: { paymentId: order.id } })
    expect(refund).toMatchObject({ kind: 'EXCESS', reason: 'ADVANCE_LIMIT', amountPaise: 100_000, status: 'PENDING' })
    const creditNote = await prisma.ledgerEntry.findFirstOrThrow({ where: { refundId: refund.id } })
    expect(creditNote).toMatchObject({ kind: 'REFUND', amountPaise: -100_000 })
    const [told] = await queuedEmails(email)
    expect(told?.subject).toBe('Part of your payment is being refunded')
    expect(told?.body).toContain('100 days beyond that')
    expect(told?.body).toContain(`Rs. 1,000 for those days`)
    expect(told?.body).toContain(creditNote.documentNumber)
    expect((await overLimitPeriods(now)).filter((period) => period.customer.id === userId)).toEqual([])
  })

  it('lists periods sold before the rule that still end more than a year after their payment, and nothing else', async () => {
    quiet()
    const userId = await createUser()
    const year = await createService('Yearly', 365_000, 365)
    const month = await createService('Monthly', 30_000, 30)
    const paidAt = days(-10)
    const payment = await prisma.payment.create({
      data: {
        userId,
        method: 'GATEWAY',
        status: 'PAID',
        amountPaise: 395_000,
        cart: [cartItemOf(year), cartItemOf(month)],
        paidAt,
        createdAt: paidAt,
      },
    })
    // Bought twice before the rule: the second year chained after the first.
    await prisma.subscription.createMany({
      data: [
        { userId, serviceId: year.id, paymentId: payment.id, startsAt: days(355), endsAt: days(720) },
        { userId, serviceId: month.id, paymentId: payment.id, startsAt: paidAt, endsAt: days(30, paidAt) },
      ],
    })
    const listed = (await overLimitPeriods(now)).filter((period) => period.customer.id === userId)
    expect(listed).toEqual([
      expect.objectContaining({
        serviceName: year.name,
        paidAt,
        endsAt: days(720),
        cutAtLimit: false,
        excessDays: 365,
        excessPaise: 365_000,
      }),
    ])
    // The admin's payments page lists it, read-only.
    const admin = await signedInUser({ role: 'ADMIN' })
    const page = (await adminPaymentsRoute.loader(routeArgs(getRequest('/admin/payments', admin.cookie)))) as {
      overLimit: unknown[]
    }
    expect(page.overLimit).toContainEqual(
      expect.objectContaining({
        serviceName: year.name,
        paidOn: '16-11-2026',
        endsOn: '15-11-2028',
        cutAtLimit: false,
        excessDays: 365,
        refund: '3,650',
      }),
    )
    // Once it no longer runs, nothing is left to refund for it.
    expect((await overLimitPeriods(days(721))).filter((period) => period.customer.id === userId)).toEqual([])
  })
})

describe('/pay, the JSON API and /services', () => {
  async function customerPaidUp() {
    const session = await signedInUser({ completeProfile: true })
    const equity = await createService('Equity', 299_900, 365)
    await subscribedUntil(session.userId, equity.id, days(200, new Date()))
    return { ...session, equity }
  }

  it('/pay refuses both ways to pay with 409 and the message, and shows "Renewable from" beforehand', async () => {
    const { userId, cookie, equity } = await customerPaidUp()
    const cart = await serializeCart([equity.id])
    const loaded = (await payRoute.loader(routeArgs(getRequest('/pay', [cookie, cart])))) as unknown as {
      data: { items: { renewableFrom?: string }[]; advanceRefusal?: string }
    }
    expect(loaded.data.items[0]!.renewableFrom).toMatch(/^Renewable from \d\d-\d\d-\d{4}$/)
    expect(loaded.data.advanceRefusal).toContain(`${equity.name} is paid up to`)

    for (const intent of ['gateway', 'manual']) {
      const result = await payRoute.action(
        routeArgs(
          formRequest('/pay', { intent, shownTotalPaise: '299900', paymentKey: crypto.randomUUID() }, [cookie, cart]),
        ),
      )
      expect(result).toMatchObject({ init: { status: 409 } })
      expect(JSON.stringify(result)).toContain(loaded.data.advanceRefusal!)
    }
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)
  })

  it("the API's create-order and manual-payment answer 409 JSON with the message", async () => {
    const { userId, cookie, equity } = await customerPaidUp()
    const body = { amount: 2999, currency: 'INR', receipt: 'x', notes: { cart: JSON.stringify([equity.id]) } }
    for (const [route, path] of [
      [createOrderRoute, '/api/v1/payments/create-order'],
      [manualPaymentRoute, '/api/v1/payments/manual-payment'],
    ] as const) {
      const response = await route.action(routeArgs(jsonRequest(path, body, cookie)))
      expect(response.status).toBe(409)
      expect((await response.json()).message).toMatch(
        new RegExp(`^${equity.name} is paid up to .*: you can renew it from \\d\\d-\\d\\d-\\d{4}\\.$`),
      )
    }
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)
  })

  it('/services gives "Renewable from" for a service that cannot be bought yet, and none for the others', async () => {
    const { cookie, equity } = await customerPaidUp()
    const other = await createService('Other', 100_000, 30)
    await invalidate(ACTIVE_SERVICES_CACHE_KEY)
    const loaded = (await servicesRoute.loader(routeArgs(getRequest('/services', cookie)))) as unknown as {
      data: { renewableFrom: Record<string, string> }
    }
    expect(loaded.data.renewableFrom[equity.id]).toMatch(/^Renewable from \d\d-\d\d-\d{4}$/)
    expect(loaded.data.renewableFrom[other.id]).toBeUndefined()
  })
})
