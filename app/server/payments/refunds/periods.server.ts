import { readCartSnapshot } from '~/domain/cart'
import { endingRefundPaise, type RefundRoute } from '~/domain/refunds'
import type { Prisma } from '~/generated/prisma/client'

// The running periods of a customer's service and what ending one gives back: what every way of ending
// a subscription reads (docs/payments.md, "Refunds").

export type PeriodRow = Prisma.SubscriptionGetPayload<{
  select: typeof periodSelect
}>

export const periodSelect = {
  id: true,
  userId: true,
  serviceId: true,
  startsAt: true,
  endsAt: true,
  originalEndsAt: true,
  service: { select: { name: true } },
  payment: {
    select: { id: true, method: true, cart: true, gatewayPaymentId: true, bankUtr: true, bankPayerName: true },
  },
  refunds: { select: { amountPaise: true } },
} satisfies Prisma.SubscriptionSelect

/** A gateway payment is refunded to the card/UPI it came from; a bank transfer (or a payment the admin marked paid) by transfer. */
export function routeOf(payment: NonNullable<PeriodRow['payment']>): RefundRoute {
  return payment.method === 'GATEWAY' && payment.gatewayPaymentId ? 'GATEWAY' : 'BANK_TRANSFER'
}

export function refundOf(period: PeriodRow, at: Date): number {
  const line = period.payment
    ? readCartSnapshot(period.payment.cart).find((item) => item.serviceId === period.serviceId)
    : undefined
  return endingRefundPaise(
    {
      startsAt: period.startsAt,
      endsAt: period.endsAt,
      feePaise: line ? line.pricePaise : null,
      daysBought: line ? line.durationDays : 1,
      alreadyRefundedPaise: period.refunds.reduce((sum, refund) => sum + refund.amountPaise, 0),
    },
    at,
  )
}

export function runningPeriods(db: Prisma.TransactionClient, userId: string, serviceId: string, at: Date) {
  return db.subscription.findMany({
    where: { userId, serviceId, endsAt: { gt: at } },
    select: periodSelect,
    orderBy: { startsAt: 'asc' },
  })
}

/** The account a bank transfer came from, as the admin confirmed it from the statement; null before confirmations recorded it. */
export function payingAccountOf(payment: NonNullable<PeriodRow['payment']>): PayingAccount | null {
  return payment.bankPayerName && payment.bankUtr ? { accountName: payment.bankPayerName, utr: payment.bankUtr } : null
}

export type PayingAccount = { accountName: string; utr: string }
