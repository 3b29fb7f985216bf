import { afterEach, describe, expect, it, vi } from 'vitest'
import { MS_PER_DAY } from '~/domain/dates'
import { sandboxGateway } from '~/demo/razorpay-sandbox.server'
import { prisma } from '~/server/db.server'
import { PRUNE_AFTER_MS, pruneExpiredRows } from '~/server/jobs.server'
import { startGatewayPayment } from '~/server/payments/gateway.server'
import { expireManualPayments } from '~/server/payments/manual-claims.server'
import { RECONCILE_AFTER_MS, reconcileOpenOrders } from '~/server/payments/reconciliation.server'
import { cartItemOf, createPaymentRow, createService, createUser } from '../support/payment-fixtures'

// The jobs go through what is due a few rows per statement (batch sizes of 2 and 3 here, hundreds
// and thousands in production), so no statement holds locks on a table the pages use for long.

afterEach(() => vi.restoreAllMocks())

describe('the hourly clean-up', () => {
  it('deletes every old row of each table, a batch at a time, and keeps the recent ones', async () => {
    const now = new Date()
    const old = new Date(now.getTime() - PRUNE_AFTER_MS - 60_000)
    const userId = await createUser()
    await prisma.rateLimitEvent.createMany({
      data: [
        ...Array.from({ length: 7 }, (_, i) => ({ bucket: 'batch', key: `old-${i}`, createdAt: old })),
        { bucket: 'batch', key: 'recent', createdAt: now },
      ],
    })
    await prisma.otpChallenge.createMany({
      data: Array.from({ length: 5 }, () => ({
        phone: '+919800000001',
        codeHash: 'x',
        expiresAt: old,
        createdAt: old,
      })),
    })
    await prisma.session.createMany({
      data: [
        ...Array.from({ length: 4 }, (_, i) => ({ id: `ended-${i}`, userId, expiresAt: old })),
        { id: 'live', userId, expiresAt: new Date(now.getTime() + MS_PER_DAY) },
      ],
    })

    expect(await pruneExpiredRows(now, 2)).toBe(7 + 5 + 4)
    expect(await prisma.rateLimitEvent.findMany({ where: { bucket: 'batch' }, select: { key: true } })).toEqual([
      { key: 'recent' },
    ])
    expect(await prisma.otpChallenge.count({ where: { phone: '+919800000001' } })).toBe(0)
    expect(await prisma.session.findMany({ where: { userId }, select: { id: true } })).toEqual([{ id: 'live' }])
  })
})

describe('expiring manual claims', () => {
  it('expires every overdue claim, a batch at a time, and leaves the claims still within their 7 days', async () => {
    const now = new Date()
    const service = await createService('Claims', 100_000, 30)
    const overdue = []
    for (let i = 0; i < 7; i++) {
      const userId = await createUser()
      overdue.push(
        await createPaymentRow(userId, [cartItemOf(service)], {
          method: 'MANUAL',
          expiresAt: new Date(now.getTime() - 1),
        }),
      )
    }
    const open = await createPaymentRow(await createUser(), [cartItemOf(service)], { method: 'MANUAL' })

    expect(await expireManualPayments(now, 3)).toBe(7)
    const statuses = await prisma.payment.findMany({
      where: { id: { in: overdue.map((payment) => payment.id) } },
      select: { status: true },
    })
    expect(statuses.map((payment) => payment.status)).toEqual(Array(7).fill('EXPIRED'))
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: open.id } })).status).toBe('PENDING_VERIFICATION')
    expect(await expireManualPayments(now, 3)).toBe(0)
  })
})

describe('reconciling open gateway orders', () => {
  it('goes on past orders that stay open, batch after batch, to the newest, which it pays', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const gateway = sandboxGateway()
    const service = await createService('Reconcile', 100_000, 30)
    // Five orders whose payment failed: asked about on every run while the window lasts, never given up.
    for (let i = 0; i < 5; i++) {
      const started = await startGatewayPayment(await createUser(), [service.id], { gateway })
      gateway.pay(started.orderId, 'failed')
    }
    const newest = await startGatewayPayment(await createUser(), [service.id], { gateway })
    gateway.pay(newest.orderId)

    const report = await reconcileOpenOrders(new Date(Date.now() + RECONCILE_AFTER_MS + 60_000), {
      gateway,
      batchRows: 2,
    })
    expect(report).toEqual({ checked: 6, paid: 1, abandoned: 0, errors: 0 })
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: newest.paymentId } })).status).toBe('PAID')
  })
})
