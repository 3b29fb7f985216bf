import { expect, test, type APIRequestContext } from '@playwright/test'
import { apiClient, completeProfileThroughApi, json, signInThroughApi } from './api-client'

const MS_PER_DAY = 24 * 60 * 60_000

type ServiceEntry = { _id: string; service: { _id: string; name: string; price: number; duration: number } }

/** A signed-in customer with a complete profile and a cart of two services, as SPEC's client holds it. */
async function customerWithCart(playwright: typeof import('@playwright/test')['request'], baseURL: string) {
  const { context: api, xsrf } = await apiClient(playwright, baseURL)
  await signInThroughApi(api, xsrf)
  await completeProfileThroughApi(api, xsrf)
  const entries: ServiceEntry[] = (await json(await api.get('/api/v1/services/get-available-services'))).data.data
  const cart = entries.slice(0, 2)
  const total = cart.reduce((sum, entry) => sum + entry.service.price, 0)
  return { api, xsrf, cart, total }
}

/** SPEC's create-order / manual-payment body. */
function checkoutBody(cart: ServiceEntry[], amount: number) {
  return {
    amount,
    currency: 'INR',
    receipt: 'ABCPE1234F',
    notes: { number: '+919876543210', details: JSON.stringify({ name: 'asha rao', pan: 'ABCPE1234F' }), cart: JSON.stringify(cart) },
  }
}

/** What checkout.js hands the page after paying in the sandbox (demo mode only), and optionally the webhook. */
async function sandboxPay(api: APIRequestContext, orderId: string, outcome = 'captured', webhook?: string) {
  const response = await api.post('/dev/sandbox/pay', { data: { orderId, outcome, ...(webhook ? { webhook } : {}) } })
  expect(response.status()).toBe(200)
  return (await response.json()) as {
    razorpayResponse: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string }
    webhook?: { body: string; headers: Record<string, string> }
  }
}

async function activeSubscriptions(api: APIRequestContext): Promise<{ service: string; endDate: string }[]> {
  return (await json(await api.get('/api/v1/subscriptions/get-active-subscriptions'))).data.data.activeSubscriptions
}

async function pendingPayments(api: APIRequestContext): Promise<any[]> {
  return (await json(await api.get('/api/v1/payments/pending-payments'))).data.data.payments
}

test('pay on website: create-order, checkout in the sandbox, verify, and the subscriptions are active', async ({ playwright, baseURL }) => {
  const { context: api, xsrf } = await apiClient(playwright.request, baseURL!)
  await signInThroughApi(api, xsrf)
  const entries: ServiceEntry[] = (await json(await api.get('/api/v1/services/get-available-services'))).data.data
  const cart = entries.slice(0, 2)
  const total = cart.reduce((sum, entry) => sum + entry.service.price, 0)

  const incomplete = await api.post('/api/v1/payments/create-order', { headers: xsrf, data: checkoutBody(cart, total) })
  expect(incomplete.status()).toBe(403)
  expect((await json(incomplete)).message).toBe('Complete your details before paying: your name, e-mail, date of birth and PAN is missing.')
  await completeProfileThroughApi(api, xsrf)

  const tampered = await api.post('/api/v1/payments/create-order', { headers: xsrf, data: checkoutBody(cart, 1) })
  expect(tampered.status()).toBe(409)
  expect(await json(tampered)).toEqual({ message: expect.stringMatching(/^The prices in your cart have changed/), amount: total })
  expect(await pendingPayments(api)).toEqual([])

  const created = await api.post('/api/v1/payments/create-order', { headers: xsrf, data: checkoutBody(cart, total) })
  expect(created.status()).toBe(200)
  const { order, key } = (await json(created)).data.data
  expect(order).toEqual({ id: expect.stringMatching(/^order_/), amount: Math.round(total * 100), currency: 'INR' })
  expect(key).toBe('rzp_test_sandbox')
  const [open] = await pendingPayments(api)
  expect(open).toMatchObject({ paymentMethod: 'razorpay', razorpayObject: { amount: Math.round(total * 100) } })

  const paid = await sandboxPay(api, order.id)
  const forged = { ...paid.razorpayResponse, razorpay_signature: '0'.repeat(64) }
  const refused = await api.post('/api/v1/payments/verify-payment', { headers: xsrf, data: { razorpayResponse: forged } })
  expect(refused.status()).toBe(400)
  expect((await json(refused)).message).toBe('Error verifying payment')
  expect((await api.post('/api/v1/payments/re-verify-payment', { headers: xsrf, data: { razorpayResponse: forged } })).status()).toBe(400)
  expect(await activeSubscriptions(api)).toEqual([])

  const before = Date.now()
  const verified = await api.post('/api/v1/payments/verify-payment', { headers: xsrf, data: { razorpayResponse: paid.razorpayResponse } })
  const after = Date.now()
  expect(verified.status()).toBe(200)
  expect((await json(verified)).data.status).toBe('paid')
  expect((await api.post('/api/v1/payments/re-verify-payment', { headers: xsrf, data: { razorpayResponse: paid.razorpayResponse } })).status()).toBe(200)

  const active = await activeSubscriptions(api)
  expect(active.map((subscription) => subscription.service).sort()).toEqual(cart.map((entry) => entry.service._id).sort())
  for (const entry of cart) {
    const endDate = Date.parse(active.find((subscription) => subscription.service === entry.service._id)!.endDate)
    expect(endDate).toBeGreaterThanOrEqual(before + entry.service.duration * MS_PER_DAY - 1000)
    expect(endDate).toBeLessThanOrEqual(after + entry.service.duration * MS_PER_DAY)
  }
  expect(await pendingPayments(api)).toEqual([])
  await api.dispose()
})

