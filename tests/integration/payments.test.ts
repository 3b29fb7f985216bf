import { captureLogLines } from '~/server/operations/logger.server'
import pg from 'pg'
import { afterEach, describe, expect, it, vi, onTestFinished } from 'vitest'
import { MS_PER_DAY } from '~/domain/dates'
import * as callbackRoute from '~/routes/payments.callback'
import { prisma } from '~/server/db.server'
import {
  ALREADY_PAID_MESSAGE,
  cancelGatewayPayment,
  closeGatewayCheckout,
  GATEWAY_ORDER_REUSE_MS,
  handleCheckoutCallback,
  recordGatewayFailure,
  startGatewayPayment,
  verifyCheckoutPayment,
} from '~/server/payments/checkout.server'
import {
  confirmManualPayment,
  createManualPayment,
  expireManualPayments,
  MANUAL_DUPLICATE_WINDOW_MS,
  MANUAL_OPEN_CLAIMS_MAX,
  MANUAL_PAYMENT_EXPIRY_DAYS,
  rejectManualPayment,
} from '~/server/payments/manual-claims.server'
import { handleWebhook, webhookDeliveryKey } from '~/server/payments/webhooks.server'
import { reconcileOpenOrders, RECONCILE_AFTER_MS } from '~/server/payments/reconciliation.server'
import {
  checkoutSignature,
  type CreateOrderInput,
  type PaymentGateway,
} from '~/server/payments/gateway/razorpay.server'
import { sandboxGateway } from '~/demo/razorpay-sandbox.server'
import { GATEWAY_LATE_AUTHORISATION_WINDOW_MS } from '~/domain/payment-status'
import { PaymentError, pendingPayments, WEBHOOK_PAY_WAIT_MS } from '~/server/payments/core.server'
import { createService, createUser, STATEMENT_ENTRY } from '../support/payment-fixtures'
import { queuedEmails } from '../support/queued-emails'

const gateway = sandboxGateway()

afterEach(() => vi.restoreAllMocks())

/** A customer with a cart of two services, and a gateway order opened for it. */
async function startedCheckout() {
  const userId = await createUser()
  const equity = await createService('Equity', 299_900, 30)
  const swing = await createService('Swing', 149_950, 90)
  const started = await startGatewayPayment(userId, [equity.id, swing.id], { gateway })
  return { userId, equity, swing, started }
}

/** The lines logged during the test, kept instead of printed. */
const quiet = () => {
  const log = captureLogLines()
  onTestFinished(log.stop)
  return log
}

