import { describe, expect, it } from 'vitest'
import * as createOrder from '~/routes/api.v1/payments.create-order'
import { prisma } from '~/server/db.server'
import { sandboxGateway } from '~/server/razorpay-sandbox.server'
import { createSession } from '~/server/session.server'
import { createService, createUser } from '../support/payment-fixtures'

const gateway = sandboxGateway()
const args = (request: Request) => ({ request, params: {}, context: { clientIp: '127.0.0.1', cspNonce: '' } }) as never

async function customer({ complete = true } = {}) {
  const userId = await createUser()
  if (complete) {
    await prisma.user.update({
      where: { id: userId },
      data: { name: 'asha rao', email: 'asha@example.in', dateOfBirth: new Date('2001-05-17'), pan: 'ABCPE1234F', panCardKey: 'k', agreementAcceptedAt: new Date() },
    })
  }
  const cookie = (await createSession(userId)).split(';')[0]!
  return { userId, cookie }
}

const post = (path: string, cookie: string, body: unknown) =>
  new Request(`http://localhost${path}`, { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })

describe('POST /api/v1/payments/create-order', () => {
  it('prices notes.cart on the server: a wrong amount is 409 with the right one in rupees, the right one opens an order', async () => {
    const { userId, cookie } = await customer()
    const equity = await createService('Equity', 299_900, 30)
    const swing = await createService('Swing', 149_950, 90)
    const cart = JSON.stringify([{ _id: equity.id, service: { _id: equity.id, price: 1 } }, swing.id])
    const body = (amount: number) => ({ amount, currency: 'INR', receipt: 'ABCPE1234F', notes: { number: '+919876543210', details: '{}', cart } })

    const tampered = await createOrder.action(args(post('/api/v1/payments/create-order', cookie, body(2)))).catch((error: unknown) => error as Response)
    expect(tampered.status).toBe(409)
    expect(await tampered.json()).toMatchObject({ amount: 4498.5 })
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)

    const created = await createOrder.action(args(post('/api/v1/payments/create-order', cookie, body(4498.5))))
    expect(created.status).toBe(200)
    const { order, key } = (await created.json()).data.data
    expect(order).toMatchObject({ amount: 449_850, currency: 'INR' })
    expect(key).toBe(gateway.keyId)
    expect(await prisma.payment.findMany({ where: { userId }, select: { gatewayOrderId: true, amountPaise: true } })).toEqual([
      { gatewayOrderId: order.id, amountPaise: 449_850 },
    ])
  })

  it('refuses an incomplete profile with 403', async () => {
    const { cookie } = await customer({ complete: false })
    const refused = await createOrder
      .action(args(post('/api/v1/payments/create-order', cookie, { amount: 1, notes: { cart: '[]' } })))
      .catch((error: unknown) => error as Response)
    expect(refused.status).toBe(403)
  })
})
