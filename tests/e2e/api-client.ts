import { randomInt } from 'node:crypto'
import { expect, type APIRequestContext, type APIResponse, type request as playwrightRequest } from '@playwright/test'
import { ASHA_RAO, PNG_1X1, uniquePan } from '../support/sample-customer'
import type { SignedInUserOptions } from '../support/sessions'
import { createSignedInUser } from './fixtures'
import { latestCode } from './sign-in-helpers'

export { PNG_1X1 }

export type ServiceEntry = {
  _id: string
  service: {
    _id: string
    name: string
    description: string[]
    price: number
    duration: number
    riskLevel?: string
    riskLevelLabel?: string
    delivery?: string
  }
}
export type RazorpayResponse = { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string }

type Playwright = typeof playwrightRequest

/** A JSON answer: the specs read its fields as docs/api.md names them, whatever the call. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- many shapes, each read field by field
type JsonAnswer = any

/**
 * An API client as the existing clients behave: cookies kept, the XSRF cookie echoed in a header.
 * With `signedInAs`, it holds the session of a new user made directly in the server's database
 * (tests/e2e/fixtures.ts), as if it had signed in through the OTP calls; `phone` is theirs.
 */
export async function apiClient(playwright: Playwright, baseURL: string, signedInAs?: SignedInUserOptions) {
  const person = signedInAs ? await createSignedInUser(signedInAs) : undefined
  const context = await playwright.newContext({
    baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` },
    storageState: person && { cookies: [sessionCookieFor(baseURL, person.cookie)], origins: [] },
  })
  await context.get('/api/v1/services/get-available-services')
  const token = (await context.storageState()).cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value
  expect(token, 'the API sets an XSRF-TOKEN cookie').toBeTruthy()
  return { context, xsrf: { 'X-XSRF-TOKEN': token! }, phone: person?.phone ?? null }
}

/** A `name=value` session cookie as a request context's stored cookie for `baseURL`. */
function sessionCookieFor(baseURL: string, cookie: string) {
  const separator = cookie.indexOf('=')
  return {
    name: cookie.slice(0, separator),
    value: cookie.slice(separator + 1),
    domain: new URL(baseURL).hostname,
    path: '/',
    expires: -1,
    httpOnly: true,
    secure: false,
    sameSite: 'Lax' as const,
  }
}

export async function json(response: APIResponse): Promise<JsonAnswer> {
  expect(response.headers()['content-type']).toMatch(/^application\/json/)
  return response.json()
}

/** The API's error answer: `status`, JSON `{ message }` (plus `errors` on some 400s), never HTML. */
export async function expectJsonError(
  response: APIResponse,
  status: number,
  message?: string | RegExp,
): Promise<JsonAnswer> {
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

export const PROFILE_DETAILS = ASHA_RAO

/** The wizard's three steps through the API: details, PAN card, agreement. */
export async function completeProfileThroughApi(api: APIRequestContext, xsrf: Record<string, string>): Promise<void> {
  const details = { ...PROFILE_DETAILS, pan: uniquePan() }
  expect((await api.post('/api/v1/users/set-details', { headers: xsrf, data: details })).status()).toBe(200)
  const card = await api.post('/api/v1/users/set-pancard', {
    headers: xsrf,
    multipart: { pancard: { name: 'pan.png', mimeType: 'image/png', buffer: PNG_1X1 } },
  })
  expect(card.status()).toBe(200)
  expect(
    (
      await api.post('/api/v1/users/set-agreement', {
        headers: xsrf,
        data: { documents: await agreementDocuments(api) },
      })
    ).status(),
  ).toBe(200)
}

/** Every onboarding document by its current version, from GET /api/v1/agreement: what set-agreement takes. */
export async function agreementDocuments(api: APIRequestContext): Promise<Record<string, string>> {
  const { documents } = (await json(await api.get('/api/v1/agreement'))).data as {
    documents: { kind: string; version: string }[]
  }
  return Object.fromEntries(documents.map((document) => [document.kind, document.version]))
}

/** A signed-in customer with a complete profile and a cart of two services, as the existing clients hold it. */
export async function customerWithCart(playwright: Playwright, baseURL: string) {
  const { context: api, xsrf } = await apiClient(playwright, baseURL, { completeProfile: true })
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

export async function pendingPayments(api: APIRequestContext): Promise<JsonAnswer[]> {
  return (await json(await api.get('/api/v1/payments/pending-payments'))).data.data.payments
}
