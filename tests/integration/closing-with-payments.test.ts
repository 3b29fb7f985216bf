import { randomInt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sandboxGateway } from '~/demo/razorpay-sandbox.server'
import { closeAccount } from '~/server/account/closing.server'
import { confirmPaymentAsAdmin } from '~/server/admin/payments.server'
import { prisma } from '~/server/db.server'
import { cancelGatewayPayment, startGatewayPayment } from '~/server/payments/checkout.server'
import { createManualPayment } from '~/server/payments/manual-claims.server'
import { sendGatewayRefund } from '~/server/payments/refunds/gateway-refund.server'
import { handleWebhook } from '~/server/payments/webhooks.server'
import { createPaymentRow, cartItemOf, createService, createUser, STATEMENT_ENTRY } from '../support/payment-fixtures'
import { queuedEmails } from '../support/queued-emails'

// No money lands on a closed account (docs/payments.md, "Closing an account and late money"):
// closing cancels what is open, a capture that still arrives is refunded in full, and the team
// cannot confirm a closed account's claim. The races the outside probe ran are run here too.

const gateway = sandboxGateway()

/** A KYC-validated customer with an e-mail address (the last one, where the refund notice goes). */
async function customer() {
  const userId = await createUser()
  const email = `closing-${userId.slice(0, 8)}@example.in`
  await prisma.user.update({ where: { id: userId }, data: { email } })
  return { userId, email }
}

async function admin() {
  const user = await prisma.user.create({
    data: { phone: `+9197${String(randomInt(0, 100_000_000)).padStart(8, '0')}`, role: 'ADMIN' },
  })
  return user.id
}

/** What the customer holds after all: running subscriptions, refunds by kind, the ledger's sum of the payment. */
async function moneyOf(userId: string, paymentId: string) {
  const now = new Date()
  const running = await prisma.subscription.count({ where: { userId, endsAt: { gt: now } } })
  const subscriptions = await prisma.subscription.count({ where: { paymentId } })
  const refunds = await prisma.refund.findMany({
    where: { paymentId },
    select: { kind: true, reason: true, amountPaise: true, status: true },
  })
  const ledger = await prisma.ledgerEntry.findMany({ where: { paymentId }, select: { amountPaise: true } })
  return { running, subscriptions, refunds, ledgerSum: ledger.reduce((sum, row) => sum + row.amountPaise, 0) }
}

describe('closing an account with payments open', () => {
  it('cancels its open gateway order and its open bank transfer claim, in the closing', async () => {
    const { userId } = await customer()
    const equity = await createService('Equity', 300_000, 30)
    const swing = await createService('Swing', 150_000, 90)
    const order = await startGatewayPayment(userId, [equity.id], { gateway })
    const claim = await createManualPayment(userId, [swing.id])

    const closed = await closeAccount(userId, new Date(), { gateway })

    expect(closed).toMatchObject({ ok: true })
    const payments = await prisma.payment.findMany({ where: { userId }, select: { id: true, status: true } })
    expect(payments).toEqual(
      expect.arrayContaining([
        { id: order.paymentId, status: 'CANCELLED' },
        { id: claim.paymentId, status: 'CANCELLED' },
      ]),
    )
    const audit = await prisma.auditLog.findFirstOrThrow({
      where: { subjectId: userId, action: 'account.closed' },
      select: { after: true },
    })
    expect(audit.after).toMatchObject({ paymentsCancelled: expect.arrayContaining([order.paymentId, claim.paymentId]) })
    expect(await prisma.subscription.count({ where: { userId } })).toBe(0)
  })

  it('refunds in full an order the gateway captured before the closing heard of it', async () => {
    const { userId } = await customer()
    const equity = await createService('Equity', 300_000, 30)
    const order = await startGatewayPayment(userId, [equity.id], { gateway })
    gateway.pay(order.orderId) // captured at the gateway; no webhook yet

    expect(await closeAccount(userId, new Date(), { gateway })).toMatchObject({ ok: true })

    expect(await moneyOf(userId, order.paymentId)).toEqual({
      running: 0,
      subscriptions: 0,
      refunds: [{ kind: 'WHOLE_PAYMENT', reason: 'ACCOUNT_CLOSED', amountPaise: 300_000, status: 'PENDING' }],
      ledgerSum: 0,
    })
  })
})

