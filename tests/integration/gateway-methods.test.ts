import { describe, expect, it } from 'vitest'
import { sandboxGateway } from '~/demo/razorpay-sandbox.server'
import { prisma } from '~/server/db.server'
import { startGatewayPayment, verifyCheckoutPayment } from '~/server/payments/checkout.server'
import { paymentConfirmationFlash } from '~/server/payments/confirmation.server'
import type { SandboxPaymentMethod } from '~/server/payments/gateway/sandbox.server'
import { reconcileOpenOrders, RECONCILE_AFTER_MS } from '~/server/payments/reconciliation.server'
import { sendGatewayRefund } from '~/server/payments/refunds/gateway-refund.server'
import { handleWebhook } from '~/server/payments/webhooks.server'
import { createService, createUser } from '../support/payment-fixtures'
import { queuedEmails } from '../support/queued-emails'

// Gateway payments are limited to card, netbanking and UPI (docs/payments.md, "Gateway payment
// methods"): a capture reported with another method, by the webhook, the checkout's verify or
// reconciliation, is paid and invoiced but makes no subscription; all of it is refunded through
// the refund queue, audited, and the customer e-mailed, once whichever path and however often.

const gateway = sandboxGateway()

const REFUSED_EMAIL_SUBJECT = 'Your payment is being refunded: please pay by card, netbanking or UPI'

/** A KYC-validated customer with an e-mail address and an open order for a Rs. 3,000 service. */
async function openOrder() {
  const userId = await createUser()
  const email = `method-${userId.slice(0, 8)}@example.in`
  await prisma.user.update({ where: { id: userId }, data: { email } })
  const equity = await createService('Equity', 300_000, 30)
  const started = await startGatewayPayment(userId, [equity.id], { gateway })
  return { userId, email, started }
}

async function paidAt(orderId: string, method: SandboxPaymentMethod) {
  return gateway.pay(orderId, 'captured', method)
}

/** What the payment came to: its state, its subscriptions, its refunds, the ledger's sum and the audit rows. */
async function outcomeOf(paymentId: string) {
  const payment = await prisma.payment.findUniqueOrThrow({
    where: { id: paymentId },
    select: { status: true, paidVia: true, gatewayPaymentId: true },
  })
  const subscriptions = await prisma.subscription.count({ where: { paymentId } })
  const refunds = await prisma.refund.findMany({
    where: { paymentId },
    select: { kind: true, reason: true, amountPaise: true, status: true, note: true },
  })
  const ledger = await prisma.ledgerEntry.findMany({ where: { paymentId }, select: { amountPaise: true } })
  const audit = await prisma.auditLog.findMany({
    where: { subjectId: paymentId, action: 'payment.refunded-gateway-method' },
    select: { before: true, after: true },
  })
  return {
    payment,
    subscriptions,
    refunds,
    ledgerSum: ledger.reduce((sum, row) => sum + row.amountPaise, 0),
    audit,
  }
}

const refusedRefund = (note: RegExp) => ({
  kind: 'WHOLE_PAYMENT',
  reason: 'GATEWAY_METHOD_REFUSED',
  amountPaise: 300_000,
  status: 'PENDING',
  note: expect.stringMatching(note),
})

