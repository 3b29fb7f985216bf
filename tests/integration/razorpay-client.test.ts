import { captureLogLines } from '~/server/operations/logger.server'
import { delay, http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi, onTestFinished } from 'vitest'
import { GatewayError, razorpayGateway } from '~/server/payments/gateway/razorpay.server'
import {
  fakeRazorpayApi,
  RAZORPAY_API,
  razorpayError,
  razorpayServerError,
  TEST_RAZORPAY_SETTINGS,
} from '../support/fake-razorpay-api'

const server = fakeRazorpayApi()
afterEach(() => {
  vi.restoreAllMocks()
})

const gateway = razorpayGateway(TEST_RAZORPAY_SETTINGS)

const paymentEntity = (overrides: Record<string, unknown> = {}) => ({
  id: 'pay_1',
  entity: 'payment',
  amount: 299_900,
  currency: 'INR',
  status: 'captured',
  order_id: 'order_1',
  error_description: null,
  method: 'upi',
  ...overrides,
})

describe('Razorpay client against a local fake API', () => {
  it('creates an order with Basic auth, integer paise, INR, our receipt and notes', async () => {
    let seen: { auth: string | null; body: unknown } | undefined
    server.use(
      http.post(`${RAZORPAY_API}/orders`, async ({ request }) => {
        seen = { auth: request.headers.get('authorization'), body: await request.json() }
        return HttpResponse.json({
          id: 'order_R1',
          entity: 'order',
          amount: 299_900,
          currency: 'INR',
          receipt: 'p-1',
          status: 'created',
          notes: { paymentId: 'p-1' },
        })
      }),
    )
    const order = await gateway.createOrder({ amountPaise: 299_900, receipt: 'p-1', notes: { paymentId: 'p-1' } })
    expect(order).toEqual({ id: 'order_R1', amountPaise: 299_900, currency: 'INR', receipt: 'p-1', status: 'created' })
    expect(seen?.auth).toBe(`Basic ${Buffer.from('rzp_test_abc123:key-secret-1').toString('base64')}`)
    expect(seen?.body).toEqual({ amount: 299_900, currency: 'INR', receipt: 'p-1', notes: { paymentId: 'p-1' } })
  })

  it("fetches an order's payments and a payment", async () => {
    server.use(
      http.get(`${RAZORPAY_API}/orders/order_1/payments`, () =>
        HttpResponse.json({
          entity: 'collection',
          count: 2,
          items: [
            paymentEntity({ id: 'pay_0', status: 'failed', error_description: 'Payment failed' }),
            paymentEntity(),
          ],
        }),
      ),
      http.get(`${RAZORPAY_API}/payments/pay_1`, () => HttpResponse.json(paymentEntity())),
    )
    expect(await gateway.fetchOrderPayments('order_1')).toEqual([
      {
        id: 'pay_0',
        orderId: 'order_1',
        amountPaise: 299_900,
        currency: 'INR',
        status: 'failed',
        errorDescription: 'Payment failed',
        method: 'upi',
      },
      {
        id: 'pay_1',
        orderId: 'order_1',
        amountPaise: 299_900,
        currency: 'INR',
        status: 'captured',
        errorDescription: null,
        method: 'upi',
      },
    ])
    expect(await gateway.fetchPayment('pay_1')).toMatchObject({ id: 'pay_1', status: 'captured' })
  })

  it('turns a 400 into a final GatewayError with its description and logs one line', async () => {
    const log = captureLogLines()
    onTestFinished(log.stop)
    server.use(
      http.post(`${RAZORPAY_API}/orders`, () =>
        razorpayError(400, {
          code: 'BAD_REQUEST_ERROR',
          description: 'The amount must be at least INR 1.00',
          field: 'amount',
        }),
      ),
    )
    const error = await gateway
      .createOrder({ amountPaise: 50, receipt: 'p', notes: {} })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(GatewayError)
    expect(error).toMatchObject({ retryable: false, statusCode: 400, code: 'BAD_REQUEST_ERROR' })
    expect((error as Error).message).toMatch(/The amount must be at least INR 1.00/)
    const errors = log.lines().filter((line) => line.level === 'error')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({
      module: 'payments',
      msg: expect.stringMatching(/^Razorpay order creation failed with HTTP 400/),
    })
  })

  it('reports a 5xx as retryable', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    server.use(http.post(`${RAZORPAY_API}/orders`, razorpayServerError))
    await expect(gateway.createOrder({ amountPaise: 100, receipt: 'p', notes: {} })).rejects.toMatchObject({
      name: 'GatewayError',
      retryable: true,
      statusCode: 500,
    })
  })

  it('reports a network error and a timeout as retryable GatewayErrors', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    server.use(http.post(`${RAZORPAY_API}/orders`, () => HttpResponse.error()))
    await expect(gateway.createOrder({ amountPaise: 100, receipt: 'p', notes: {} })).rejects.toMatchObject({
      name: 'GatewayError',
      retryable: true,
    })
    server.use(
      http.get(`${RAZORPAY_API}/payments/pay_slow`, async () => {
        await delay(5_000)
        return HttpResponse.json(paymentEntity())
      }),
    )
    const started = Date.now()
    await expect(gateway.fetchPayment('pay_slow')).rejects.toMatchObject({ name: 'GatewayError', retryable: true })
    expect(Date.now() - started).toBeLessThan(3_000)
  })

  it("turns the SDK's synchronous missing-id throw into a GatewayError", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await expect(gateway.fetchPayment('')).rejects.toBeInstanceOf(GatewayError)
  })
})