describe('startGatewayPayment', () => {
  it('prices the cart from current database prices and sends only our payment id to the gateway', async () => {
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const swing = await createService('Swing', 149_950, 90)
    await prisma.service.update({ where: { id: swing.id }, data: { pricePaise: 159_900 } })
    const orders: CreateOrderInput[] = []
    const spying: PaymentGateway = {
      ...gateway,
      createOrder: (input) => (orders.push(input), gateway.createOrder(input)),
    }

    const started = await startGatewayPayment(userId, [equity.id, swing.id, equity.id], { gateway: spying })

    expect(started).toMatchObject({ amountPaise: 459_800, currency: 'INR', keyId: gateway.keyId })
    expect(orders).toEqual([
      { amountPaise: 459_800, receipt: started.paymentId, notes: { paymentId: started.paymentId } },
    ])
    const payment = await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })
    expect(payment).toMatchObject({
      status: 'CREATED',
      method: 'GATEWAY',
      amountPaise: 459_800,
      gatewayOrderId: started.orderId,
    })
    expect(payment.cart).toEqual([
      { serviceId: equity.id, name: equity.name, pricePaise: 299_900, durationDays: 30 },
      { serviceId: swing.id, name: swing.name, pricePaise: 159_900, durationDays: 90 },
    ])
  })

  it('refuses an empty cart and a cart with a service deactivated meanwhile, creating nothing', async () => {
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const retired = await createService('Retired', 100_000, 30)
    await prisma.service.update({ where: { id: retired.id }, data: { active: false } })

    await expect(startGatewayPayment(userId, [], { gateway })).rejects.toMatchObject({
      code: 'empty-cart',
      message: 'Your cart is empty. Choose at least one service.',
    })
    const refused = await startGatewayPayment(userId, [equity.id, retired.id], { gateway }).catch(
      (error: unknown) => error,
    )
    expect(refused).toBeInstanceOf(PaymentError)
    expect(refused).toMatchObject({ code: 'services-unavailable', status: 409, droppedIds: [retired.id] })
    expect((refused as Error).message).toBe(
      `Some services in your cart are no longer available: ${retired.name}. They have been removed from your cart; please review it and try again.`,
    )
    await expect(createManualPayment(userId, [retired.id])).rejects.toMatchObject({ code: 'services-unavailable' })
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)
  })

  it('refuses a total the client was not shown, creating nothing, and names the right one', async () => {
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const swing = await createService('Swing', 149_950, 90)
    const cart = [equity.id, swing.id]

    const refused = await startGatewayPayment(userId, cart, { gateway, expectedAmountPaise: 100 }).catch(
      (error: unknown) => error,
    )
    expect(refused).toMatchObject({ code: 'amount-mismatch', status: 409, amountPaise: 449_850 })
    expect((refused as Error).message).toBe(
      'The prices in your cart have changed: the total is now Rs. 4,498.50. Please review your cart and try again.',
    )
    await expect(createManualPayment(userId, cart, { expectedAmountPaise: 449_800 })).rejects.toMatchObject({
      code: 'amount-mismatch',
      amountPaise: 449_850,
    })
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)

    expect((await startGatewayPayment(userId, cart, { gateway, expectedAmountPaise: 449_850 })).amountPaise).toBe(
      449_850,
    )
    expect((await createManualPayment(userId, cart, { expectedAmountPaise: 449_850 })).created).toBe(true)
  })

  it('reopens the open order of the same cart for 10 minutes instead of creating another', async () => {
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const swing = await createService('Swing', 100_000, 30)
    const now = new Date()
    const first = await startGatewayPayment(userId, [equity.id, swing.id], { gateway, now })
    const again = await startGatewayPayment(userId, [swing.id, equity.id], {
      gateway,
      now: new Date(now.getTime() + 60_000),
    })
    expect(again).toEqual(first)
    expect(GATEWAY_ORDER_REUSE_MS).toBe(10 * 60 * 1000)
    const otherCart = await startGatewayPayment(userId, [equity.id], { gateway, now })
    expect(otherCart.orderId).not.toBe(first.orderId)
    const muchLater = await startGatewayPayment(userId, [equity.id, swing.id], {
      gateway,
      now: new Date(now.getTime() + GATEWAY_ORDER_REUSE_MS + 1),
    })
    expect(muchLater.orderId).not.toBe(first.orderId)
    await cancelGatewayPayment(userId, muchLater.orderId)
    const afterCancel = await startGatewayPayment(userId, [equity.id, swing.id], {
      gateway,
      now: new Date(now.getTime() + GATEWAY_ORDER_REUSE_MS + 2),
    })
    expect(afterCancel.orderId).not.toBe(muchLater.orderId)
  })
})

describe('an open order paid before we heard of it', () => {
  it('is not reopened: the capture found pays it, and the customer is told it is paid', async () => {
    quiet()
    const { userId, equity, swing, started } = await startedCheckout()
    gateway.pay(started.orderId) // paid, but the browser closed before the checkout's handler ran
    await expect(startGatewayPayment(userId, [equity.id, swing.id], { gateway })).rejects.toMatchObject({
      code: 'already-paid',
      status: 409,
      message: ALREADY_PAID_MESSAGE,
    })
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).toMatchObject({
      status: 'PAID',
      paidVia: 'reconciliation',
    })
    expect(await prisma.subscription.count({ where: { userId } })).toBe(2)
    expect(await prisma.payment.count({ where: { userId } })).toBe(1)
  })

  it('is reopened while its payment is only authorized', async () => {
    const { userId, equity, swing, started } = await startedCheckout()
    gateway.pay(started.orderId, 'authorized')
    expect((await startGatewayPayment(userId, [equity.id, swing.id], { gateway })).orderId).toBe(started.orderId)
  })
})

