import { describe, expect, it } from 'vitest'
import * as webhookRoute from '~/routes/webhooks.razorpay'
import { prisma } from '~/server/db.server'
import { startGatewayPayment } from '~/server/payments.server'
import { sandboxGateway } from '~/server/razorpay-sandbox.server'
import { createService, createUser } from '../support/payment-fixtures'

const gateway = sandboxGateway()
const args = (request: Request) => ({ request, params: {}, context: { clientIp: '127.0.0.1', cspNonce: '' } }) as never

describe('POST /webhooks/razorpay', () => {
  it('hands the raw bytes and headers to handleWebhook: a capture pays once, a replay is a duplicate, a bad signature is 400', async () => {
    const userId = await createUser()
    const equity = await createService('Equity', 299_900, 30)
    const started = await startGatewayPayment(userId, [equity.id], { gateway })
    const paid = gateway.pay(started.orderId, 'captured')
    const delivery = gateway.webhook('payment.captured', paid.razorpay_payment_id)
    const deliver = (signature: string) =>
      webhookRoute.action(
        args(
          new Request('http://localhost/webhooks/razorpay', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-Razorpay-Signature': signature, 'X-Razorpay-Event-Id': delivery.eventId },
            body: delivery.rawBody,
          }),
        ),
      )

    const forged = await deliver('0'.repeat(64))
    expect(forged.status).toBe(400)
    expect(await prisma.subscription.count({ where: { userId } })).toBe(0)
    expect(await (await deliver(delivery.signature)).json()).toEqual({ outcome: 'processed' })
    expect(await (await deliver(delivery.signature)).json()).toEqual({ outcome: 'duplicate' })
    expect(await prisma.subscription.count({ where: { userId } })).toBe(1)
  })
})
