import { formatIndiaDate } from '~/domain/dates'
import { refundedServiceName, type RefundReason } from '~/domain/refunds'
import { ADMIN_PAGE_SIZE } from '~/domain/admin'
import type { Page, PageRequest } from '~/domain/keyset'
import { recordAudit } from '../../audit.server'
import { prisma } from '../../db.server'
import { readKeysetPage } from '../../keyset.server'
import { queueGatewayRefund } from './gateway-refund.server'

// The admin's refund queue (/admin/refunds): refunds by state, a bank transfer marked paid, a failed gateway refund retried.

export type RefundQueueRow = {
  id: string
  customer: { id: string; name: string | null; phone: string }
  serviceName: string
  amountPaise: number
  reason: RefundReason
  status: 'DUE' | 'PENDING' | 'PROCESSED' | 'FAILED'
  createdOn: string
  processedOn: string | null
  payee: { accountName: string; accountNumber: string; ifsc: string } | null
  /** A bank transfer refunded to the account it came from: the paying account's name and the UTR that finds it on the statement. */
  payingAccount: { accountName: string; utr: string } | null
  gatewayRefundId: string | null
  bankReference: string | null
  attempts: number
  lastError: string | null
}

/**
 * The refunds in one state, newest first, one keyset page at a time in (created_at, id) order
 * (the index refunds_status_created_at_id_idx): the page shows one section per state.
 */
export async function refundQueue(
  status: RefundQueueRow['status'],
  page: PageRequest = null,
  size = ADMIN_PAGE_SIZE,
): Promise<Page<RefundQueueRow>> {
  const found = await readKeysetPage(
    page,
    size,
    (at, take) => {
      const order = at?.direction === 'before' ? 'asc' : 'desc'
      const key = at ? { createdAt: at.key.at!, id: at.key.id } : null
      const beyond = at?.direction === 'before' ? 'gt' : 'lt'
      const reaching = at?.direction === 'before' ? 'gte' : 'lte'
      return prisma.refund.findMany({
        where: {
          status,
          ...(key
            ? {
                // The first condition bounds the index range; the OR drops the key row and its ties.
                createdAt: { [reaching]: key.createdAt },
                OR: [{ createdAt: { [beyond]: key.createdAt } }, { id: { [beyond]: key.id } }],
              }
            : {}),
        },
        orderBy: [{ createdAt: order }, { id: order }],
        take,
        include: {
          user: { select: { id: true, name: true, phone: true } },
          subscription: { select: { service: { select: { name: true } } } },
          payment: { select: { cart: true } },
        },
      })
    },
    (row) => ({ at: row.createdAt, id: row.id }),
  )
  const rows = found.rows
  return {
    ...found,
    rows: rows.map((row) => ({
      id: row.id,
      customer: row.user,
      serviceName: refundedServiceName(row),
      amountPaise: row.amountPaise,
      reason: row.reason,
      status: row.status,
      createdOn: formatIndiaDate(row.createdAt),
      processedOn: row.processedAt ? formatIndiaDate(row.processedAt) : null,
      payee:
        row.payeeAccountName && row.payeeAccountNumber && row.payeeIfsc
          ? { accountName: row.payeeAccountName, accountNumber: row.payeeAccountNumber, ifsc: row.payeeIfsc }
          : null,
      // The account the transfer came from, which the customer confirmed: found on the statement by its UTR.
      payingAccount:
        row.payeeAccountName && row.payeePaidWithUtr
          ? { accountName: row.payeeAccountName, utr: row.payeePaidWithUtr }
          : null,
      gatewayRefundId: row.gatewayRefundId,
      bankReference: row.bankReference,
      attempts: row.attempts,
      lastError: row.lastError,
    })),
  }
}

/** A bank-transfer refund the admin paid: DUE -> PROCESSED with the transfer's reference, audited. False when it was not due. */
export async function markRefundPaid({
  refundId,
  bankReference,
  adminId,
  now,
}: {
  refundId: string
  bankReference: string
  adminId: string
  now: Date
}): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.refund.updateMany({
      where: { id: refundId, status: 'DUE' },
      data: { status: 'PROCESSED', bankReference, processedAt: now },
    })
    if (count === 0) return false
    await recordAudit(
      tx,
      {
        actorId: adminId,
        action: 'refund.paid',
        subjectType: 'refund',
        subjectId: refundId,
        before: { status: 'DUE' },
        after: { status: 'PROCESSED', bankReference },
      },
      now,
    )
    return true
  })
}

/** A failed gateway refund tried again: FAILED -> PENDING, queued, audited. False when it had not failed. */
export async function retryRefund({
  refundId,
  adminId,
  now,
}: {
  refundId: string
  adminId: string
  now: Date
}): Promise<boolean> {
  const retried = await prisma.$transaction(async (tx) => {
    const failed = await tx.refund.findFirst({
      where: { id: refundId, status: 'FAILED' },
      select: { gatewayRefundId: true },
    })
    if (!failed) return false
    // A refund the gateway itself reported failed is asked for again as a new refund (a new
    // idempotency key, gatewayRefundIdempotencyKey); the failed one's id stays in the audit entry.
    await tx.refund.update({
      where: { id: refundId },
      data: { status: 'PENDING', lastError: null, gatewayRefundId: null },
    })
    await recordAudit(
      tx,
      {
        actorId: adminId,
        action: 'refund.retried',
        subjectType: 'refund',
        subjectId: refundId,
        before: { status: 'FAILED', gatewayRefundId: failed.gatewayRefundId },
        after: { status: 'PENDING' },
      },
      now,
    )
    return true
  })
  if (retried) await queueGatewayRefund(refundId)
  return retried
}