describe('verifyCheckoutPayment', () => {
  it('pays a correctly signed, captured payment with subscriptions ending exactly d x 24 h after payment', async () => {
    const { userId, equity, swing, started } = await startedCheckout()
    const paidAt = new Date('2026-11-22T18:29:59.999Z')
    const result = await verifyCheckoutPayment(gateway.pay(started.orderId), { gateway, now: paidAt })
    expect(result).toEqual({ status: 'paid', paymentId: started.paymentId, alreadyPaid: false })
    const subscriptions = await prisma.subscription.findMany({ where: { userId } })
    expect(subscriptions.find((s) => s.serviceId === equity.id)!.endsAt.toISOString()).toBe('2026-12-22T18:29:59.999Z')
    expect(subscriptions.find((s) => s.serviceId === swing.id)!.endsAt.getTime()).toBe(
      paidAt.getTime() + 90 * MS_PER_DAY,
    )
  })

  it('never pays on a forged, missing or reused signature, and changes nothing', async () => {
    quiet()
    const first = await startedCheckout()
    const paidFirst = gateway.pay(first.started.orderId)
    await verifyCheckoutPayment(paidFirst, { gateway })

    const { userId, started } = await startedCheckout()
    const signed = gateway.pay(started.orderId)
    const attempts = [
      { ...signed, razorpay_signature: 'f'.repeat(64) },
      {
        ...signed,
        razorpay_signature: checkoutSignature(started.orderId, signed.razorpay_payment_id, 'guessed-secret'),
      },
      // A caller that skipped CheckoutAnswerSchema.
      { ...signed, razorpay_signature: undefined as unknown as string },
      { ...signed, razorpay_signature: '' },
      // The first customer's valid signature, replayed against this order.
      {
        razorpay_order_id: started.orderId,
        razorpay_payment_id: paidFirst.razorpay_payment_id,
        razorpay_signature: paidFirst.razorpay_signature,
      },
      // A signature over the browser's order id swapped in the wrong order.
      {
        ...signed,
        razorpay_signature: checkoutSignature(signed.razorpay_payment_id, started.orderId, gateway.keySecret),
      },
    ]
    for (const attempt of attempts) {
      await expect(verifyCheckoutPayment(attempt, { gateway })).rejects.toMatchObject({
        code: 'invalid-signature',
        status: 400,
      })
    }
    // The first payment's own order and payment, posted for the second order, does not exist there either.
    await expect(
      verifyCheckoutPayment({ ...paidFirst, razorpay_order_id: 'order_unknown' }, { gateway }),
    ).rejects.toMatchObject({ code: 'not-found' })
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).toMatchObject({
      status: 'CREATED',
      gatewayPaymentId: null,
    })
    expect(await prisma.subscription.count({ where: { userId } })).toBe(0)
  })

  it('keeps an authorised but uncaptured payment pending until the capture is reported', async () => {
    const { started } = await startedCheckout()
    const signed = gateway.pay(started.orderId, 'authorized')
    expect(await verifyCheckoutPayment(signed, { gateway })).toEqual({
      status: 'pending',
      paymentId: started.paymentId,
    })
    gateway.capture(signed.razorpay_payment_id)
    expect(await verifyCheckoutPayment(signed, { gateway, source: 'reverify' })).toMatchObject({
      status: 'paid',
      alreadyPaid: false,
    })
  })

  it('answers a repeated verify with alreadyPaid', async () => {
    const { started } = await startedCheckout()
    const signed = gateway.pay(started.orderId)
    await verifyCheckoutPayment(signed, { gateway })
    expect(await verifyCheckoutPayment(signed, { gateway, source: 'reverify' })).toMatchObject({
      status: 'paid',
      alreadyPaid: true,
    })
  })
})

