import { randomInt } from 'node:crypto'
import type { CartItem } from '~/domain/cart'
import type { PaymentMethod, PaymentStatus } from '~/generated/prisma/client'
import { prisma } from '~/server/db.server'

export async function createUser(): Promise<string> {
  const user = await prisma.user.create({
    data: { phone: `+9198${String(randomInt(0, 100_000_000)).padStart(8, '0')}` },
  })
  return user.id
}

export async function createService(name: string, pricePaise: number, durationDays: number, active = true) {
  return prisma.service.create({ data: { name: `${name} ${randomInt(0, 1e9)}`, pricePaise, durationDays, active } })
}

export const cartItemOf = (service: {
  id: string
  name: string
  pricePaise: number
  durationDays: number
}): CartItem => ({
  serviceId: service.id,
  name: service.name,
  pricePaise: service.pricePaise,
  durationDays: service.durationDays,
})

/** A payment row as the payment functions would leave it, for tests of what comes after. */
export async function createPaymentRow(
  userId: string,
  cart: CartItem[],
  {
    method = 'GATEWAY',
    status = method === 'GATEWAY' ? 'CREATED' : 'PENDING_VERIFICATION',
    createdAt,
    expiresAt,
  }: {
    method?: PaymentMethod
    status?: PaymentStatus
    createdAt?: Date
    expiresAt?: Date
  } = {},
) {
  return prisma.payment.create({
    data: {
      userId,
      method,
      status,
      amountPaise: cart.reduce((sum, item) => sum + item.pricePaise, 0),
      cart,
      ...(createdAt ? { createdAt } : {}),
      ...(method === 'MANUAL' ? { expiresAt: expiresAt ?? new Date(Date.now() + 7 * 86_400_000) } : {}),
      ...(method === 'GATEWAY' ? { gatewayOrderId: `order_${randomInt(0, 1e12)}` } : {}),
    },
  })
}
