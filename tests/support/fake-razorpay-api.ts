import { http, HttpResponse } from 'msw'
import { setupServer, type SetupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'

// Razorpay's SDK has no base-URL option: MSW's Node interceptor answers for api.razorpay.com in the
// test process, no network involved. Each test states the answers it needs with `server.use(...)`.
// (The sandbox gateway's own fake API is tested in razorpay-sandbox.test.ts.)

export const RAZORPAY_API = 'https://api.razorpay.com/v1'

/** Keys for `razorpayGateway(...)` against the fake API; a short timeout, so a test of one is quick. */
export const TEST_RAZORPAY_SETTINGS = {
  keyId: 'rzp_test_abc123',
  keySecret: 'key-secret-1',
  webhookSecret: 'webhook-secret-1',
  timeoutMs: 300,
}

/**
 * The fake API for the calling test file: listening from its first test, any request no handler
 * answers failing the test, each test's handlers dropped after it.
 */
export function fakeRazorpayApi(): SetupServer {
  const server = setupServer()
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterEach(() => server.resetHandlers())
  afterAll(() => server.close())
  return server
}

/** Razorpay's error answer: `{ error: { code, description, ... } }` with an HTTP status. */
export function razorpayError(status: number, error: { code: string; description: string; field?: string }) {
  return HttpResponse.json({ error }, { status })
}

/** Razorpay's 500, as its API answers when it is down. */
export const razorpayServerError = () =>
  razorpayError(500, { code: 'SERVER_ERROR', description: 'The server encountered an error.' })

/** A handler creating orders as Razorpay does, echoing the amount and receipt under `id`. */
export const createsOrder = (id: string) =>
  http.post(`${RAZORPAY_API}/orders`, async ({ request }) => {
    const body = (await request.json()) as { amount: number; receipt: string }
    return HttpResponse.json({
      id,
      entity: 'order',
      amount: body.amount,
      currency: 'INR',
      receipt: body.receipt,
      status: 'created',
    })
  })