describe('handleWebhook', () => {
  it('refuses a bad signature with 400 and changes nothing', async () => {
    quiet()
    const { started } = await startedCheckout()
    const signed = gateway.pay(started.orderId)
    const delivery = gateway.webhook('payment.captured', signed.razorpay_payment_id)
    expect(await handleWebhook(delivery.rawBody, 'a'.repeat(64), { gateway })).toEqual({
      status: 400,
      outcome: 'invalid-signature',
    })
    expect(await handleWebhook(delivery.rawBody, null, { gateway })).toMatchObject({ status: 400 })
    // A body re-serialised with other whitespace no longer matches its signature.
    const reformatted = JSON.stringify(JSON.parse(delivery.rawBody), null, 2)
    expect(await handleWebhook(reformatted, delivery.signature, { gateway })).toMatchObject({ status: 400 })
    expect(await prisma.webhookEvent.count({ where: { eventId: webhookDeliveryKey(delivery.rawBody) } })).toBe(0)
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).status).toBe('CREATED')
  })

  it('answers 500 within its wait when a racing path holds the payment, so the retry pays it', async () => {
    const log = quiet()
    const { userId, started } = await startedCheckout()
    const signed = gateway.pay(started.orderId)
    const captured = gateway.webhook('payment.captured', signed.razorpay_payment_id)
    const racingPath = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await racingPath.connect()
    try {
      await racingPath.query('BEGIN')
      await racingPath.query('SELECT id FROM payments WHERE id = $1 FOR UPDATE', [started.paymentId])
      expect(await handleWebhook(captured.rawBody, captured.signature, { gateway })).toEqual({
        status: 500,
        outcome: 'error',
      })
      expect(
        log
          .lines()
          .filter((line) => line.level === 'error')
          .at(-1)?.msg,
      ).toMatch(/lock timeout/)
      expect(WEBHOOK_PAY_WAIT_MS).toBeLessThan(5_000)
    } finally {
      await racingPath.query('ROLLBACK')
      await racingPath.end()
    }
    expect(await handleWebhook(captured.rawBody, captured.signature, { gateway })).toEqual({
      status: 200,
      outcome: 'processed',
    })
    expect(await prisma.subscription.count({ where: { userId } })).toBe(2)
  })

  it('handles the same event twice, and order.paid plus payment.captured, as one payment with one set of subscriptions', async () => {
    const { userId, started } = await startedCheckout()
    const signed = gateway.pay(started.orderId)
    const captured = gateway.webhook('payment.captured', signed.razorpay_payment_id)
    const orderPaid = gateway.webhook('order.paid', signed.razorpay_payment_id)

    expect(await handleWebhook(captured.rawBody, captured.signature, { gateway })).toEqual({
      status: 200,
      outcome: 'processed',
    })
    expect(await handleWebhook(captured.rawBody, captured.signature, { gateway })).toEqual({
      status: 200,
      outcome: 'duplicate',
    })
    expect(await handleWebhook(orderPaid.rawBody, orderPaid.signature, { gateway })).toEqual({
      status: 200,
      outcome: 'processed',
    })

    expect(await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).toMatchObject({
      status: 'PAID',
      paidVia: 'webhook',
      gatewayPaymentId: signed.razorpay_payment_id,
    })
    expect(await prisma.subscription.count({ where: { userId } })).toBe(2)
  })

  it('keys a delivery on its signed body, so a replayed failure does not undo what happened since', async () => {
    const { started } = await startedCheckout()
    const attempt = gateway.pay(started.orderId, 'failed')
    const failed = gateway.webhook('payment.failed', attempt.razorpay_payment_id)
    expect(await handleWebhook(failed.rawBody, failed.signature, { gateway })).toEqual({
      status: 200,
      outcome: 'processed',
    })
    await prisma.payment.update({ where: { id: started.paymentId }, data: { status: 'CREATED', failureReason: null } })
    expect(await handleWebhook(failed.rawBody, failed.signature, { gateway })).toEqual({
      status: 200,
      outcome: 'duplicate',
    })
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).toMatchObject({
      status: 'CREATED',
      failureReason: null,
    })
    expect(await prisma.webhookEvent.count({ where: { eventId: webhookDeliveryKey(failed.rawBody) } })).toBe(1)
  })

  it('treats payment.failed as not final: a later capture still pays', async () => {
    const { started } = await startedCheckout()
    const attempt = gateway.pay(started.orderId, 'failed')
    const failed = gateway.webhook('payment.failed', attempt.razorpay_payment_id)
    expect(await handleWebhook(failed.rawBody, failed.signature, { gateway })).toMatchObject({ outcome: 'processed' })
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).toMatchObject({
      status: 'FAILED',
      failureReason: 'Payment failed',
    })

    gateway.capture(attempt.razorpay_payment_id)
    const captured = gateway.webhook('payment.captured', attempt.razorpay_payment_id)
    expect(await handleWebhook(captured.rawBody, captured.signature, { gateway })).toMatchObject({
      outcome: 'processed',
    })
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).status).toBe('PAID')
  })

  it('ignores a captured event whose amount does not match our order', async () => {
    quiet()
    const { started } = await startedCheckout()
    const signed = gateway.pay(started.orderId)
    const delivery = gateway.webhook('payment.captured', signed.razorpay_payment_id)
    const tampered = delivery.rawBody.replace(`"amount":${started.amountPaise}`, '"amount":100')
    const { webhookSignature } = await import('~/server/payments/gateway/razorpay.server')
    expect(await handleWebhook(tampered, webhookSignature(tampered, gateway.webhookSecret), { gateway })).toMatchObject(
      { outcome: 'ignored' },
    )
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).status).toBe('CREATED')
  })
})

