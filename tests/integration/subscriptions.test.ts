import { describe, expect, it } from 'vitest'
import { MS_PER_DAY } from '~/domain/dates'
import { prisma } from '~/server/db.server'
import { activeSubscriptions } from '~/server/payments/subscriptions.server'
import { GATEWAY_LATE_AUTHORISATION_WINDOW_MS } from '~/domain/payment-status'
import { markPaymentPaid, PaymentStateError, pendingPayments } from '~/server/payments/core.server'
import { cartItemOf, createPaymentRow, createService, createUser } from '../support/payment-fixtures'

const T0 = new Date('2026-11-22T10:15:30.123Z')

describe('markPaymentPaid', () => {
  it('marks the payment paid and creates one subscription per cart item ending exactly d x 24 h later', async () => {
    const userId = await createUser()
    const monthly = await createService('Equity', 299_900, 30)
    const yearly = await createService('Swing', 999_900, 365)
    const payment = await createPaymentRow(userId, [cartItemOf(monthly), cartItemOf(yearly)])

    expect(await markPaymentPaid(payment.id, { gatewayPaymentId: 'pay_A', paidAt: T0, source: 'checkout' })).toEqual({
      alreadyPaid: false,
      paymentId: payment.id,
      userId,
    })

    const stored = await prisma.payment.findUniqueOrThrow({ where: { id: payment.id } })
    expect(stored).toMatchObject({ status: 'PAID', gatewayPaymentId: 'pay_A', paidVia: 'checkout', paidAt: T0 })
    const subscriptions = await prisma.subscription.findMany({
      where: { paymentId: payment.id },
      orderBy: { endsAt: 'asc' },
    })
    expect(subscriptions.map((s) => [s.serviceId, s.startsAt.toISOString(), s.endsAt.toISOString()])).toEqual([
      [monthly.id, '2026-11-22T10:15:30.123Z', '2026-12-22T10:15:30.123Z'],
      [yearly.id, '2026-11-22T10:15:30.123Z', '2027-11-22T10:15:30.123Z'],
    ])
    expect(subscriptions[0]!.endsAt.getTime() - T0.getTime()).toBe(30 * MS_PER_DAY)
  })

  it('pays once: a second call answers alreadyPaid and creates nothing', async () => {
    const userId = await createUser()
    const service = await createService('Equity', 299_900, 30)
    const payment = await createPaymentRow(userId, [cartItemOf(service)])
    await markPaymentPaid(payment.id, { gatewayPaymentId: 'pay_B', paidAt: T0, source: 'webhook' })
    const again = await markPaymentPaid(payment.id, {
      gatewayPaymentId: 'pay_B',
      paidAt: new Date(T0.getTime() + 5_000),
      source: 'checkout',
    })
    expect(again.alreadyPaid).toBe(true)
    expect(await prisma.subscription.count({ where: { paymentId: payment.id } })).toBe(1)
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: payment.id } })).paidVia).toBe('webhook')
  })

  it('pays once when every path races in parallel', async () => {
    const userId = await createUser()
    const a = await createService('A', 100_000, 30)
    const b = await createService('B', 200_000, 90)
    const payment = await createPaymentRow(userId, [cartItemOf(a), cartItemOf(b)])
    const sources = ['checkout', 'reverify', 'callback', 'webhook', 'webhook', 'reconciliation'] as const
    const results = await Promise.all(
      sources.map((source) => markPaymentPaid(payment.id, { gatewayPaymentId: 'pay_C', paidAt: T0, source })),
    )
    expect(results.filter((result) => !result.alreadyPaid)).toHaveLength(1)
    expect(await prisma.subscription.count({ where: { paymentId: payment.id } })).toBe(2)
  })

  it('extends a still-active service from its current end, and starts an ended one at paidAt', async () => {
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const first = await createPaymentRow(userId, [cartItemOf(equity)])
    await markPaymentPaid(first.id, { gatewayPaymentId: 'pay_D1', paidAt: T0, source: 'checkout' })

    const tenDaysLater = new Date(T0.getTime() + 10 * MS_PER_DAY)
    const renewal = await createPaymentRow(userId, [cartItemOf(equity)])
    await markPaymentPaid(renewal.id, { gatewayPaymentId: 'pay_D2', paidAt: tenDaysLater, source: 'checkout' })
    const renewed = await prisma.subscription.findFirstOrThrow({ where: { paymentId: renewal.id } })
    expect(renewed.startsAt.toISOString()).toBe('2026-12-22T10:15:30.123Z')
    expect(renewed.endsAt.toISOString()).toBe('2027-01-21T10:15:30.123Z')

    const afterItEnded = new Date(T0.getTime() + 100 * MS_PER_DAY)
    const late = await createPaymentRow(userId, [cartItemOf(equity)])
    await markPaymentPaid(late.id, { gatewayPaymentId: 'pay_D3', paidAt: afterItEnded, source: 'checkout' })
    const restarted = await prisma.subscription.findFirstOrThrow({ where: { paymentId: late.id } })
    expect(restarted.startsAt).toEqual(afterItEnded)
    expect(restarted.endsAt.getTime()).toBe(afterItEnded.getTime() + 30 * MS_PER_DAY)
  })

  it('chains two different payments for one service paid concurrently instead of overlapping them', async () => {
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const one = await createPaymentRow(userId, [cartItemOf(equity)])
    const two = await createPaymentRow(userId, [cartItemOf(equity)])
    await Promise.all([
      markPaymentPaid(one.id, { gatewayPaymentId: 'pay_E1', paidAt: T0, source: 'webhook' }),
      markPaymentPaid(two.id, { gatewayPaymentId: 'pay_E2', paidAt: T0, source: 'webhook' }),
    ])
    const ends = (await prisma.subscription.findMany({ where: { userId }, orderBy: { endsAt: 'asc' } })).map((s) =>
      s.endsAt.getTime(),
    )
    expect(ends).toEqual([T0.getTime() + 30 * MS_PER_DAY, T0.getTime() + 60 * MS_PER_DAY])
  })

  it('pays a cancelled or failed gateway payment captured late', async () => {
    const userId = await createUser()
    const service = await createService('Equity', 299_900, 30)
    for (const status of ['CANCELLED', 'FAILED'] as const) {
      const payment = await createPaymentRow(userId, [cartItemOf(service)], { status })
      expect(
        (await markPaymentPaid(payment.id, { gatewayPaymentId: `pay_F_${status}`, paidAt: T0, source: 'webhook' }))
          .alreadyPaid,
      ).toBe(false)
    }
  })

  it('refuses final states, the wrong source and a gateway payment without its gateway id, changing nothing', async () => {
    const userId = await createUser()
    const service = await createService('Equity', 299_900, 30)
    const cart = [cartItemOf(service)]
    const rejected = await createPaymentRow(userId, cart, { method: 'MANUAL', status: 'REJECTED' })
    const expired = await createPaymentRow(userId, cart, { method: 'MANUAL', status: 'EXPIRED' })
    const manual = await createPaymentRow(userId, cart, { method: 'MANUAL' })
    const gateway = await createPaymentRow(userId, cart)

    await expect(markPaymentPaid(rejected.id, { paidAt: T0, source: 'admin' })).rejects.toMatchObject({
      reason: 'final',
    })
    await expect(markPaymentPaid(expired.id, { paidAt: T0, source: 'admin' })).rejects.toMatchObject({
      reason: 'final',
    })
    await expect(markPaymentPaid(manual.id, { paidAt: T0, source: 'webhook' })).rejects.toMatchObject({
      reason: 'wrong-source',
    })
    await expect(
      markPaymentPaid(gateway.id, { paidAt: T0, source: 'admin', gatewayPaymentId: 'pay_X' }),
    ).rejects.toMatchObject({ reason: 'wrong-source' })
    await expect(markPaymentPaid(gateway.id, { paidAt: T0, source: 'checkout' })).rejects.toBeInstanceOf(
      PaymentStateError,
    )
    await expect(
      markPaymentPaid('00000000-0000-4000-8000-000000000000', { paidAt: T0, source: 'admin' }),
    ).rejects.toMatchObject({ reason: 'not-found' })
    expect(await prisma.subscription.count({ where: { userId } })).toBe(0)
    expect(await prisma.payment.count({ where: { userId, status: 'PAID' } })).toBe(0)

    expect((await markPaymentPaid(manual.id, { paidAt: T0, source: 'admin' })).alreadyPaid).toBe(false)
  })
})