describe('a capture by a method the store does not take', () => {
  it('reported by the webhook: paid and invoiced, no subscription, refunded in full, audited, e-mailed; a replay or order.paid changes nothing', async () => {
    const { email, started } = await openOrder()
    const attempt = await paidAt(started.orderId, 'wallet')
    const captured = gateway.webhook('payment.captured', attempt.razorpay_payment_id)

    expect(await handleWebhook(captured.rawBody, captured.signature, { gateway })).toEqual({
      status: 200,
      outcome: 'processed',
    })

    const outcome = await outcomeOf(started.paymentId)
    expect(outcome).toMatchObject({
      payment: { status: 'PAID', paidVia: 'webhook', gatewayPaymentId: attempt.razorpay_payment_id },
      subscriptions: 0,
      refunds: [refusedRefund(/^Paid by a wallet: .*card, netbanking or UPI/)],
      ledgerSum: 0,
      audit: [
        {
          before: { gatewayMethod: 'wallet' },
          after: expect.objectContaining({ status: 'PAID', paidVia: 'webhook', amountPaise: 300_000 }),
        },
      ],
    })
    const emails = await queuedEmails(email)
    expect(emails.map((sent) => sent.subject)).toEqual([REFUSED_EMAIL_SUBJECT])
    expect(emails[0]!.body).toContain('Rs. 3,000')
    expect(emails[0]!.body).toContain('a wallet')

    // The refund job gives it back at the gateway, as every gateway refund.
    const refund = await prisma.refund.findFirstOrThrow({ where: { paymentId: started.paymentId } })
    expect(await sendGatewayRefund(refund.id, { lastAttempt: false }, gateway)).toBe('processed')

    // Razorpay's retry of the same delivery, its order.paid, and reconciliation: nothing more.
    expect(await handleWebhook(captured.rawBody, captured.signature, { gateway })).toEqual({
      status: 200,
      outcome: 'duplicate',
    })
    const orderPaid = gateway.webhook('order.paid', attempt.razorpay_payment_id)
    expect((await handleWebhook(orderPaid.rawBody, orderPaid.signature, { gateway })).status).toBe(200)
    await reconcileOpenOrders(new Date(Date.now() + RECONCILE_AFTER_MS + 1), { gateway })
    expect(await prisma.refund.count({ where: { paymentId: started.paymentId } })).toBe(1)
    expect(await prisma.subscription.count({ where: { paymentId: started.paymentId } })).toBe(0)
    expect(await queuedEmails(email)).toHaveLength(1)
  })

  it("reported by the checkout's verify: the same, and the page says it was not accepted instead of a confirmation", async () => {
    const { email, started } = await openOrder()
    const signed = await paidAt(started.orderId, 'emi')

    expect(await verifyCheckoutPayment(signed, { gateway })).toEqual({
      status: 'paid',
      paymentId: started.paymentId,
      alreadyPaid: false,
    })

    expect(await outcomeOf(started.paymentId)).toMatchObject({
      payment: { status: 'PAID', paidVia: 'checkout' },
      subscriptions: 0,
      refunds: [refusedRefund(/^Paid by EMI: /)],
      ledgerSum: 0,
      audit: [{ before: { gatewayMethod: 'emi' } }],
    })
    const flash = await paymentConfirmationFlash(started.paymentId)
    expect(flash).toMatchObject({ tone: 'error', message: expect.stringContaining('not accepted') })
    expect(flash?.details).toEqual([expect.stringMatching(/^Paid by EMI: /)])

    // The webhook that follows, and a re-verify, find it paid: one refund, one e-mail.
    const captured = gateway.webhook('payment.captured', signed.razorpay_payment_id)
    await handleWebhook(captured.rawBody, captured.signature, { gateway })
    expect(await verifyCheckoutPayment(signed, { gateway, source: 'reverify' })).toMatchObject({ alreadyPaid: true })
    expect(await prisma.refund.count({ where: { paymentId: started.paymentId } })).toBe(1)
    expect((await queuedEmails(email)).map((sent) => sent.subject)).toEqual([REFUSED_EMAIL_SUBJECT])
  })

  it('found by reconciliation: the same, once over two runs', async () => {
    const { email, started } = await openOrder()
    await paidAt(started.orderId, 'paylater')
    const later = new Date(Date.now() + RECONCILE_AFTER_MS + 1)

    await reconcileOpenOrders(later, { gateway })
    await reconcileOpenOrders(later, { gateway })

    expect(await outcomeOf(started.paymentId)).toMatchObject({
      payment: { status: 'PAID', paidVia: 'reconciliation' },
      subscriptions: 0,
      refunds: [refusedRefund(/^Paid by pay later: /)],
      ledgerSum: 0,
      audit: [{ before: { gatewayMethod: 'paylater' } }],
    })
    expect((await queuedEmails(email)).map((sent) => sent.subject)).toEqual([REFUSED_EMAIL_SUBJECT])
  })

  it('reported by the webhook and the verify at the same moment: refunded once', async () => {
    const { email, started } = await openOrder()
    const signed = await paidAt(started.orderId, 'cardless_emi')
    const captured = gateway.webhook('payment.captured', signed.razorpay_payment_id)

    const [verified] = await Promise.all([
      verifyCheckoutPayment(signed, { gateway }),
      handleWebhook(captured.rawBody, captured.signature, { gateway }),
      reconcileOpenOrders(new Date(Date.now() + RECONCILE_AFTER_MS + 1), { gateway }),
    ])

    expect(verified).toMatchObject({ status: 'paid' })
    const outcome = await outcomeOf(started.paymentId)
    expect(outcome.refunds).toEqual([refusedRefund(/^Paid by cardless EMI: /)])
    expect(outcome.subscriptions).toBe(0)
    expect(outcome.audit).toHaveLength(1)
    expect(await queuedEmails(email)).toHaveLength(1)
  })
})

describe('a capture by card, netbanking or UPI', () => {
  it.each(['card', 'netbanking', 'upi'] as const)('by %s makes its subscription, with no refund', async (method) => {
    const { email, started } = await openOrder()
    const attempt = await paidAt(started.orderId, method)
    const captured = gateway.webhook('payment.captured', attempt.razorpay_payment_id)

    await handleWebhook(captured.rawBody, captured.signature, { gateway })

    expect(await outcomeOf(started.paymentId)).toMatchObject({
      payment: { status: 'PAID' },
      subscriptions: 1,
      refunds: [],
      ledgerSum: 300_000,
      audit: [],
    })
    expect((await queuedEmails(email)).map((sent) => sent.subject)).not.toContain(REFUSED_EMAIL_SUBJECT)
  })
})