describe('every path into paid, racing', () => {
  it('verify, re-verify, the hosted-checkout callback, webhooks and reconciliation in parallel pay exactly once', async () => {
    const { userId, equity, swing, started } = await startedCheckout()
    const email = `race-${userId.slice(0, 8)}@example.in`
    await prisma.user.update({ where: { id: userId }, data: { name: 'asha rao', email } })
    const signed = gateway.pay(started.orderId)
    const captured = gateway.webhook('payment.captured', signed.razorpay_payment_id)
    const orderPaid = gateway.webhook('order.paid', signed.razorpay_payment_id)
    const later = new Date(Date.now() + RECONCILE_AFTER_MS + 60_000)
    // The hosted checkout's return, as the browser posts it from Razorpay's site: a form, no cookies.
    const callback = () =>
      callbackRoute.action({
        request: new Request('http://localhost/payments/callback', {
          method: 'POST',
          headers: { Origin: 'https://api.razorpay.com' },
          body: new URLSearchParams(signed),
        }),
        params: {},
        context: { clientIp: '127.0.0.1', cspNonce: '' },
      } as never)

    const [verified, reverified, callbackAnswer, callbackAgain, ...rest] = await Promise.all([
      verifyCheckoutPayment(signed, { gateway }),
      verifyCheckoutPayment(signed, { gateway, source: 'reverify' }),
      callback(),
      callback(),
      handleWebhook(captured.rawBody, captured.signature, { gateway }),
      handleWebhook(captured.rawBody, captured.signature, { gateway }),
      handleWebhook(orderPaid.rawBody, orderPaid.signature, { gateway }),
      reconcileOpenOrders(later, { gateway }),
    ])

    expect([verified, reverified]).toEqual([
      expect.objectContaining({ status: 'paid' }),
      expect.objectContaining({ status: 'paid' }),
    ])
    for (const answer of [callbackAnswer, callbackAgain]) {
      expect(answer.status).toBe(303)
      expect(answer.headers.get('Location')).toBe('/subscriptions?from=payment')
    }
    expect(rest.slice(0, 3).map((result) => 'status' in result && result.status)).toEqual([200, 200, 200])
    expect(
      await prisma.payment.findMany({ where: { userId }, select: { status: true, gatewayPaymentId: true } }),
    ).toEqual([{ status: 'PAID', gatewayPaymentId: signed.razorpay_payment_id }])
    const subscriptions = await prisma.subscription.findMany({ where: { userId } })
    expect(subscriptions.map((s) => s.serviceId).sort()).toEqual([equity.id, swing.id].sort())
    expect((await queuedEmails(email)).map((queued) => queued.subject)).toEqual(['Your payment is confirmed'])
  })
})

describe('cancel, failure reports and reconciliation', () => {
  it("cancels only the customer's own open order, and a late capture found by reconciliation still pays", async () => {
    const { userId, started } = await startedCheckout()
    const stranger = await createUser()
    expect(await cancelGatewayPayment(stranger, started.orderId)).toBe(false)
    expect(await cancelGatewayPayment(userId, started.orderId)).toBe(true)
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).status).toBe('CANCELLED')

    gateway.pay(started.orderId) // captured after the customer closed the checkout
    const report = await reconcileOpenOrders(new Date(Date.now() + RECONCILE_AFTER_MS + 1), { gateway })
    expect(report).toMatchObject({ paid: 1, errors: 0 })
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).toMatchObject({
      status: 'PAID',
      paidVia: 'reconciliation',
    })
  })

  it('leaves orders younger than 15 minutes to the checkout, and gives up open orders after the window', async () => {
    const { started } = await startedCheckout()
    gateway.pay(started.orderId)
    expect(RECONCILE_AFTER_MS).toBe(15 * 60 * 1000)
    await reconcileOpenOrders(new Date(Date.now() + RECONCILE_AFTER_MS - 60_000), { gateway })
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).status).toBe('CREATED')

    const abandoned = await startedCheckout()
    const capturedLate = await startedCheckout()
    gateway.pay(capturedLate.started.orderId)
    const report = await reconcileOpenOrders(new Date(Date.now() + GATEWAY_LATE_AUTHORISATION_WINDOW_MS + 60_000), {
      gateway,
    })
    expect(report.abandoned).toBeGreaterThanOrEqual(1)
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: abandoned.started.paymentId } })).status).toBe(
      'CANCELLED',
    )
    // An order past the window still gets a last look: a capture found then pays instead of being given up.
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: capturedLate.started.paymentId } })).status).toBe(
      'PAID',
    )
  })

  it('gives up an open order with no payment attempt after 15 minutes, and a capture arriving later still pays it', async () => {
    const { userId, started } = await startedCheckout()
    expect(await pendingPayments(userId, new Date())).toHaveLength(1)
    const report = await reconcileOpenOrders(new Date(Date.now() + RECONCILE_AFTER_MS + 60_000), { gateway })
    expect(report.abandoned).toBeGreaterThanOrEqual(1)
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).toMatchObject({
      status: 'CANCELLED',
      failureReason: 'No payment was attempted for this order.',
    })
    expect(await pendingPayments(userId, new Date())).toEqual([])

    gateway.pay(started.orderId) // the customer came back to the checkout and paid
    await reconcileOpenOrders(new Date(Date.now() + RECONCILE_AFTER_MS + 120_000), { gateway })
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).status).toBe('PAID')
  })

  it('a failed checkout that is then closed stays FAILED with its reason, and the page says the failure', async () => {
    const { userId, started } = await startedCheckout()
    await recordGatewayFailure({ orderId: started.orderId, reason: 'Card declined', userId })
    expect(await closeGatewayCheckout(userId, started.orderId)).toBe('failed')
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).toMatchObject({
      status: 'FAILED',
      failureReason: 'Card declined',
    })

    const closedOnly = await startedCheckout()
    expect(await closeGatewayCheckout(closedOnly.userId, closedOnly.started.orderId)).toBe('dismissed')
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: closedOnly.started.paymentId } })).status).toBe(
      'CANCELLED',
    )
  })

  it('records a failure report as FAILED, only for the reporting customer', async () => {
    const { userId, started } = await startedCheckout()
    expect(await recordGatewayFailure({ orderId: started.orderId, reason: 'x', userId: await createUser() })).toBe(
      false,
    )
    expect(await recordGatewayFailure({ orderId: started.orderId, reason: 'Payment failed', userId })).toBe(true)
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).status).toBe('FAILED')
  })
})

