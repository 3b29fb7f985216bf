import { CUSTOMER_SEARCH_LIMIT, CUSTOMER_SEARCH_MIN_LENGTH } from '~/domain/admin'
import type { CartItem } from '~/domain/cart'
import { profileStep } from '~/domain/profile'
import { isUuid } from '~/domain/uuid'
import type { Prisma } from '~/generated/prisma/client'
import { prisma } from './db.server'


const listSelect = { id: true, name: true, phone: true, email: true, pan: true, role: true } as const
export type CustomerListing = Prisma.UserGetPayload<{ select: typeof listSelect }>

/**
 * Customers whose phone, name, e-mail or PAN contains the query (case-insensitive); a query of
 * digits also matches the phone without its country code or spaces. Newest first.
 */
export async function searchCustomers(query: string): Promise<CustomerListing[]> {
  const text = query.trim()
  if (text.length < CUSTOMER_SEARCH_MIN_LENGTH) return []
  const digits = text.replace(/[\s+-]/g, '')
  const contains = (value: string) => ({ contains: value, mode: 'insensitive' as const })
  return prisma.user.findMany({
    where: {
      OR: [
        { name: contains(text) },
        { email: contains(text) },
        { pan: contains(text) },
        { phone: contains(/^\d+$/.test(digits) ? digits : text) },
      ],
    },
    orderBy: { createdAt: 'desc' },
    take: CUSTOMER_SEARCH_LIMIT,
    select: listSelect,
  })
}

/** One customer as the team needs them: profile, KYC status, payments and subscriptions. */
export async function customerForAdmin(userId: string) {
  if (!isUuid(userId)) return null
  const user = await prisma.user.findUnique({
    where: { id: userId },
    select: {
      ...listSelect,
      dateOfBirth: true,
      panCardKey: true,
      agreementAcceptedAt: true,
      agreementVersion: true,
      payments: {
        orderBy: { createdAt: 'desc' },
        select: { id: true, method: true, status: true, amountPaise: true, cart: true, utr: true, createdAt: true, paidAt: true, rejectedReason: true },
      },
      subscriptions: {
        orderBy: { endsAt: 'desc' },
        select: { id: true, startsAt: true, endsAt: true, paymentId: true, service: { select: { name: true } } },
      },
    },
  })
  if (!user) return null
  return {
    ...user,
    profileStep: profileStep(user),
    payments: user.payments.map(({ cart, ...payment }) => ({ ...payment, cart: cart as CartItem[] })),
  }
}

export type CustomerForAdmin = NonNullable<Awaited<ReturnType<typeof customerForAdmin>>>

/** The storage key of a customer's PAN card image, for the admin route that serves it. */
export async function panCardKeyOf(userId: string): Promise<string | null> {
  if (!isUuid(userId)) return null
  return (await prisma.user.findUnique({ where: { id: userId }, select: { panCardKey: true } }))?.panCardKey ?? null
}