describe('a capture that arrives after the account was closed', () => {
  it('is refunded in full through the refund queue, audited, and the customer told by e-mail; no subscription', async () => {
    const { userId, email } = await customer()
    const equity = await createService('Equity', 300_000, 30)
    const order = await startGatewayPayment(userId, [equity.id], { gateway })
    // The customer closed the checkout, then the account: the bank's late authorisation follows.
    await cancelGatewayPayment(userId, order.orderId)
    expect(await closeAccount(userId, new Date(), { gateway })).toMatchObject({ ok: true })
    const attempt = gateway.pay(order.orderId)
    const captured = gateway.webhook('payment.captured', attempt.razorpay_payment_id)

    expect(await handleWebhook(captured.rawBody, captured.signature, { gateway })).toEqual({
      status: 200,
      outcome: 'processed',
    })

    const payment = await prisma.payment.findUniqueOrThrow({ where: { id: order.paymentId } })
    expect(payment).toMatchObject({ status: 'PAID', gatewayPaymentId: attempt.razorpay_payment_id })
    expect(await moneyOf(userId, order.paymentId)).toEqual({
      running: 0,
      subscriptions: 0,
      refunds: [{ kind: 'WHOLE_PAYMENT', reason: 'ACCOUNT_CLOSED', amountPaise: 300_000, status: 'PENDING' }],
      ledgerSum: 0,
    })
    const refund = await prisma.refund.findFirstOrThrow({ where: { paymentId: order.paymentId } })
    const audit = await prisma.auditLog.findMany({
      where: { subjectId: order.paymentId, action: 'payment.refunded-account-closed' },
      select: { after: true },
    })
    expect(audit).toEqual([{ after: expect.objectContaining({ refundId: refund.id, amountPaise: 300_000 }) }])
    const emails = await queuedEmails(email)
    expect(emails.map((sent) => sent.subject)).toEqual(['Your payment is being refunded in full'])
    expect(emails[0]!.body).toMatch(/closed/)
    expect(emails[0]!.body).toContain('Rs. 3,000')

    // The refund job gives the money back at the gateway; a second delivery changes nothing.
    expect(await sendGatewayRefund(refund.id, { lastAttempt: false }, gateway)).toBe('processed')
    const orderPaid = gateway.webhook('order.paid', attempt.razorpay_payment_id)
    await handleWebhook(orderPaid.rawBody, orderPaid.signature, { gateway })
    expect(await prisma.refund.count({ where: { paymentId: order.paymentId } })).toBe(1)
    expect(await queuedEmails(email)).toHaveLength(1)
  })
})