describe('manual payments', () => {
  it('creates one PENDING_VERIFICATION claim expiring in exactly 7 days, also when submitted twice at once', async () => {
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const now = new Date('2026-11-22T12:00:00.000Z')
    const results = await Promise.all([
      createManualPayment(userId, [equity.id], { now }),
      createManualPayment(userId, [equity.id], { now }),
      createManualPayment(userId, [equity.id], { now: new Date(now.getTime() + 5_000) }),
    ])
    expect(new Set(results.map((result) => result.paymentId)).size).toBe(1)
    expect(results.filter((result) => result.created)).toHaveLength(1)
    expect(MANUAL_PAYMENT_EXPIRY_DAYS).toBe(7)
    // Whichever of the parallel submits won, its claim expires exactly 7 days after it was made.
    const stored = await prisma.payment.findFirstOrThrow({ where: { userId } })
    expect(stored).toMatchObject({ status: 'PENDING_VERIFICATION', method: 'MANUAL', amountPaise: 299_900 })
    expect(stored.expiresAt!.getTime() - stored.createdAt.getTime()).toBe(7 * 86_400_000)
    expect(results.map((result) => result.expiresAt.getTime())).toEqual(results.map(() => stored.expiresAt!.getTime()))

    // A new claim for the same cart after the duplicate window is a new payment.
    const later = await createManualPayment(userId, [equity.id], {
      now: new Date(stored.createdAt.getTime() + MANUAL_DUPLICATE_WINDOW_MS + 1),
    })
    expect(later.created).toBe(true)
  })

  it('returns the first claim for a repeated idempotency key', async () => {
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const [first, second] = await Promise.all([
      createManualPayment(userId, [equity.id], { idempotencyKey: 'form-123' }),
      createManualPayment(userId, [equity.id], { idempotencyKey: 'form-123' }),
    ])
    expect(second!.paymentId).toBe(first!.paymentId)
    expect(await prisma.payment.count({ where: { userId } })).toBe(1)
  })

  it('refuses an idempotency key reused for another cart with 409, keeping the first claim', async () => {
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const swing = await createService('Swing', 149_950, 90)
    const first = await createManualPayment(userId, [equity.id], { idempotencyKey: 'form-456' })
    await expect(createManualPayment(userId, [swing.id], { idempotencyKey: 'form-456' })).rejects.toMatchObject({
      code: 'idempotency-key-reused',
      status: 409,
    })
    expect(await prisma.payment.findMany({ where: { userId }, select: { id: true, amountPaise: true } })).toEqual([
      { id: first.paymentId, amountPaise: 299_900 },
    ])
  })

  it(`caps a customer's open claims at MANUAL_OPEN_CLAIMS_MAX (3): a 4th is refused with 409 until one is decided or expires`, async () => {
    quiet()
    expect(MANUAL_OPEN_CLAIMS_MAX).toBe(3)
    const userId = await createUser()
    const services = await Promise.all([1, 2, 3, 4].map((n) => createService(`Capped ${n}`, 10_000 * n, 30)))
    const now = new Date('2026-11-22T12:00:00.000Z')
    const claims = []
    for (const service of services.slice(0, 3)) claims.push(await createManualPayment(userId, [service.id], { now }))
    const fourth = () => createManualPayment(userId, [services[3]!.id], { now })
    await expect(fourth()).rejects.toMatchObject({
      code: 'too-many-open-claims',
      status: 409,
      message: expect.stringMatching(/3 bank transfers waiting/),
    })
    // Repeating an open claim is not a new one, so it is still answered.
    expect((await createManualPayment(userId, [services[0]!.id], { now })).paymentId).toBe(claims[0]!.paymentId)
    // Another customer is not affected.
    expect((await createManualPayment(await createUser(), [services[3]!.id], { now })).created).toBe(true)

    await rejectManualPayment(claims[0]!.paymentId, 'No transfer arrived', { now })
    expect((await fourth()).created).toBe(true)
    await expect(createManualPayment(userId, [services[0]!.id], { now })).rejects.toMatchObject({
      code: 'too-many-open-claims',
    })
    // An expired claim no longer counts, even before the expiry job has run.
    const afterExpiry = new Date(now.getTime() + MANUAL_PAYMENT_EXPIRY_DAYS * MS_PER_DAY + 1)
    expect((await createManualPayment(userId, [services[0]!.id], { now: afterExpiry })).created).toBe(true)
  })

  it('counts open claims under the per-customer lock, so parallel submits of different carts cannot pass the cap together', async () => {
    quiet()
    const userId = await createUser()
    const services = await Promise.all([1, 2, 3, 4, 5].map((n) => createService(`Racing ${n}`, 10_000 * n, 30)))
    const results = await Promise.allSettled(services.map((service) => createManualPayment(userId, [service.id])))
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(MANUAL_OPEN_CLAIMS_MAX)
    expect(await prisma.payment.count({ where: { userId } })).toBe(MANUAL_OPEN_CLAIMS_MAX)
  })

  it('is confirmed by an admin into subscriptions, rejected, or expired after 7 days', async () => {
    quiet()
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const swing = await createService('Swing', 100_000, 30)
    const now = new Date()
    const toConfirm = await createManualPayment(userId, [equity.id], { now })
    const toReject = await createManualPayment(userId, [swing.id], { now })
    const toExpire = await createManualPayment(userId, [equity.id, swing.id], { now })
    expect((await pendingPayments(userId, now)).map((payment) => payment.id).sort()).toEqual(
      [toConfirm.paymentId, toReject.paymentId, toExpire.paymentId].sort(),
    )

    await confirmManualPayment(toConfirm.paymentId, STATEMENT_ENTRY, { now })
    expect(await rejectManualPayment(toReject.paymentId, 'No transfer found')).toBe(true)
    const statusOf = async (id: string) => (await prisma.payment.findUniqueOrThrow({ where: { id } })).status
    await expireManualPayments(new Date(now.getTime() + 7 * MS_PER_DAY - 1))
    expect(await statusOf(toExpire.paymentId)).toBe('PENDING_VERIFICATION')
    await expireManualPayments(new Date(now.getTime() + 7 * MS_PER_DAY))
    expect(await statusOf(toExpire.paymentId)).toBe('EXPIRED')
    expect(await statusOf(toConfirm.paymentId)).toBe('PAID')
    expect(await statusOf(toReject.paymentId)).toBe('REJECTED')

    expect(await prisma.subscription.count({ where: { userId } })).toBe(1)
    expect(await pendingPayments(userId, now)).toEqual([])
    await expect(confirmManualPayment(toExpire.paymentId, STATEMENT_ENTRY)).rejects.toMatchObject({ reason: 'final' })
    await expect(confirmManualPayment(toReject.paymentId, STATEMENT_ENTRY)).rejects.toMatchObject({ reason: 'final' })
  })
})

