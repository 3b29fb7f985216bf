import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as sandboxPayRoute from '~/demo/sandbox.pay'
import * as webhookRoute from '~/routes/webhooks.razorpay'
import { prisma } from '~/server/db.server'
import { startGatewayPayment } from '~/server/payments/checkout.server'
import { webhookDeliveryKey } from '~/server/payments/webhooks.server'
import { sandboxGateway } from '~/demo/razorpay-sandbox.server'
import { createService, createUser } from '../support/payment-fixtures'

const gateway = sandboxGateway()
const args = (request: Request) => ({ request, params: {}, context: { clientIp: '127.0.0.1', cspNonce: '' } }) as never

describe('POST /webhooks/razorpay', () => {
  it('hands the raw bytes and headers to handleWebhook: a capture pays once, a replay is a duplicate whatever its event id header, a bad signature is 400', async () => {
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const started = await startGatewayPayment(userId, [equity.id], { gateway })
    const paid = gateway.pay(started.orderId, 'captured')
    const delivery = gateway.webhook('payment.captured', paid.razorpay_payment_id)
    const deliver = (signature: string, eventId = delivery.eventId) =>
      webhookRoute.action(
        args(
          new Request('http://localhost/webhooks/razorpay', {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              'X-Razorpay-Signature': signature,
              'X-Razorpay-Event-Id': eventId,
            },
            body: delivery.rawBody,
          }),
        ),
      )

    const forged = await deliver('0'.repeat(64))
    expect(forged.status).toBe(400)
    expect(await prisma.subscription.count({ where: { userId } })).toBe(0)
    expect(await (await deliver(delivery.signature)).json()).toEqual({ outcome: 'processed' })
    expect(await (await deliver(delivery.signature)).json()).toEqual({ outcome: 'duplicate' })
    // The event id header is outside the signature: a replay with another id is still the same delivery.
    expect(await (await deliver(delivery.signature, 'evt_replayed_with_a_new_id')).json()).toEqual({
      outcome: 'duplicate',
    })
    expect(await prisma.subscription.count({ where: { userId } })).toBe(1)
    expect(await prisma.webhookEvent.count({ where: { eventId: webhookDeliveryKey(delivery.rawBody) } })).toBe(1)
  })
})

describe('the sandbox firing the webhook itself (POST /dev/sandbox/pay with deliverWebhook)', () => {
  // The webhook route behind a real HTTP server, where the sandbox's delivery arrives as Razorpay's would.
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = []
    for await (const chunk of incoming) chunks.push(chunk as Buffer)
    const headers = new Headers(
      Object.entries(incoming.headers).map(([name, value]) => [name, String(value)] as [string, string]),
    )
    const response = await webhookRoute.action(
      args(new Request(`${baseUrl}${incoming.url}`, { method: incoming.method, headers, body: Buffer.concat(chunks) })),
    )
    outgoing.writeHead(response.status, Object.fromEntries(response.headers)).end(await response.text())
  })
  let baseUrl: string
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  const sandboxPay = async (body: Record<string, unknown>) => {
    const request = new Request(`${baseUrl}/dev/sandbox/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const response = await sandboxPayRoute.action(args(request))
    expect(response.status).toBe(200)
    return (await response.json()) as {
      razorpayResponse: { razorpay_payment_id: string }
      webhookDeliveries?: unknown[]
    }
  }
  it("posts Razorpay's events for a capture to this store's /webhooks/razorpay: the payment is paid with nobody's browser involved", async () => {
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const swing = await createService('Swing', 149_950, 90)
    const started = await startGatewayPayment(userId, [equity.id, swing.id], { gateway })

    const paid = await sandboxPay({ orderId: started.orderId, deliverWebhook: true })

    expect(paid.webhookDeliveries).toEqual([
      {
        event: 'payment.captured',
        eventId: expect.stringMatching(/^evt_/),
        status: 200,
        body: { outcome: 'processed' },
      },
      // Razorpay also sends order.paid for the same capture: handled, and still one payment.
      { event: 'order.paid', eventId: expect.stringMatching(/^evt_/), status: 200, body: { outcome: 'processed' } },
    ])
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).toMatchObject({
      status: 'PAID',
      paidVia: 'webhook',
      gatewayPaymentId: paid.razorpayResponse.razorpay_payment_id,
    })
    expect(await prisma.subscription.count({ where: { userId } })).toBe(2)
  })

  it('posts payment.failed for a failed attempt, which records the failure', async () => {
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const started = await startGatewayPayment(userId, [equity.id], { gateway })

    const failed = await sandboxPay({ orderId: started.orderId, outcome: 'failed', deliverWebhook: true })

    expect(failed.webhookDeliveries).toEqual([
      { event: 'payment.failed', eventId: expect.any(String), status: 200, body: { outcome: 'processed' } },
    ])
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).toMatchObject({
      status: 'FAILED',
      failureReason: 'Payment failed',
    })
  })

  it('delivers nothing unless asked', async () => {
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const started = await startGatewayPayment(userId, [equity.id], { gateway })
    expect(await sandboxPay({ orderId: started.orderId })).not.toHaveProperty('webhookDeliveries')
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: started.paymentId } })).status).toBe('CREATED')
  })
})
