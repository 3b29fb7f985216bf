import { expect, test } from '@playwright/test'
import {
  activeSubscriptions,
  apiClient,
  availableServices,
  cartTotal,
  checkoutBody,
  completeProfileThroughApi,
  customerWithCart,
  expectJsonError,
  json,
  pendingPayments,
  sandboxPay,
} from './api-client'

const MS_PER_DAY = 24 * 60 * 60_000

test('create-order, manual-payment and verify-payment refuse what they must, and an order is paid once', async ({
  playwright,
  baseURL,
}) => {
  const { context: api, xsrf } = await apiClient(playwright.request, baseURL!, { role: 'CUSTOMER' })
  const cart = (await availableServices(api)).slice(0, 2)
  const total = cartTotal(cart)

  const missingDetails = 'Complete your details before paying: your name, e-mail, date of birth and PAN is missing.'
  for (const path of ['/api/v1/payments/create-order', '/api/v1/payments/manual-payment']) {
    await expectJsonError(await api.post(path, { headers: xsrf, data: checkoutBody(cart, total) }), 403, missingDetails)
  }
  await completeProfileThroughApi(api, xsrf)

  for (const path of ['/api/v1/payments/create-order', '/api/v1/payments/manual-payment']) {
    const noAmount = await expectJsonError(
      await api.post(path, { headers: xsrf, data: { notes: { cart: '[]' } } }),
      400,
      'Some fields are not valid.',
    )
    expect(noAmount.errors).toEqual({ amount: ['Send amount: the cart total in rupees.'] })
    const badCart = await expectJsonError(
      await api.post(path, { headers: xsrf, data: { amount: 1, notes: { cart: 'everything' } } }),
      400,
    )
    expect(Object.keys(badCart.errors)).toEqual(['notes'])
    await expectJsonError(
      await api.post(path, { headers: xsrf, data: checkoutBody([], 1) }),
      400,
      'Your cart is empty. Choose at least one service.',
    )
    const tampered = await expectJsonError(
      await api.post(path, { headers: xsrf, data: checkoutBody(cart, total + 1) }),
      409,
      /^The prices in your cart have changed/,
    )
    expect(tampered.amount).toBe(total)
  }
  expect(await pendingPayments(api)).toEqual([])

  const { order } = (
    await json(await api.post('/api/v1/payments/create-order', { headers: xsrf, data: checkoutBody(cart, total) }))
  ).data.data
  expect(await pendingPayments(api)).toEqual([
    {
      _id: expect.any(String),
      paymentMethod: 'razorpay',
      razorpayObject: { amount: total * 100, currency: 'INR', notes: { cart: expect.any(String) } },
      createdAt: expect.any(String),
      expiresAt: null,
      state: 'being-confirmed',
    },
  ])

  const paid = await sandboxPay(api, order.id)
  const forged = { ...paid.razorpayResponse, razorpay_signature: '0'.repeat(64) }
  const unknownOrder = { ...paid.razorpayResponse, razorpay_order_id: 'order_NotOurs00000001' }
  for (const path of ['/api/v1/payments/verify-payment', '/api/v1/payments/re-verify-payment']) {
    for (const razorpayResponse of [forged, unknownOrder]) {
      await expectJsonError(
        await api.post(path, { headers: xsrf, data: { razorpayResponse } }),
        400,
        'Error verifying payment',
      )
    }
    const incomplete = await expectJsonError(
      await api.post(path, { headers: xsrf, data: { razorpayResponse: { razorpay_order_id: order.id } } }),
      400,
    )
    expect(Object.keys(incomplete.errors)).toEqual(['razorpayResponse'])
  }
  expect(await activeSubscriptions(api)).toEqual([])

  const before = Date.now()
  const verified = await api.post('/api/v1/payments/verify-payment', {
    headers: xsrf,
    data: { razorpayResponse: paid.razorpayResponse },
  })
  const after = Date.now()
  expect((await json(verified)).data).toEqual({ paymentId: expect.any(String), status: 'paid' })
  const again = await api.post('/api/v1/payments/re-verify-payment', {
    headers: xsrf,
    data: { razorpayResponse: paid.razorpayResponse },
  })
  expect(again.status()).toBe(200)

  // Paid once: each end is one duration from the payment, not two chained ones.
  const active = await activeSubscriptions(api)
  expect(active.map((subscription) => subscription.service).sort()).toEqual(
    cart.map((entry) => entry.service._id).sort(),
  )
  for (const entry of cart) {
    const endDate = Date.parse(active.find((subscription) => subscription.service === entry.service._id)!.endDate)
    expect(endDate).toBeGreaterThanOrEqual(before + entry.service.duration * MS_PER_DAY - 1000)
    expect(endDate).toBeLessThanOrEqual(after + entry.service.duration * MS_PER_DAY)
  }
  expect(await pendingPayments(api)).toEqual([])
  await api.dispose()
})

