import { describe, expect, it } from 'vitest'
import * as payRoute from '~/routes/pay'
import { serializeCart } from '~/server/cart.server'
import { prisma } from '~/server/db.server'
import { createSession } from '~/server/session.server'
import { createService, createUser } from '../support/payment-fixtures'

async function completeCustomer() {
  const userId = await createUser()
  await prisma.user.update({
    where: { id: userId },
    data: {
      name: 'asha rao',
      email: 'asha@example.in',
      dateOfBirth: new Date('2001-05-17'),
      pan: 'ABCPE1234F',
      panCardKey: 'k',
      agreementAcceptedAt: new Date(),
    },
  })
  return { userId, session: (await createSession(userId)).split(';')[0]! }
}

async function submitManual(session: string, cartIds: string[], fields: Record<string, string>) {
  const cart = (await serializeCart(cartIds)).split(';')[0]!
  const request = new Request('http://localhost/pay?dialog=manual', {
    method: 'POST',
    headers: { Cookie: `${session}; ${cart}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'manual', paymentKey: crypto.randomUUID(), ...fields }),
  })
  return payRoute.action({ request, params: {}, context: { cspNonce: '', clientIp: '127.0.0.1' } } as never)
}

describe('/pay: "I\'ll Pay & Send Screenshot"', () => {
  it('refuses a claim when the total shown is no longer the cart total, as the API does, and makes none', async () => {
    const { userId, session } = await completeCustomer()
    const equity = await createService('Equity', 299_900, 30)
    const result = await submitManual(session, [equity.id], { shownTotalPaise: '199900' })
    expect(result).toMatchObject({ init: { status: 409 } })
    expect(JSON.stringify(result)).toContain('Rs. 2,999')
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)
  })

  it('makes the claim for the total shown', async () => {
    const { userId, session } = await completeCustomer()
    const equity = await createService('Equity', 299_900, 30)
    const response = (await submitManual(session, [equity.id], { shownTotalPaise: '299900' })) as Response
    expect(response.status).toBe(302)
    expect(await prisma.payment.findMany({ where: { userId } })).toMatchObject([
      { method: 'MANUAL', status: 'PENDING_VERIFICATION', amountPaise: 299_900 },
    ])
  })
})
