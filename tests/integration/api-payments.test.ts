import { afterEach, describe, expect, it, vi } from 'vitest'
import { PAYMENT_START_FAILED_MESSAGE, PAYMENT_VERIFY_FAILED_MESSAGE } from '~/domain/gateway-checkout'
import * as createOrder from '~/routes/api.v1/payments.create-order'
import * as verifyPayment from '~/routes/api.v1/payments.verify-payment'
import * as reVerifyPayment from '~/routes/api.v1/payments.re-verify-payment'
import { prisma } from '~/server/db.server'
import { startGatewayPayment } from '~/server/payments/checkout.server'
import { GatewayError } from '~/server/payments/gateway/razorpay.server'
import { paymentGateway } from '~/server/payments/gateway/choice.server'
import { sandboxGateway } from '~/demo/razorpay-sandbox.server'
import { createService } from '../support/payment-fixtures'
import { jsonRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

const gateway = sandboxGateway()
/** The existing clients' create-order body for a cart of service ids, with the total the client showed (rupees). */
const checkoutBody = (ids: string[], amount: number) => ({
  amount,
  currency: 'INR',
  receipt: 'ABCPE1234F',
  notes: { number: '+919876543210', details: '{}', cart: JSON.stringify(ids) },
})

afterEach(() => {
  vi.restoreAllMocks()
})

describe('POST /api/v1/payments/create-order', () => {
  it('prices notes.cart on the server: a wrong amount is 409 with the right one in rupees, the right one opens an order', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const equity = await createService('Equity', 299_900, 30)
    const swing = await createService('Swing', 149_950, 90)
    const cart = JSON.stringify([{ _id: equity.id, service: { _id: equity.id, price: 1 } }, swing.id])
    const body = (amount: number) => ({
      amount,
      currency: 'INR',
      receipt: 'ABCPE1234F',
      notes: { number: '+919876543210', details: '{}', cart },
    })

    const tampered = await createOrder.action(routeArgs(jsonRequest('/api/v1/payments/create-order', body(2), cookie)))
    expect(tampered.status).toBe(409)
    expect(await tampered.json()).toMatchObject({ amount: 4498.5 })
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)

    const created = await createOrder.action(
      routeArgs(jsonRequest('/api/v1/payments/create-order', body(4498.5), cookie)),
    )
    expect(created.status).toBe(200)
    const { order, key } = (await created.json()).data.data
    expect(order).toMatchObject({ amount: 449_850, currency: 'INR' })
    expect(key).toBe(gateway.keyId)
    expect(
      await prisma.payment.findMany({ where: { userId }, select: { gatewayOrderId: true, amountPaise: true } }),
    ).toEqual([{ gatewayOrderId: order.id, amountPaise: 449_850 }])
  })

  it('refuses an incomplete profile with 403', async () => {
    const { cookie } = await signedInUser()
    const refused = await createOrder.action(
      routeArgs(jsonRequest('/api/v1/payments/create-order', { amount: 1, notes: { cart: '[]' } }, cookie)),
    )
    expect(refused.status).toBe(403)
  })
})

describe('POST /api/v1/payments/create-order refusals', () => {
  it('answers 409 with droppedIds for a service taken off sale, and creates nothing', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const equity = await createService('Equity', 299_900, 30)
    const retired = await createService('Retired', 99_900, 30, false)

    const refused = await createOrder.action(
      routeArgs(jsonRequest('/api/v1/payments/create-order', checkoutBody([equity.id, retired.id], 3998), cookie)),
    )
    expect(refused.status).toBe(409)
    expect(await refused.json()).toEqual({
      message: `Some services in your cart are no longer available: ${retired.name}. They have been removed from your cart; please review it and try again.`,
      droppedIds: [retired.id],
    })
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)
  })

  it('answers 400 for an empty cart', async () => {
    const { cookie } = await signedInUser({ completeProfile: true })
    const refused = await createOrder.action(
      routeArgs(jsonRequest('/api/v1/payments/create-order', checkoutBody([], 1), cookie)),
    )
    expect(refused.status).toBe(400)
    expect(await refused.json()).toEqual({ message: 'Your cart is empty. Choose at least one service.' })
  })

  it("answers 503 with 'Error initiating payment. Please try again.' when the gateway fails, and leaves no payment behind", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    vi.spyOn(paymentGateway(), 'createOrder').mockRejectedValueOnce(
      new GatewayError('Razorpay order creation failed: socket hang up', true),
    )
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const equity = await createService('Equity', 299_900, 30)

    const refused = await createOrder.action(
      routeArgs(jsonRequest('/api/v1/payments/create-order', checkoutBody([equity.id], 2999), cookie)),
    )
    expect(refused.status).toBe(503)
    expect(await refused.json()).toEqual({ message: PAYMENT_START_FAILED_MESSAGE })
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)
  })
})

describe('POST /api/v1/payments/verify-payment and re-verify-payment', () => {
  it("answer an unknown order and another customer's order as they answer a bad signature: 400, so order ids cannot be probed", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const owner = await signedInUser({ completeProfile: true })
    const equity = await createService('Equity', 299_900, 30)
    const started = await startGatewayPayment(owner.userId, [equity.id], { gateway })
    const paid = gateway.pay(started.orderId, 'captured')
    const stranger = await signedInUser({ completeProfile: true })

    const attempts = {
      'a bad signature': { cookie: owner.cookie, razorpayResponse: { ...paid, razorpay_signature: '0'.repeat(64) } },
      'an unknown order': {
        cookie: owner.cookie,
        razorpayResponse: { ...paid, razorpay_order_id: 'order_unknown0000' },
      },
      "another customer's order": { cookie: stranger.cookie, razorpayResponse: paid },
    }
    for (const route of [verifyPayment, reVerifyPayment]) {
      for (const [what, { cookie, razorpayResponse }] of Object.entries(attempts)) {
        const response = await route.action(
          routeArgs(jsonRequest('/api/v1/payments/verify-payment', { razorpayResponse }, cookie)),
        )
        expect(response.status, what).toBe(400)
        expect(await response.json(), what).toEqual({ message: PAYMENT_VERIFY_FAILED_MESSAGE })
      }
    }
    expect(
      await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId }, select: { status: true } }),
    ).toEqual({ status: 'CREATED' })

    const verified = await verifyPayment.action(
      routeArgs(jsonRequest('/api/v1/payments/verify-payment', { razorpayResponse: paid }, owner.cookie)),
    )
    expect(verified.status).toBe(200)
  })
})
