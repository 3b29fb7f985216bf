import { ADMIN_PAGE_SIZE, type BankStatementEntry, type PAYMENT_STATUSES, type PaymentListFilter } from '~/domain/admin'
import { readCartSnapshot } from '~/domain/cart'
import { formatIndiaDate, indiaMidnight, MS_PER_DAY } from '~/domain/dates'
import { MANUAL_PAYMENT_EXPIRY_DAYS, openManualClaimWhere } from '~/domain/payment-status'
import { ADVANCE_LIMIT_DAYS, advanceExcess } from '~/domain/purchase-limits'
import type { PageRequest } from '~/domain/keyset'
import type { PayerNameCheck } from '~/domain/payer-name-match'
import { Prisma } from '~/generated/prisma/client'
import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'
import { keysetSql, readKeysetPage } from '../keyset.server'
import { notifyPaymentRejected } from '../messaging/customer-notices.server'
import { confirmManualPayment, PayerNameMismatchError, rejectManualPayment } from '../payments/manual-claims.server'
import { PaymentError, PaymentStateError } from '../payments/core.server'

/** Rows per list: the review queue is short in practice; the gateway list is a recent window. */
export const ADMIN_LIST_LIMIT = 200

const customerSelect = { id: true, name: true, phone: true, email: true } as const

/**
 * "Payments to review": manual claims still pending and inside their 7 days, oldest first. Claims
 * past expiresAt are left out even before the settle-payments job marks them EXPIRED.
 */
/**
 * Claims the review queue shows at once, oldest first: as they are confirmed or rejected the next
 * come up. (Rendering 200 review forms took a quarter of a second at 700 waiting claims.)
 */
export const REVIEW_QUEUE_SIZE = 50

export async function pendingManualPaymentsForReview(now: Date, take = REVIEW_QUEUE_SIZE) {
  const rows = await prisma.payment.findMany({
    where: openManualClaimWhere(now),
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take,
    select: {
      id: true,
      amountPaise: true,
      currency: true,
      cart: true,
      utr: true,
      payerAccountName: true,
      createdAt: true,
      expiresAt: true,
      user: { select: { ...customerSelect, kycNameOnRecord: true } },
    },
  })
  return rows.map(({ cart, expiresAt, user: { kycNameOnRecord, ...user }, ...row }) => ({
    ...row,
    user,
    /** The name a confirmation's payer name is checked against (confirmManualPayment). */
    kycName: kycNameOnRecord ?? user.name,
    cart: readCartSnapshot(cart),
    expiresAt: expiresAt!,
    ageMs: now.getTime() - row.createdAt.getTime(),
    timeLeftMs: expiresAt!.getTime() - now.getTime(),
  }))
}

/** All claims waiting for review, however many the queue shows. */
export function countManualClaimsToReview(now: Date): Promise<number> {
  return prisma.payment.count({ where: openManualClaimWhere(now) })
}

type PaymentListRow = {
  id: string
  method: 'GATEWAY' | 'MANUAL'
  status: (typeof PAYMENT_STATUSES)[number]
  amountPaise: number
  currency: string
  cart: unknown
  gatewayOrderId: string | null
  gatewayPaymentId: string | null
  failureReason: string | null
  utr: string | null
  payerAccountName: string | null
  bankUtr: string | null
  bankPayerName: string | null
  payerNameCheck: PayerNameCheck | null
  payerNameMismatchReason: string | null
  createdAt: Date
  paidAt: Date | null
  userId: string
  userName: string | null
  userPhone: string
  userEmail: string | null
}

/** The query of one page of paymentsForAdmin (exported for the EXPLAIN test). */
export function paymentListSql(filter: PaymentListFilter, page: PageRequest, take: number): Prisma.Sql {
  const conditions = [
    filter.method ? Prisma.sql`p.method = ${filter.method}::"PaymentMethod"` : null,
    filter.status ? Prisma.sql`p.status = ${filter.status}::"PaymentStatus"` : null,
    filter.from ? Prisma.sql`p.created_at >= ${indiaMidnight(filter.from)}` : null,
    filter.to ? Prisma.sql`p.created_at < ${new Date(indiaMidnight(filter.to).getTime() + MS_PER_DAY)}` : null,
  ].filter((condition) => condition !== null)
  const keyset = keysetSql(page, 'p.created_at', 'p.id', 'uuid')
  return Prisma.sql`
    SELECT p.id::text, p.method::text, p.status::text, p.amount_paise AS "amountPaise", p.currency, p.cart,
           p.gateway_order_id AS "gatewayOrderId", p.gateway_payment_id AS "gatewayPaymentId",
           p.failure_reason AS "failureReason", p.utr, p.payer_account_name AS "payerAccountName",
           p.bank_utr AS "bankUtr", p.bank_payer_name AS "bankPayerName", p.payer_name_check::text AS "payerNameCheck",
           p.payer_name_mismatch_reason AS "payerNameMismatchReason", p.created_at AS "createdAt", p.paid_at AS "paidAt",
           u.id::text AS "userId", u.name AS "userName", u.phone AS "userPhone", u.email AS "userEmail"
    FROM payments p JOIN users u ON u.id = p.user_id
    WHERE ${Prisma.join([...conditions, keyset.where], ' AND ')}
    ${keyset.orderBy}
    LIMIT ${take}`
}

