import { describe, expect, it } from 'vitest'
import { shownCartValue } from '~/domain/cart'
import * as payRoute from '~/routes/pay'
import { serializeCart } from '~/server/payments/cart.server'
import { prisma } from '~/server/db.server'
import { createService } from '../support/payment-fixtures'
import { formRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

async function submitManual(session: string, cartIds: string[], fields: Record<string, string>) {
  const request = formRequest('/pay?dialog=manual', { intent: 'manual', paymentKey: crypto.randomUUID(), ...fields }, [
    session,
    await serializeCart(cartIds),
  ])
  return payRoute.action(routeArgs(request))
}

describe('/pay: "I\'ll Pay & Send Screenshot"', () => {
  it('refuses a claim when the total shown is no longer the cart total, as the API does, and makes none', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const equity = await createService('Equity', 299_900, 30)
    const result = await submitManual(cookie, [equity.id], { shownTotalPaise: '199900' })
    expect(result).toMatchObject({ init: { status: 409 } })
    expect(JSON.stringify(result)).toContain('Rs. 2,999')
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)
  })

  it('makes the claim for the total shown', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const equity = await createService('Equity', 299_900, 30)
    const response = (await submitManual(cookie, [equity.id], { shownTotalPaise: '299900' })) as Response
    expect(response.status).toBe(302)
    expect(await prisma.payment.findMany({ where: { userId } })).toMatchObject([
      { method: 'MANUAL', status: 'PENDING_VERIFICATION', amountPaise: 299_900 },
    ])
  })

  it('says what changed since the page was shown (added, removed, a new price) and makes no claim', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const equity = await createService('Equity', 299_900, 30)
    const swing = await createService('Swing', 149_900, 30)
    const shownCart = shownCartValue([
      { serviceId: equity.id, pricePaise: 249_900 },
      { serviceId: swing.id, pricePaise: 149_900 },
    ])
    const result = await submitManual(cookie, [equity.id], { shownTotalPaise: '399800', shownCart })
    expect(result).toMatchObject({
      init: { status: 409 },
      data: {
        error: `Your cart changed since this page was shown: the price of ${equity.name} is now Rs. 2,999 (was Rs. 2,499); ${swing.name} was removed. Please check the total below and try again.`,
      },
    })
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)
    expect(payRoute.shouldRevalidate({ actionStatus: 409, defaultShouldRevalidate: false } as never)).toBe(true)
  })

  it('records the name on the account the customer pays from, and refuses one that is too short, making no claim', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const equity = await createService('Equity', 299_900, 30)
    const refused = await submitManual(cookie, [equity.id], { shownTotalPaise: '299900', payerAccountName: 'A' })
    expect(refused).toMatchObject({ init: { status: 400 } })
    expect(JSON.stringify(refused)).toContain("Enter the account holder's name as your bank shows it")
    expect(await prisma.payment.count({ where: { userId } })).toBe(0)

    const response = (await submitManual(cookie, [equity.id], {
      shownTotalPaise: '299900',
      payerAccountName: '  Asha Rao  ',
    })) as Response
    expect(response.status).toBe(302)
    expect(await prisma.payment.findMany({ where: { userId } })).toMatchObject([{ payerAccountName: 'Asha Rao' }])
  })
})