describe('closing and paying at the same moment', () => {
  it('ends in one of two ways, never a running subscription on a closed account', async () => {
    const outcomes = new Set<string>()
    for (let round = 0; round < 6; round++) {
      const { userId } = await customer()
      const equity = await createService('Equity', 300_000, 30)
      const order = await startGatewayPayment(userId, [equity.id], { gateway })
      const attempt = gateway.pay(order.orderId)
      const captured = gateway.webhook('payment.captured', attempt.razorpay_payment_id)

      const [closed] = await Promise.all([
        closeAccount(userId, new Date(), { gateway }),
        handleWebhook(captured.rawBody, captured.signature, { gateway }),
      ])

      expect(closed).toMatchObject({ ok: true })
      const money = await moneyOf(userId, order.paymentId)
      expect(money.running).toBe(0)
      expect(money.refunds).toHaveLength(1)
      const [refund] = money.refunds
      if (refund!.kind === 'WHOLE_PAYMENT') {
        // Closed first: the capture was refunded in full, and made no subscription.
        expect(money).toMatchObject({ subscriptions: 0, ledgerSum: 0 })
        expect(refund).toMatchObject({ reason: 'ACCOUNT_CLOSED', amountPaise: 300_000 })
        outcomes.add('closed-then-refunded')
      } else {
        // Paid first: the closing ended the service with its refund, as ending it does.
        expect(money.subscriptions).toBe(1)
        expect(refund).toMatchObject({ kind: 'ENDING', reason: 'CUSTOMER_ENDED' })
        expect(refund!.amountPaise).toBeGreaterThanOrEqual(290_000)
        outcomes.add('paid-then-ended')
      }
    }
    expect(outcomes.size).toBeGreaterThan(0)
  })

  it('an admin confirming a claim while the customer closes: either paid and the closing refused, or cancelled and the confirm refused', async () => {
    for (let round = 0; round < 4; round++) {
      const { userId } = await customer()
      const adminId = await admin()
      const swing = await createService('Swing', 150_000, 90)
      const claim = await createManualPayment(userId, [swing.id])

      const [closed, confirmed] = await Promise.all([
        closeAccount(userId, new Date(), { gateway }),
        confirmPaymentAsAdmin(adminId, claim.paymentId, STATEMENT_ENTRY),
      ])

      const user = await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { closedAt: true } })
      const payment = await prisma.payment.findUniqueOrThrow({ where: { id: claim.paymentId } })
      if (confirmed.ok) {
        // Paid first: its refund goes by bank transfer, so the closing asks for the account first.
        expect(payment.status).toBe('PAID')
        expect(closed).toMatchObject({ ok: false, message: expect.stringMatching(/bank transfer/) })
        expect(user.closedAt).toBeNull()
      } else {
        expect(closed).toMatchObject({ ok: true })
        expect(payment.status).toBe('CANCELLED')
        expect(confirmed).toMatchObject({ status: 409, message: expect.stringMatching(/closed/) })
        expect(await prisma.subscription.count({ where: { userId } })).toBe(0)
      }
    }
  })
})

describe('closing while the customer starts payments', () => {
  it('leaves no open order or claim: each is cancelled by the closing or refused after it', async () => {
    for (let round = 0; round < 3; round++) {
      const { userId } = await customer()
      const services = await Promise.all([1, 2].map((n) => createService(`Race ${n}`, 100_000 * n, 30)))
      const purchases = services.flatMap((service) => [
        startGatewayPayment(userId, [service.id], { gateway }).then(
          () => 'started',
          (error: unknown) => (error as Error).message,
        ),
        createManualPayment(userId, [service.id]).then(
          () => 'claimed',
          (error: unknown) => (error as Error).message,
        ),
      ])

      const [closed, ...answers] = await Promise.all([closeAccount(userId, new Date(), { gateway }), ...purchases])

      expect(closed).toMatchObject({ ok: true })
      const open = await prisma.payment.count({
        where: { userId, status: { in: ['CREATED', 'PENDING_VERIFICATION'] } },
      })
      expect(open).toBe(0)
      for (const answer of answers) expect(answer).toMatch(/^(started|claimed|This account is closed\b.*)$/)
    }
  })
})

describe('the admin confirming a claim of a closed account', () => {
  it('is refused with a clear message, and nothing is paid', async () => {
    const { userId, email } = await customer()
    const adminId = await admin()
    const swing = await createService('Swing', 150_000, 90)
    // A claim still pending on a closed account (one made before closing cancelled claims).
    const claim = await createPaymentRow(userId, [cartItemOf(swing)], { method: 'MANUAL' })
    await prisma.user.update({ where: { id: userId }, data: { closedAt: new Date(Date.now() - 60_000) } })

    const outcome = await confirmPaymentAsAdmin(adminId, claim.id, STATEMENT_ENTRY)

    expect(outcome).toEqual({
      ok: false,
      status: 409,
      message: expect.stringMatching(
        /^The customer closed their account on \d{2}-\d{2}-\d{4}: this claim cannot be confirmed/,
      ),
    })
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: claim.id } })).status).toBe('PENDING_VERIFICATION')
    expect(await prisma.subscription.count({ where: { userId } })).toBe(0)
    expect(await prisma.auditLog.count({ where: { subjectId: claim.id, action: 'payment.confirm' } })).toBe(0)
    expect(await queuedEmails(email)).toEqual([])
  })
})