describe('activeSubscriptions', () => {
  it('lists one entry per service with its latest end, only those ending after now', async () => {
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const swing = await createService('Swing', 100_000, 7)
    for (const cart of [[cartItemOf(equity), cartItemOf(swing)], [cartItemOf(equity)]]) {
      const payment = await createPaymentRow(userId, cart)
      await markPaymentPaid(payment.id, { gatewayPaymentId: `pay_${payment.id}`, paidAt: T0, source: 'checkout' })
    }
    const now = new Date(T0.getTime() + 8 * MS_PER_DAY)
    expect(await activeSubscriptions(userId, now)).toEqual([
      {
        serviceId: equity.id,
        name: equity.name,
        description: [],
        endsAt: new Date(T0.getTime() + 60 * MS_PER_DAY),
        onSale: true,
      },
    ])
    expect(await activeSubscriptions(userId, T0)).toHaveLength(2)
  })

  it('is invalidated by markPaymentPaid so a new subscription shows at once', async () => {
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    expect(await activeSubscriptions(userId, T0)).toEqual([])
    const payment = await createPaymentRow(userId, [cartItemOf(equity)])
    await markPaymentPaid(payment.id, { gatewayPaymentId: 'pay_G', paidAt: T0, source: 'checkout' })
    expect(await activeSubscriptions(userId, T0)).toHaveLength(1)
  })
})

describe('pendingPayments', () => {
  it('lists unexpired manual claims and open gateway orders inside the late-authorisation window', async () => {
    const userId = await createUser()
    const service = await createService('Equity', 299_900, 30)
    const cart = [cartItemOf(service)]
    const now = new Date()
    const manual = await createPaymentRow(userId, cart, {
      method: 'MANUAL',
      expiresAt: new Date(now.getTime() + MS_PER_DAY),
    })
    await createPaymentRow(userId, cart, { method: 'MANUAL', expiresAt: new Date(now.getTime() - 1) })
    await createPaymentRow(userId, cart, { method: 'MANUAL', status: 'REJECTED' })
    const open = await createPaymentRow(userId, cart)
    await createPaymentRow(userId, cart, {
      createdAt: new Date(now.getTime() - GATEWAY_LATE_AUTHORISATION_WINDOW_MS - 1),
    })
    await createPaymentRow(userId, cart, { status: 'CANCELLED' })
    await createPaymentRow(userId, cart, { status: 'FAILED' })

    const pending = await pendingPayments(userId, now)
    expect(pending.map((payment) => payment.id).sort()).toEqual([manual.id, open.id].sort())
    expect(pending.find((payment) => payment.id === manual.id)).toMatchObject({
      method: 'MANUAL',
      amountPaise: 299_900,
      cart,
    })
    expect(GATEWAY_LATE_AUTHORISATION_WINDOW_MS).toBe(5 * 24 * 60 * 60 * 1000)
  })
})
