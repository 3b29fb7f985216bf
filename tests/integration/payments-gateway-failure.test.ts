import { captureLogLines } from '~/server/operations/logger.server'
import { delay, http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi, onTestFinished } from 'vitest'
import { prisma } from '~/server/db.server'
import { PAYMENT_START_FAILED_MESSAGE } from '~/domain/gateway-checkout'
import { startGatewayPayment } from '~/server/payments/checkout.server'
import { razorpayGateway } from '~/server/payments/gateway/razorpay.server'
import { pendingPayments } from '~/server/payments/core.server'
import {
  createsOrder,
  fakeRazorpayApi,
  RAZORPAY_API,
  razorpayServerError,
  TEST_RAZORPAY_SETTINGS,
} from '../support/fake-razorpay-api'
import { createService, createUser } from '../support/payment-fixtures'

// The real Razorpay client, its HTTP answered by MSW's Node interceptor (no network).
const server = fakeRazorpayApi()
afterEach(() => {
  vi.restoreAllMocks()
})

const gateway = razorpayGateway(TEST_RAZORPAY_SETTINGS)

describe('order creation failing at the gateway', () => {
  const failures = {
    '5xx': razorpayServerError,
    'network error': () => HttpResponse.error(),
    timeout: async () => {
      await delay(2_000)
      return HttpResponse.json({})
    },
  }
  for (const [name, answer] of Object.entries(failures)) {
    it(`${name}: leaves no payment behind and reports a clear, typed error`, async () => {
      const log = captureLogLines()
      onTestFinished(log.stop)
      server.use(http.post(`${RAZORPAY_API}/orders`, answer))
      const userId = await createUser()
      const service = await createService('Equity', 299_900, 30)
      await expect(startGatewayPayment(userId, [service.id], { gateway })).rejects.toMatchObject({
        name: 'PaymentError',
        code: 'gateway-unavailable',
        status: 503,
        message: PAYMENT_START_FAILED_MESSAGE,
      })
      expect(await prisma.payment.count({ where: { userId } })).toBe(0)
      const errors = log.lines().filter((line) => line.level === 'error')
      expect(errors).toHaveLength(1)
      expect(errors[0]!.msg).toMatch(/^Razorpay order creation failed/)
    })
  }

  it('a pending list read while the order was being created does not keep showing the removed payment', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const userId = await createUser()
    const service = await createService('Equity', 299_900, 30)
    let listedDuringCreation: unknown[] = []
    server.use(
      http.post(`${RAZORPAY_API}/orders`, async () => {
        listedDuringCreation = await pendingPayments(userId, new Date())
        return razorpayServerError()
      }),
    )
    await expect(startGatewayPayment(userId, [service.id], { gateway })).rejects.toMatchObject({
      code: 'gateway-unavailable',
    })
    expect(listedDuringCreation).toHaveLength(1)
    expect(await pendingPayments(userId, new Date())).toEqual([])
  })

  it('a successful creation stores the order id on a CREATED payment', async () => {
    server.use(createsOrder('order_OK1'))
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