describe('hosted-checkout callback', () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData()
    for (const [name, value] of Object.entries(fields)) data.set(name, value)
    return data
  }

  it('pays on the three signed fields and refuses a forged signature', async () => {
    quiet()
    const { started } = await startedCheckout()
    const signed = gateway.pay(started.orderId)
    await expect(
      handleCheckoutCallback(form({ ...signed, razorpay_signature: '0'.repeat(64) }), { gateway }),
    ).rejects.toMatchObject({ code: 'invalid-signature' })
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).status).toBe('CREATED')
    expect(await handleCheckoutCallback(form(signed), { gateway })).toMatchObject({
      status: 'paid',
      alreadyPaid: false,
    })
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).paidVia).toBe('callback')
  })

  it('records an unsigned failure only once the gateway confirms it', async () => {
    const { started } = await startedCheckout()
    const failedAttempt = gateway.pay(started.orderId, 'failed')
    const fakeFailure = form({
      'error[code]': 'BAD_REQUEST_ERROR',
      'error[metadata]': JSON.stringify({ order_id: started.orderId, payment_id: 'pay_invented' }),
    })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(await handleCheckoutCallback(fakeFailure, { gateway })).toEqual({
      status: 'failed',
      paymentId: started.paymentId,
    })
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).status).toBe('CREATED')

    const realFailure = form({
      'error[code]': 'BAD_REQUEST_ERROR',
      'error[description]': 'Payment failed',
      'error[metadata]': JSON.stringify({ order_id: started.orderId, payment_id: failedAttempt.razorpay_payment_id }),
    })
    await handleCheckoutCallback(realFailure, { gateway })
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).status).toBe('FAILED')
  })
})

