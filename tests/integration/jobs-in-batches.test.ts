import { captureLogLines } from '~/server/operations/logger.server'
import { afterEach, beforeEach, describe, expect, it, vi, onTestFinished } from 'vitest'
import { MS_PER_DAY } from '~/domain/dates'
import { sandboxGateway } from '~/demo/razorpay-sandbox.server'
import { prisma } from '~/server/db.server'
import { PRUNE_AFTER_MS, pruneExpiredRows } from '~/server/jobs/prune.server'
import { startGatewayPayment } from '~/server/payments/checkout.server'
import { expireManualPayments } from '~/server/payments/manual-claims.server'
import { setCachePeers } from '~/server/cache.server'
import { handleWebhook } from '~/server/payments/webhooks.server'
import { RECONCILE_AFTER_MS, RECONCILE_CONCURRENCY, reconcileOpenOrders } from '~/server/payments/reconciliation.server'
import type { PaymentGateway } from '~/server/payments/gateway/razorpay.server'
import { cartItemOf, createPaymentRow, createService, createUser } from '../support/payment-fixtures'

// The jobs go through what is due a few rows per statement (batch sizes of 2 and 3 here, hundreds
// and thousands in production), so no statement holds locks on a table the pages use for long.

afterEach(() => {
  vi.restoreAllMocks()
  setCachePeers(null)
})

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

    await prisma.telegramUpdate.createMany({
      data: [
        ...Array.from({ length: 3 }, (_, i) => ({ updateId: 9_100_000_000n + BigInt(i), receivedAt: old })),
        { updateId: 9_100_000_010n, receivedAt: now },
      ],
    })
    await prisma.telegramLinkToken.createMany({
      data: [
        { tokenSha256: `${userId}-used`, userId, createdAt: old, expiresAt: old, usedAt: old },
        { tokenSha256: `${userId}-unused`, userId, createdAt: old, expiresAt: old },
        { tokenSha256: `${userId}-live`, userId, createdAt: now, expiresAt: new Date(now.getTime() + 60_000) },
      ],
    })

    expect(await pruneExpiredRows(now, 2)).toBe(7 + 5 + 4 + 3 + 2)
    expect(await prisma.rateLimitEvent.findMany({ where: { bucket: 'batch' }, select: { key: true } })).toEqual([
      { key: 'recent' },
    ])
    expect(await prisma.otpChallenge.count({ where: { phone: '+919800000001' } })).toBe(0)
    expect(await prisma.session.findMany({ where: { userId }, select: { id: true } })).toEqual([{ id: 'live' }])
    expect(
      await prisma.telegramUpdate.findMany({
        where: { updateId: { gte: 9_100_000_000n, lte: 9_100_000_010n } },
        select: { updateId: true },
      }),
    ).toEqual([{ updateId: 9_100_000_010n }])
    expect(await prisma.telegramLinkToken.findMany({ where: { userId }, select: { tokenSha256: true } })).toEqual([
      { tokenSha256: `${userId}-live` },
    ])
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