/**
 * Every payment, newest first in (created_at, id) order, one keyset page at a time, by method,
 * status and India calendar dates (both ends included). Each filter combination reads an index of
 * the migration 20261127600000_scale_indexes from the page's key on: the cost of a page does not
 * grow with the table.
 */
export async function paymentsForAdmin(filter: PaymentListFilter, page: PageRequest = null, size = ADMIN_PAGE_SIZE) {
  const result = await readKeysetPage(
    page,
    size,
    (at, take) => prisma.$queryRaw<PaymentListRow[]>(paymentListSql(filter, at, take)),
    (row) => ({ at: row.createdAt, id: row.id }),
  )
  return {
    ...result,
    rows: result.rows.map(({ cart, userId, userName, userPhone, userEmail, ...row }) => ({
      ...row,
      cart: readCartSnapshot(cart),
      user: { id: userId, name: userName, phone: userPhone, email: userEmail },
    })),
  }
}

export type ReviewOutcome =
  | { ok: true; message: string }
  | { ok: false; status: 404 | 409; message: string }
  /** The confirmation's payer name is not the KYC name and no reason was given: shown on the reason's field. */
  | { ok: false; status: 400; field: 'nameMismatchReason'; message: string }

/**
 * Confirm: the transfer arrived, and `statement` is what the bank statement shows for it (its UTR
 * and the payer's account name; a payer name unlike the KYC name needs the reason it is accepted).
 * markPaymentPaid pays it exactly once however many admins click; only the click that paid stores
 * the statement's entry, writes the audit entry with it (in the paying transaction) and e-mails the customer.
 */
export async function confirmPaymentAsAdmin(
  actorId: string,
  paymentId: string,
  statement: BankStatementEntry,
  now = new Date(),
): Promise<ReviewOutcome> {
  let result
  try {
    result = await confirmManualPayment(paymentId, statement, {
      now,
      onPaid: (tx, paid, recorded) =>
        recordAudit(
          tx,
          {
            actorId,
            action: 'payment.confirm',
            subjectType: 'Payment',
            subjectId: paymentId,
            before: { status: paid.status },
            after: {
              status: 'PAID',
              paidAt: now.toISOString(),
              paidVia: 'admin',
              subscriptionIds: paid.subscriptionIds,
              bankUtr: recorded.bankUtr,
              bankPayerName: recorded.bankPayerName,
              kycName: recorded.kycName,
              payerNameCheck: recorded.payerNameCheck,
              payerNameMismatchReason: recorded.payerNameMismatchReason,
            },
          },
          now,
        ),
    })
  } catch (error) {
    if (error instanceof PayerNameMismatchError)
      return { ok: false, status: 400, field: 'nameMismatchReason', message: error.message }
    // The purchase's limits, checked again as the claim is paid (the same message /pay gives).
    if (error instanceof PaymentError) return { ok: false, status: 409, message: error.message }
    if (!(error instanceof PaymentStateError)) throw error
    if (error.reason === 'not-found') return { ok: false, status: 404, message: 'That payment does not exist.' }
    if (error.reason === 'account-closed')
      return {
        ok: false,
        status: 409,
        message: `The customer closed their account on ${error.closedAt ? formatIndiaDate(error.closedAt) : 'an earlier day'}: this claim cannot be confirmed and nothing was paid. If the transfer arrived, return it to the account it came from.`,
      }
    if (error.reason === 'expired')
      return {
        ok: false,
        status: 409,
        message: `That payment expired after ${MANUAL_PAYMENT_EXPIRY_DAYS} days and can no longer be confirmed.`,
      }
    return { ok: false, status: 409, message: 'That payment is no longer pending and cannot be confirmed.' }
  }
  if (result.alreadyPaid) return { ok: true, message: 'That payment was already confirmed.' }

  // markPaymentPaid queued the confirmation e-mail (it does for every path that pays).
  return { ok: true, message: 'Payment confirmed; the subscriptions are active and the customer was e-mailed.' }
}