describe('webhook raw body as bytes', () => {
  it('verifies and processes a Uint8Array body', async () => {
    const { started } = await startedCheckout()
    const signed = gateway.pay(started.orderId)
    const delivery = gateway.webhook('payment.captured', signed.razorpay_payment_id)
    expect(
      await handleWebhook(new TextEncoder().encode(delivery.rawBody), delivery.signature, { gateway }),
    ).toMatchObject({
      status: 200,
      outcome: 'processed',
    })
  })
})

describe('settle-payments job', () => {
  it('pays a captured order nobody reported and expires old manual claims', async () => {
    const { settlePayments } = await import('~/server/payments/settlement.server')
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const { started } = await startedCheckout()
    gateway.pay(started.orderId)
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const claim = await createManualPayment(userId, [equity.id])
    await settlePayments(new Date(Date.now() + RECONCILE_AFTER_MS + 1))
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).status).toBe('PAID')
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: claim.paymentId } })).status).toBe(
      'PENDING_VERIFICATION',
    )
    await settlePayments(new Date(Date.now() + 8 * MS_PER_DAY))
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: claim.paymentId } })).status).toBe('EXPIRED')
  })
})

describe('failures along the way', () => {
  it('answers pending when the gateway cannot confirm a signed payment, and pays on re-verify', async () => {
    const { started } = await startedCheckout()
    const signed = gateway.pay(started.orderId)
    const down: PaymentGateway = { ...gateway, fetchPayment: () => Promise.reject(new Error('gateway down')) }
    expect(await verifyCheckoutPayment(signed, { gateway: down })).toEqual({
      status: 'pending',
      paymentId: started.paymentId,
    })
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).status).toBe('CREATED')
    expect(await verifyCheckoutPayment(signed, { gateway, source: 'reverify' })).toMatchObject({
      status: 'paid',
    })
  })

  it('forgets a webhook event whose processing failed, so the retry is processed', async () => {
    quiet()
    const { started } = await startedCheckout()
    const signed = gateway.pay(started.orderId)
    const delivery = gateway.webhook('payment.captured', signed.razorpay_payment_id)
    const spy = vi.spyOn(prisma.payment, 'findUnique').mockRejectedValueOnce(new Error('database hiccup'))
    expect(await handleWebhook(delivery.rawBody, delivery.signature, { gateway })).toEqual({
      status: 500,
      outcome: 'error',
    })
    spy.mockRestore()
    expect(await prisma.webhookEvent.count({ where: { eventId: webhookDeliveryKey(delivery.rawBody) } })).toBe(0)
    expect(await handleWebhook(delivery.rawBody, delivery.signature, { gateway })).toEqual({
      status: 200,
      outcome: 'processed',
    })
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).status).toBe('PAID')
  })

  it(`treats repeat manual submits within MANUAL_DUPLICATE_WINDOW_MS (60 s) as one`, () => {
    expect(MANUAL_DUPLICATE_WINDOW_MS).toBe(60_000)
  })
})
