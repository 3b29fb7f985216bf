import { describe, expect, it } from 'vitest'
import { prisma } from '~/server/db.server'
import { cartItemOf, createPaymentRow, createService, createUser } from '../support/payment-fixtures'

describe('payments and subscriptions constraints in the database', () => {
  it('refuses a non-positive amount, a cart that is not a list, PAID without paidAt and a manual payment without expiry', async () => {
    const userId = await createUser()
    const base = { userId, method: 'GATEWAY' as const, status: 'CREATED' as const, amountPaise: 100, cart: [] }
    await expect(prisma.payment.create({ data: { ...base, amountPaise: 0 } })).rejects.toThrow()
    await expect(prisma.payment.create({ data: { ...base, cart: { not: 'a list' } } })).rejects.toThrow()
    await expect(prisma.payment.create({ data: { ...base, status: 'PAID' } })).rejects.toThrow()
    await expect(
      prisma.payment.create({ data: { ...base, method: 'MANUAL', status: 'PENDING_VERIFICATION' } }),
    ).rejects.toThrow()
    await expect(prisma.payment.create({ data: base })).resolves.toMatchObject({ currency: 'INR' })
  })

  it('allows one subscription per payment and service, and unique gateway ids', async () => {
    const userId = await createUser()
    const service = await createService('Equity', 299_900, 30)
    const payment = await createPaymentRow(userId, [cartItemOf(service)])
    const row = { userId, serviceId: service.id, paymentId: payment.id, startsAt: new Date(0), endsAt: new Date(1) }
    await prisma.subscription.create({ data: row })
    await expect(prisma.subscription.create({ data: row })).rejects.toThrow()
    await expect(
      prisma.subscription.create({ data: { ...row, serviceId: service.id, endsAt: new Date(0) } }),
    ).rejects.toThrow()
    const other = await createPaymentRow(userId, [cartItemOf(service)])
    await expect(
      prisma.payment.update({ where: { id: other.id }, data: { gatewayOrderId: payment.gatewayOrderId } }),
    ).rejects.toThrow()
  })
})