/** Reject: the claimed transfer was not found. Final; audited in the same transaction; the customer is told why. */
export async function rejectPaymentAsAdmin(
  actorId: string,
  paymentId: string,
  reason: string,
  now = new Date(),
): Promise<ReviewOutcome> {
  const rejected = await rejectManualPayment(paymentId, reason, {
    now,
    onRejected: (tx, payment) =>
      recordAudit(
        tx,
        {
          actorId,
          action: 'payment.reject',
          subjectType: 'Payment',
          subjectId: paymentId,
          before: { status: 'PENDING_VERIFICATION' },
          after: { status: 'REJECTED', rejectedReason: payment.reason },
        },
        now,
      ),
  })
  if (!rejected) {
    const exists = await prisma.payment.count({ where: { id: paymentId } })
    return exists
      ? {
          ok: false,
          status: 409,
          message: 'That payment is no longer pending (or has expired) and cannot be rejected.',
        }
      : { ok: false, status: 404, message: 'That payment does not exist.' }
  }
  await notifyPaymentRejected(paymentId)
  return { ok: true, message: 'Payment rejected; the customer was e-mailed the reason.' }
}

type OverLimitRow = {
  subscriptionId: string
  paymentId: string
  paidAt: Date
  startsAt: Date
  endsAt: Date
  cart: unknown
  serviceId: string
  customerId: string
  customerName: string | null
  customerPhone: string
}

/** One paid subscription whose period reaches beyond SEBI's one-year advance limit, and what is owed back for it. */
export type OverLimitPeriod = {
  subscriptionId: string
  paymentId: string
  customer: { id: string; name: string | null; phone: string }
  serviceName: string
  paidAt: Date
  endsAt: Date
  /** True when the end was cut at the limit when the payment was captured; false when it still runs beyond it. */
  cutAtLimit: boolean
  excessDays: number
  excessPaise: number
}

/**
 * "Over the one-year advance limit": paid subscriptions the admin should refund in part, read-only:
 * periods sold before the rule that still run and end more than ADVANCE_LIMIT_DAYS after their
 * payment, without an excess refund yet. (A period cut at the limit because a gateway capture
 * raced the check gets its excess refund in the paying transaction.) Oldest payment first.
 */
export function overLimitSql(now: Date) {
  // Read through the index on (ends_at - paid_at): few periods lie beyond the limit.
  const beyondLimit = Prisma.sql`s.ends_at - s.paid_at > make_interval(days => ${ADVANCE_LIMIT_DAYS}::int)`
  return Prisma.sql`
    SELECT s.id::text AS "subscriptionId", p.id::text AS "paymentId", p.paid_at AS "paidAt",
           s.starts_at AS "startsAt", s.ends_at AS "endsAt", p.cart, s.service_id::text AS "serviceId",
           u.id::text AS "customerId", u.name AS "customerName", u.phone AS "customerPhone"
    FROM subscriptions s
    JOIN payments p ON p.id = s.payment_id
    JOIN users u ON u.id = s.user_id
    WHERE ${beyondLimit} AND s.ends_at > ${now}
      AND NOT EXISTS (SELECT 1 FROM refunds r WHERE r.subscription_id = s.id AND r.kind = 'EXCESS')
    ORDER BY p.paid_at, s.starts_at
    LIMIT ${ADMIN_LIST_LIMIT}`
}

export async function overLimitPeriods(now: Date): Promise<OverLimitPeriod[]> {
  const rows = await prisma.$queryRaw<OverLimitRow[]>(overLimitSql(now))
  return rows.flatMap((row) => {
    const line = readCartSnapshot(row.cart).find((item) => item.serviceId === row.serviceId)
    if (!line) return []
    const boughtEndsAt = new Date(row.startsAt.getTime() + line.durationDays * MS_PER_DAY)
    const excess = advanceExcess({
      ...row,
      endsAt: boughtEndsAt,
      durationDays: line.durationDays,
      pricePaise: line.pricePaise,
    })
    return [
      {
        subscriptionId: row.subscriptionId,
        paymentId: row.paymentId,
        customer: { id: row.customerId, name: row.customerName, phone: row.customerPhone },
        serviceName: line.name,
        paidAt: row.paidAt,
        endsAt: row.endsAt,
        cutAtLimit: row.endsAt < boughtEndsAt,
        excessDays: excess.excessDays,
        excessPaise: excess.excessPaise,
      },
    ]
  })
}