test('manual payment: a double submit is one claim, pending with its cart at the prices paid', async ({
  playwright,
  baseURL,
}) => {
  const { api, xsrf, cart, total } = await customerWithCart(playwright.request, baseURL!)
  const badName = await api.post('/api/v1/payments/manual-payment', {
    headers: xsrf,
    data: { ...checkoutBody(cart, total), payerAccountName: 'A' },
  })
  expect(badName.status()).toBe(400)
  expect(JSON.stringify(await json(badName))).toContain("account holder's name")
  const first = await api.post('/api/v1/payments/manual-payment', {
    headers: xsrf,
    data: { ...checkoutBody(cart, total), payerAccountName: 'Asha Rao' },
  })
  expect(first.status()).toBe(200)
  const { paymentId } = (await json(first)).data
  const again = await api.post('/api/v1/payments/manual-payment', { headers: xsrf, data: checkoutBody(cart, total) })
  expect(again.status()).toBe(200)
  expect((await json(again)).data.paymentId).toBe(paymentId)

  const pending = await pendingPayments(api)
  expect(pending).toHaveLength(1)
  expect(pending[0]).toMatchObject({
    _id: paymentId,
    paymentMethod: 'manual',
    manualObject: { amount: Math.round(total * 100) },
    state: 'awaiting-verification',
  })
  expect(JSON.parse(pending[0].manualObject.notes.cart)).toEqual(
    cart.map((entry) => ({
      _id: entry._id,
      service: {
        _id: entry.service._id,
        name: entry.service.name,
        price: entry.service.price,
        duration: entry.service.duration,
      },
    })),
  )
  expect(await activeSubscriptions(api)).toEqual([])
  await api.dispose()
})

test('a checkout that fails, is closed, or is only authorised pays nothing', async ({ playwright, baseURL }) => {
  const { api, xsrf, cart, total } = await customerWithCart(playwright.request, baseURL!)
  const createOrder = async () =>
    (await json(await api.post('/api/v1/payments/create-order', { headers: xsrf, data: checkoutBody(cart, total) })))
      .data.data.order

  const failing = await createOrder()
  const failure = await sandboxPay(api, failing.id, 'failed')
  const response = {
    code: 'BAD_REQUEST_ERROR',
    description: 'Payment failed',
    source: 'bank',
    step: 'payment_authorization',
    reason: 'payment_failed',
    metadata: { order_id: failing.id, payment_id: failure.razorpayResponse.razorpay_payment_id },
  }
  const recorded = await api.post('/api/v1/payments/failed-payment', { headers: xsrf, data: { response } })
  expect(recorded.status()).toBe(200)
  expect((await json(recorded)).data.recorded).toBe(true)
  await expectJsonError(
    await api.post('/api/v1/payments/failed-payment', { headers: xsrf, data: { response: {} } }),
    400,
    /metadata\.order_id/,
  )

  const noOrder = await expectJsonError(
    await api.post('/api/v1/payments/cancel-payment', { headers: xsrf, data: {} }),
    400,
    'Some fields are not valid.',
  )
  expect(Object.keys(noOrder.errors)).toEqual(['orderId'])
  const closing = await createOrder()
  expect(closing.id).not.toBe(failing.id)
  const cancelled = await api.post('/api/v1/payments/cancel-payment', { headers: xsrf, data: { orderId: closing.id } })
  expect(cancelled.status()).toBe(200)
  expect((await json(cancelled)).data.cancelled).toBe(true)
  expect(await pendingPayments(api)).toEqual([])

  const authorising = await createOrder()
  const authorised = await sandboxPay(api, authorising.id, 'authorized')
  const verify = await api.post('/api/v1/payments/verify-payment', {
    headers: xsrf,
    data: { razorpayResponse: authorised.razorpayResponse },
  })
  expect(verify.status()).toBe(202)
  expect(
    (
      await api.post('/api/v1/payments/re-verify-payment', {
        headers: xsrf,
        data: { razorpayResponse: authorised.razorpayResponse },
      })
    ).status(),
  ).toBe(202)
  expect(await activeSubscriptions(api)).toEqual([])
  expect((await pendingPayments(api)).map((payment) => payment.razorpayObject?.amount)).toEqual([
    Math.round(total * 100),
  ])
  await api.dispose()
})

test('webhooks: a bad signature changes nothing, the same delivery twice pays once, and no Origin is needed', async ({
  playwright,
  baseURL,
}) => {
  const { api, xsrf, cart, total } = await customerWithCart(playwright.request, baseURL!)
  const { order } = (
    await json(await api.post('/api/v1/payments/create-order', { headers: xsrf, data: checkoutBody(cart, total) }))
  ).data.data
  const { webhook } = await sandboxPay(api, order.id, 'captured', 'payment.captured')

  // Razorpay's servers send no Origin, no cookies and no XSRF header.
  const server = await playwright.request.newContext({ baseURL: baseURL! })
  const badSignature = await server.post('/webhooks/razorpay', {
    headers: { ...webhook!.headers, 'x-razorpay-signature': 'f'.repeat(64) },
    data: webhook!.body,
  })
  expect(badSignature.status()).toBe(400)
  expect(await activeSubscriptions(api)).toEqual([])
  const crossSite = await server.post('/webhooks/razorpay', {
    headers: { ...webhook!.headers, Origin: 'https://evil.example' },
    data: webhook!.body,
  })
  expect(crossSite.status()).toBe(403)

  const first = await server.post('/webhooks/razorpay', { headers: webhook!.headers, data: webhook!.body })
  expect(first.status()).toBe(200)
  expect(await first.json()).toEqual({ outcome: 'processed' })
  const before = Date.now()
  const second = await server.post('/webhooks/razorpay', { headers: webhook!.headers, data: webhook!.body })
  expect(second.status()).toBe(200)
  expect(await second.json()).toEqual({ outcome: 'duplicate' })

  const active = await activeSubscriptions(api)
  expect(active).toHaveLength(cart.length)
  for (const entry of cart) {
    // Paid once: one duration from the payment, not two chained ones.
    const endDate = Date.parse(active.find((subscription) => subscription.service === entry.service._id)!.endDate)
    expect(endDate).toBeLessThanOrEqual(before + entry.service.duration * MS_PER_DAY)
  }
  expect(await pendingPayments(api)).toEqual([])
  await server.dispose()
  await api.dispose()
})
