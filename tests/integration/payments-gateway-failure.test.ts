import { delay, http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { prisma } from '~/server/db.server'
import { PAYMENT_START_FAILED_MESSAGE } from '~/domain/gateway-checkout'
import { startGatewayPayment } from '~/server/payments/gateway.server'
import { razorpayGateway } from '~/server/razorpay.server'
import { pendingPayments } from '~/server/payments/core.server'
import { createService, createUser } from '../support/payment-fixtures'

// The real Razorpay client, its HTTP answered by MSW's Node interceptor (no network).
const server = setupServer()
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  server.resetHandlers()
  vi.restoreAllMocks()
})
afterAll(() => server.close())

const gateway = razorpayGateway({
  keyId: 'rzp_test_abc123',
  keySecret: 'key-secret-1',
  webhookSecret: 'webhook-secret-1',
  timeoutMs: 300,
})

describe('order creation failing at the gateway', () => {
  const failures = {
    '5xx': () =>
      HttpResponse.json(
        { error: { code: 'SERVER_ERROR', description: 'The server encountered an error.' } },
        { status: 500 },
      ),
    'network error': () => HttpResponse.error(),
    timeout: async () => {
      await delay(2_000)
      return HttpResponse.json({})
    },
  }
  for (const [name, answer] of Object.entries(failures)) {
    it(`${name}: leaves no payment behind and reports a clear, typed error`, async () => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => {})
      server.use(http.post('https://api.razorpay.com/v1/orders', answer))
      const userId = await createUser()
      const service = await createService('Equity', 299_900, 30)
      await expect(startGatewayPayment(userId, [service.id], { gateway })).rejects.toMatchObject({
        name: 'PaymentError',
        code: 'gateway-unavailable',
        status: 503,
        message: PAYMENT_START_FAILED_MESSAGE,
      })
      expect(await prisma.payment.count({ where: { userId } })).toBe(0)
      expect(log).toHaveBeenCalledTimes(1)
      expect(String(log.mock.calls[0]![0])).toMatch(/^\[razorpay\] Razorpay order creation failed/)
    })
  }

  it('a pending list read while the order was being created does not keep showing the removed payment', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const userId = await createUser()
    const service = await createService('Equity', 299_900, 30)
    let listedDuringCreation: unknown[] = []
    server.use(
      http.post('https://api.razorpay.com/v1/orders', async () => {
        listedDuringCreation = await pendingPayments(userId, new Date())
        return HttpResponse.json(
          { error: { code: 'SERVER_ERROR', description: 'The server encountered an error.' } },
          { status: 500 },
        )
      }),
    )
    await expect(startGatewayPayment(userId, [service.id], { gateway })).rejects.toMatchObject({
      code: 'gateway-unavailable',
    })
    expect(listedDuringCreation).toHaveLength(1)
    expect(await pendingPayments(userId, new Date())).toEqual([])
  })

  it('a successful creation stores the order id on a CREATED payment', async () => {
    server.use(
      http.post('https://api.razorpay.com/v1/orders', async ({ request }) => {
        const body = (await request.json()) as { amount: number; receipt: string }
        return HttpResponse.json({
          id: 'order_OK1',
          entity: 'order',
          amount: body.amount,
          currency: 'INR',
          receipt: body.receipt,
          status: 'created',
        })
      }),
    )
    const userId = await createUser()
    const service = await createService('Equity', 299_900, 30)
    const started = await startGatewayPayment(userId, [service.id], { gateway })
    expect(started).toMatchObject({ orderId: 'order_OK1', amountPaise: 299_900, keyId: 'rzp_test_abc123' })
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).toMatchObject({
      status: 'CREATED',
      gatewayOrderId: 'order_OK1',
    })
  })
})
