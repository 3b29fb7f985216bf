import { beforeEach, describe, expect, it } from 'vitest'
import {
  addServiceToCart,
  cartCookie,
  pricedCart,
  readCart,
  removeServiceFromCart,
} from '~/server/payments/cart.server'
import { prisma } from '~/server/db.server'
import { getRequest } from '../support/route-requests'

const requestWith = (setCookie?: string) => getRequest('/services', setCookie)

beforeEach(async () => {
  await prisma.service.deleteMany()
})

describe('cart cookie', () => {
  it('adds and removes service ids, each once', async () => {
    const first = await addServiceToCart(requestWith(), 'a')
    const second = await addServiceToCart(requestWith(first.setCookie), 'b')
    const again = await addServiceToCart(requestWith(second.setCookie), 'a')
    expect(again.ids).toEqual(['a', 'b'])
    expect(await readCart(requestWith(again.setCookie))).toEqual(['a', 'b'])
    const removed = await removeServiceFromCart(requestWith(again.setCookie), 'a')
    expect(await readCart(requestWith(removed.setCookie))).toEqual(['b'])
  })

  it('is signed, HttpOnly, SameSite=Lax on path /', async () => {
    const { setCookie } = await addServiceToCart(requestWith(), 'a')
    expect(setCookie).toMatch(/HttpOnly/)
    expect(setCookie).toMatch(/SameSite=Lax/)
    expect(setCookie).toMatch(/Path=\//)
    expect(cartCookie.isSigned).toBe(true)
  })

  it('treats a forged cookie as an empty cart', async () => {
    const forged = `cart=${Buffer.from(JSON.stringify(['x'])).toString('base64')}.forged`
    expect(await readCart(getRequest('/', forged))).toEqual([])
  })
})

describe('pricedCart', () => {
  it('prices active services from the database and reports deactivated and unknown ids', async () => {
    const live = await prisma.service.create({
      data: {
        name: 'Equity Premium',
        pricePaise: 299_900,
        durationDays: 30,
        riskLevel: 'HIGH',
        delivery: 'Ideas on the website as published',
      },
    })
    const retired = await prisma.service.create({
      data: {
        name: 'Old',
        pricePaise: 100_000,
        durationDays: 30,
        active: false,
        riskLevel: 'HIGH',
        delivery: 'Ideas on the website as published',
      },
    })
    const unknown = '00000000-0000-4000-8000-000000000000'
    const priced = await pricedCart([retired.id, live.id, unknown, 'not-a-uuid', live.id])
    expect(priced.items).toEqual([
      { serviceId: live.id, name: 'Equity Premium', pricePaise: 299_900, durationDays: 30 },
    ])
    expect(priced.droppedIds).toEqual([retired.id, unknown, 'not-a-uuid'])
    expect(priced.droppedNames).toEqual(['Old'])
  })
})