test('manual payment: the amount is checked, a double submit is one claim, and it is pending with its cart', async ({ playwright, baseURL }) => {
  const { api, xsrf, cart, total } = await customerWithCart(playwright.request, baseURL!)
  const tampered = await api.post('/api/v1/payments/manual-payment', { headers: xsrf, data: checkoutBody(cart, total + 1) })
  expect(tampered.status()).toBe(409)
  expect((await json(tampered)).amount).toBe(total)

  const first = await api.post('/api/v1/payments/manual-payment', { headers: xsrf, data: checkoutBody(cart, total) })
  expect(first.status()).toBe(200)
  const { paymentId } = (await json(first)).data
  const again = await api.post('/api/v1/payments/manual-payment', { headers: xsrf, data: checkoutBody(cart, total) })
  expect(again.status()).toBe(200)
  expect((await json(again)).data.paymentId).toBe(paymentId)

  const pending = await pendingPayments(api)
  expect(pending).toHaveLength(1)
  expect(pending[0]).toMatchObject({ _id: paymentId, paymentMethod: 'manual', manualObject: { amount: Math.round(total * 100) } })
  expect(JSON.parse(pending[0].manualObject.notes.cart)).toEqual(
    cart.map((entry) => ({ _id: entry._id, service: { _id: entry.service._id, name: entry.service.name, price: entry.service.price, duration: entry.service.duration } })),
  )
  expect(await activeSubscriptions(api)).toEqual([])
  await api.dispose()
})

test('a checkout that fails, is closed, or is only authorised pays nothing', async ({ playwright, baseURL }) => {
  const { api, xsrf, cart, total } = await customerWithCart(playwright.request, baseURL!)
  const createOrder = async () => (await json(await api.post('/api/v1/payments/create-order', { headers: xsrf, data: checkoutBody(cart, total) }))).data.data.order

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
  expect((await api.post('/api/v1/payments/failed-payment', { headers: xsrf, data: { response: {} } })).status()).toBe(400)

  const closing = await createOrder()
  expect(closing.id).not.toBe(failing.id)
  const cancelled = await api.post('/api/v1/payments/cancel-payment', { headers: xsrf, data: { orderId: closing.id } })
  expect(cancelled.status()).toBe(200)
  expect((await json(cancelled)).data.cancelled).toBe(true)
  expect(await pendingPayments(api)).toEqual([])

  const authorising = await createOrder()
  const authorised = await sandboxPay(api, authorising.id, 'authorized')
  const verify = await api.post('/api/v1/payments/verify-payment', { headers: xsrf, data: { razorpayResponse: authorised.razorpayResponse } })
  expect(verify.status()).toBe(202)
  expect((await api.post('/api/v1/payments/re-verify-payment', { headers: xsrf, data: { razorpayResponse: authorised.razorpayResponse } })).status()).toBe(202)
  expect(await activeSubscriptions(api)).toEqual([])
  expect((await pendingPayments(api)).map((payment) => payment.razorpayObject?.amount)).toEqual([Math.round(total * 100)])
  await api.dispose()
})

test('webhooks: a bad signature changes nothing, the same delivery twice pays once, and no Origin is needed', async ({ playwright, baseURL }) => {
  const { api, xsrf, cart, total } = await customerWithCart(playwright.request, baseURL!)
  const { order } = (await json(await api.post('/api/v1/payments/create-order', { headers: xsrf, data: checkoutBody(cart, total) }))).data.data
  const { webhook } = await sandboxPay(api, order.id, 'captured', 'payment.captured')

  // Razorpay's servers send no Origin, no cookies and no XSRF header.
  const server = await playwright.request.newContext({ baseURL: baseURL! })
  const badSignature = await server.post('/webhooks/razorpay', { headers: { ...webhook!.headers, 'x-razorpay-signature': 'f'.repeat(64) }, data: webhook!.body })
  expect(badSignature.status()).toBe(400)
  expect(await activeSubscriptions(api)).toEqual([])
  const crossSite = await server.post('/webhooks/razorpay', { headers: { ...webhook!.headers, Origin: 'https://evil.example' }, data: webhook!.body })
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
