import { MS_PER_DAY } from '~/domain/dates'
import { refundedServiceName, refundState, type RefundState, type RefundStatus } from '~/domain/refunds'
import type { Prisma } from '~/generated/prisma/client'
import { prisma } from '../../db.server'

// A customer's own refunds and the state each is in (docs/payments.md, "Refunds"): /subscriptions
// shows the open ones and those paid lately, "Your data" and its download all of them.

/** A paid refund stays on /subscriptions this long after it was paid ("Your data" keeps it for good). */
export const PAID_REFUND_SHOWN_DAYS = 90

export const customerRefundSelect = {
  id: true,
  amountPaise: true,
  status: true,
  reason: true,
  createdAt: true,
  processedAt: true,
  lastError: true,
  bankReference: true,
  paymentId: true,
  subscription: { select: { service: { select: { name: true } } } },
  payment: { select: { cart: true } },
} satisfies Prisma.RefundSelect

type CustomerRefundRow = Prisma.RefundGetPayload<{ select: typeof customerRefundSelect }>

export type CustomerRefund = {
  id: string
  /** The service it refunds; for a whole-payment refund, the services its payment was for. */
  serviceName: string
  amountPaise: number
  status: RefundStatus
  createdAt: Date
  processedAt: Date | null
} & RefundState

/** One refund row as the customer is told of it. */
export function customerRefundOf(row: CustomerRefundRow): CustomerRefund {
  return {
    id: row.id,
    serviceName: refundedServiceName(row),
    amountPaise: row.amountPaise,
    status: row.status,
    createdAt: row.createdAt,
    processedAt: row.processedAt,
    ...refundState({
      status: row.status,
      createdAt: row.createdAt,
      processedAt: row.processedAt,
      lastError: row.lastError,
      byBankTransfer: row.status === 'DUE' || row.bankReference !== null,
    }),
  }
}

/** The refunds /subscriptions shows at `now`: every one not yet paid, and those paid in the last PAID_REFUND_SHOWN_DAYS. */
export async function refundsInProgress(userId: string, now: Date): Promise<CustomerRefund[]> {
  const rows = await prisma.refund.findMany({
    where: {
      userId,
      OR: [
        { status: { not: 'PROCESSED' } },
        { processedAt: { gte: new Date(now.getTime() - PAID_REFUND_SHOWN_DAYS * MS_PER_DAY) } },
      ],
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: customerRefundSelect,
  })
  return rows.map(customerRefundOf)
}
