import { randomInt } from 'node:crypto'
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test'
import { latestCode, uniqueMobile } from './sign-in-helpers'

export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)

export type ServiceEntry = {
  _id: string
  service: { _id: string; name: string; description: string[]; price: number; duration: number }
}
export type RazorpayResponse = { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string }

type Playwright = (typeof import('@playwright/test'))['request']

/** An API client as the existing clients behave: cookies kept, the XSRF cookie echoed in a header. */
export async function apiClient(playwright: Playwright, baseURL: string) {
  const context = await playwright.newContext({
    baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` },
  })
  await context.get('/api/v1/services/get-available-services')
  const token = (await context.storageState()).cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value
  expect(token, 'the API sets an XSRF-TOKEN cookie').toBeTruthy()
  return { context, xsrf: { 'X-XSRF-TOKEN': token! } }
}

export async function json(response: APIResponse): Promise<any> {
  expect(response.headers()['content-type']).toMatch(/^application\/json/)
  return response.json()
}

/** The API's error answer: `status`, JSON `{ message }` (plus `errors` on some 400s), never HTML. */
export async function expectJsonError(response: APIResponse, status: number, message?: string | RegExp): Promise<any> {
  expect(response.status(), `${response.url()} answered ${await response.text()}`).toBe(status)
  const body = await json(response)
  expect(body.message).toEqual(
    typeof message === 'string' ? message : message ? expect.stringMatching(message) : expect.any(String),
  )
  expect(JSON.stringify(body)).not.toMatch(/\bat .+:\d+:\d+/)
  return body
}

/** The 6-digit code the dev outbox holds for `number`, after asking for one. */
export async function requestCode(
  api: APIRequestContext,
  xsrf: Record<string, string>,
  number: string,
): Promise<string> {
  expect((await api.post('/api/v1/otp/request', { headers: xsrf, data: { number } })).status()).toBe(200)
  return latestCode(api, number)
}

/** Signs in a new number through the OTP calls; returns the number. */
export async function signInThroughApi(api: APIRequestContext, xsrf: Record<string, string>): Promise<string> {
  const number = `+91${uniqueMobile()}`
  const otp = await requestCode(api, xsrf, number)
  expect((await api.post('/api/v1/otp/verify', { headers: xsrf, data: { number, otp } })).status()).toBe(200)
  return number
}

export const PROFILE_DETAILS = { name: 'Asha Rao', email: 'asha@example.in', dob: '2001-05-17', pan: 'ABCPE1234F' }

/** The wizard's three steps through the API: details, PAN card, agreement. */
export async function completeProfileThroughApi(api: APIRequestContext, xsrf: Record<string, string>): Promise<void> {
  expect((await api.post('/api/v1/users/set-details', { headers: xsrf, data: PROFILE_DETAILS })).status()).toBe(200)
  const card = await api.post('/api/v1/users/set-pancard', {
    headers: xsrf,
    multipart: { pancard: { name: 'pan.png', mimeType: 'image/png', buffer: PNG_1X1 } },
  })
  expect(card.status()).toBe(200)
  expect((await api.post('/api/v1/users/set-agreement', { headers: xsrf })).status()).toBe(200)
}

/** A signed-in customer with a complete profile and a cart of two services, as the existing clients hold it. */
export async function customerWithCart(playwright: Playwright, baseURL: string) {
  const { context: api, xsrf } = await apiClient(playwright, baseURL)
  await signInThroughApi(api, xsrf)
  await completeProfileThroughApi(api, xsrf)
  const cart = (await availableServices(api)).slice(0, 2)
  return { api, xsrf, cart, total: cartTotal(cart) }
}

export async function availableServices(api: APIRequestContext): Promise<ServiceEntry[]> {
  return (await json(await api.get('/api/v1/services/get-available-services'))).data.data
}

export const cartTotal = (cart: ServiceEntry[]) => cart.reduce((sum, entry) => sum + entry.service.price, 0)

/** The existing clients' create-order / manual-payment body: the cart as JSON text, its total in rupees. */
export function checkoutBody(cart: ServiceEntry[], amount: number) {
  return {
    amount,
    currency: 'INR',
    receipt: 'ABCPE1234F',
    notes: {
      number: '+919876543210',
      details: JSON.stringify({ name: 'asha rao', pan: 'ABCPE1234F' }),
      cart: JSON.stringify(cart),
    },
  }
}

/** What checkout.js hands the page after paying in the sandbox (demo mode only), and optionally the webhook. */
export async function sandboxPay(api: APIRequestContext, orderId: string, outcome = 'captured', webhook?: string) {
  const response = await api.post('/dev/sandbox/pay', { data: { orderId, outcome, ...(webhook ? { webhook } : {}) } })
  expect(response.status()).toBe(200)
  return (await response.json()) as {
    razorpayResponse: RazorpayResponse
    webhook?: { body: string; headers: Record<string, string> }
  }
}

export async function activeSubscriptions(api: APIRequestContext): Promise<{ service: string; endDate: string }[]> {
  return (await json(await api.get('/api/v1/subscriptions/get-active-subscriptions'))).data.data.activeSubscriptions
}

export async function pendingPayments(api: APIRequestContext): Promise<any[]> {
  return (await json(await api.get('/api/v1/payments/pending-payments'))).data.data.payments
}