describe('reconciling open gateway orders, several at once', () => {
  // The database is the file's: each test's orders are made days after the last test's, past the
  // late-authorisation window of the earlier orders, and open ones left by earlier tests are closed,
  // so that only the test's own orders are due.
  const daysAhead = (days: number) => new Date(Date.now() + days * MS_PER_DAY)
  beforeEach(() => prisma.payment.updateMany({ where: { status: 'CREATED' }, data: { status: 'CANCELLED' } }))
  const dueAfter = (madeAt: Date) => new Date(madeAt.getTime() + RECONCILE_AFTER_MS + 60_000)

  it('asks about a few orders at once, never more than RECONCILE_CONCURRENCY', async () => {
    const sandbox = sandboxGateway()
    const service = await createService('Concurrent', 100_000, 30)
    const madeAt = daysAhead(10)
    for (let i = 0; i < RECONCILE_CONCURRENCY * 2 + 1; i++)
      await startGatewayPayment(await createUser(), [service.id], { gateway: sandbox, now: madeAt })
    let inFlight = 0
    let mostInFlight = 0
    const counting: PaymentGateway = {
      ...sandbox,
      async fetchOrderPayments(orderId) {
        mostInFlight = Math.max(mostInFlight, ++inFlight)
        try {
          return await sandbox.fetchOrderPayments(orderId)
        } finally {
          inFlight--
        }
      },
    }
    const report = await reconcileOpenOrders(dueAfter(madeAt), { gateway: counting })
    expect(report).toEqual({
      checked: RECONCILE_CONCURRENCY * 2 + 1,
      paid: 0,
      abandoned: RECONCILE_CONCURRENCY * 2 + 1,
      errors: 0,
    })
    expect(mostInFlight).toBe(RECONCILE_CONCURRENCY)
  })

  it('two runs at once over the same batch, while webhooks settle the same orders: each paid once, its subscriptions made once', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const gateway = sandboxGateway()
    const service = await createService('Raced', 100_000, 30)
    const madeAt = daysAhead(20)
    const orders = []
    for (let i = 0; i < 6; i++) {
      const started = await startGatewayPayment(await createUser(), [service.id], { gateway, now: madeAt })
      orders.push({ ...started, captured: gateway.pay(started.orderId) })
    }
    const now = dueAfter(madeAt)
    const [first, second, ...webhooks] = await Promise.all([
      reconcileOpenOrders(now, { gateway, batchRows: 4 }),
      reconcileOpenOrders(now, { gateway, batchRows: 4 }),
      ...orders.slice(0, 3).map((order) => {
        const delivery = gateway.webhook('payment.captured', order.captured.razorpay_payment_id)
        return handleWebhook(delivery.rawBody, delivery.signature, { gateway })
      }),
    ])

    expect(webhooks.map((answer) => answer.status)).toEqual([200, 200, 200])
    expect([first.errors, second.errors, first.abandoned, second.abandoned]).toEqual([0, 0, 0, 0])
    // Each order paid by exactly one of the paths: the runs' counts cover only what they paid.
    expect(first.paid + second.paid).toBeGreaterThanOrEqual(3)
    expect(first.paid + second.paid).toBeLessThanOrEqual(6)
    for (const order of orders) {
      const payment = await prisma.payment.findUniqueOrThrow({ where: { id: order.paymentId } })
      expect(payment).toMatchObject({ status: 'PAID', gatewayPaymentId: order.captured.razorpay_payment_id })
      expect(await prisma.subscription.count({ where: { paymentId: order.paymentId } })).toBe(1)
    }
  })

  it('goes on with the other orders when one fails, and gives up the rest of the batch in one announcement', async () => {
    const log = captureLogLines()
    onTestFinished(log.stop)
    const sandbox = sandboxGateway()
    const service = await createService('Partly failing', 100_000, 30)
    const madeAt = daysAhead(30)
    const open = []
    for (let i = 0; i < 5; i++)
      open.push(await startGatewayPayment(await createUser(), [service.id], { gateway: sandbox, now: madeAt }))
    const [unanswered, captured] = [open[1]!, open[3]!]
    sandbox.pay(captured.orderId)
    const gateway: PaymentGateway = {
      ...sandbox,
      fetchOrderPayments: (orderId) =>
        orderId === unanswered.orderId
          ? Promise.reject(new Error('gateway timed out'))
          : sandbox.fetchOrderPayments(orderId),
    }
    const announced: string[][] = []
    setCachePeers({ publish: async (keys) => void announced.push([...keys]) })

    const report = await reconcileOpenOrders(dueAfter(madeAt), { gateway })

    expect(report).toEqual({ checked: 5, paid: 1, abandoned: 3, errors: 1 })
    expect(log.lines().filter((line) => line.level === 'error')).toEqual([
      expect.objectContaining({
        module: 'payments',
        msg: expect.stringContaining(`Reconciliation of payment ${unanswered.paymentId} failed`),
      }),
    ])
    const statuses = await prisma.payment.findMany({
      where: { id: { in: open.map((order) => order.paymentId) } },
      select: { id: true, status: true },
    })
    expect(Object.fromEntries(statuses.map((payment) => [payment.id, payment.status]))).toEqual({
      [open[0]!.paymentId]: 'CANCELLED',
      [unanswered.paymentId]: 'CREATED',
      [open[2]!.paymentId]: 'CANCELLED',
      [captured.paymentId]: 'PAID',
      [open[4]!.paymentId]: 'CANCELLED',
    })
    // The paid order's own announcement, then one for the three given up.
    expect(announced).toHaveLength(2)
    expect(announced.at(-1)).toHaveLength(3 * 2)
  })
})
