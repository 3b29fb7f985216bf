import { readCartSnapshot, sameServices, type CartItem } from '~/domain/cart'
import { MS_PER_DAY } from '~/domain/dates'
import {
  MANUAL_PAYMENT_EXPIRY_DAYS,
  openManualClaimWhere,
  overdueManualClaimWhere,
  REJECTED_CLAIM_SHOWN_DAYS,
} from '~/domain/payment-status'
import type { BankStatementEntry } from '~/domain/admin'
import { payerNameCheck, type PayerNameCheck } from '~/domain/payer-name-match'
import { isUuid } from '~/domain/uuid'
import type { Prisma } from '~/generated/prisma/client'
import { prisma } from '../db.server'
import { env } from '../env.server'
import {
  checkoutCart,
  CURRENCY,
  FAILURE_REASON_MAX_LENGTH,
  invalidateUserPayments,
  markPaymentPaid,
  PaymentError,
  type PaidPayment,
} from './core.server'
import { assertPurchaseAllowed, lockFamilyPurchases } from './purchase-limits.server'
import { notifyClaimReceived } from '../messaging/customer-notices.server'

// Manual claims ("I'll Pay & Send Screenshot"): the customer's claim of a bank transfer, which the
// team confirms or rejects in the admin console while it is open (isOpenManualClaim), or which expires.

export { MANUAL_PAYMENT_EXPIRY_DAYS, REJECTED_CLAIM_SHOWN_DAYS }
/** A second identical manual submit within this window is the same claim (a double click, a resubmitted form). */
export const MANUAL_DUPLICATE_WINDOW_MS = 60_000
/**
 * Bank transfer claims a customer may have waiting for the team at once (MANUAL_OPEN_CLAIMS_MAX):
 * enough for a customer paying for several things in turn, few enough that nobody can fill the
 * team's queue with claims for money never sent.
 */
export const MANUAL_OPEN_CLAIMS_MAX = env.MANUAL_OPEN_CLAIMS_MAX

export type ManualPaymentResult = { paymentId: string; created: boolean; amountPaise: number; expiresAt: Date }

/**
 * "I'll Pay & Send Screenshot": a PENDING_VERIFICATION claim for the cart at current prices,
 * expiring after MANUAL_PAYMENT_EXPIRY_DAYS. A double submit creates one claim: the same
 * idempotency key (a hidden field the form renders) returns the first claim, and without a key an
 * identical pending claim of the last MANUAL_DUPLICATE_WINDOW_MS is reused. Submits of one user
 * are serialised (the purchase lock) so two racing requests cannot both create, and a new claim
 * must pass the purchase's limits (assertPurchaseAllowed).
 */
export async function createManualPayment(
  userId: string,
  cartIds: readonly string[],
  {
    idempotencyKey,
    utr,
    payerAccountName,
    expectedAmountPaise,
    now = new Date(),
  }: {
    idempotencyKey?: string
    utr?: string
    /** The name on the account the transfer comes from. */
    payerAccountName?: string
    expectedAmountPaise?: number
    now?: Date
  } = {},
): Promise<ManualPaymentResult> {
  const { items, amountPaise } = await checkoutCart(cartIds, expectedAmountPaise)
  const serviceIds = items.map((item) => item.serviceId)
  const claimedServiceIds = (claim: { cart: unknown }) => readCartSnapshot(claim.cart).map((item) => item.serviceId)
  const result = await prisma.$transaction(async (tx) => {
    await lockFamilyPurchases(tx, userId)
    const select = { id: true, amountPaise: true, expiresAt: true, cart: true } as const
    const existing = idempotencyKey
      ? await tx.payment.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey } }, select })
      : (
          await tx.payment.findMany({
            where: {
              userId,
              ...openManualClaimWhere(now),
              amountPaise,
              createdAt: { gte: new Date(now.getTime() - MANUAL_DUPLICATE_WINDOW_MS) },
            },
            select,
          })
        ).find((candidate) => sameServices(claimedServiceIds(candidate), serviceIds))
    if (existing) {
      if (!sameServices(claimedServiceIds(existing), serviceIds)) {
        throw new PaymentError(
          'idempotency-key-reused',
          'This request repeats an earlier claim for a different cart. Reload the page and submit again.',
          409,
        )
      }
      return {
        paymentId: existing.id,
        created: false,
        amountPaise: existing.amountPaise,
        expiresAt: existing.expiresAt!,
      }
    }
    const openClaims = await tx.payment.count({ where: { userId, ...openManualClaimWhere(now) } })
    if (openClaims >= MANUAL_OPEN_CLAIMS_MAX) {
      throw new PaymentError(
        'too-many-open-claims',
        `You already have ${openClaims} bank transfers waiting for our team to check. Please wait until one is confirmed or rejected, or pay on the website.`,
        409,
      )
    }
    await assertPurchaseAllowed(tx, { userId, items, now })
    const expiresAt = new Date(now.getTime() + MANUAL_PAYMENT_EXPIRY_DAYS * MS_PER_DAY)
    const payment = await tx.payment.create({
      data: {
        userId,
        method: 'MANUAL',
        status: 'PENDING_VERIFICATION',
        amountPaise,
        currency: CURRENCY,
        cart: items,
        expiresAt,
        createdAt: now,
        ...(idempotencyKey ? { idempotencyKey } : {}),
        ...(utr ? { utr } : {}),
        ...(payerAccountName ? { payerAccountName } : {}),
      },
      select: { id: true },
    })
    return { paymentId: payment.id, created: true, amountPaise, expiresAt }
  })
  await invalidateUserPayments(userId)
  // After the commit, once per claim (a repeated submit answers the first claim and says nothing again).
  if (result.created) await notifyClaimReceived(result.paymentId)
  return result
}

/** The confirmation's payer name is not the customer's KYC name, and no reason was given for accepting it. */
export class PayerNameMismatchError extends Error {
  override name = 'PayerNameMismatchError'
  constructor(
    readonly payerName: string,
    readonly kycName: string | null,
  ) {
    super(
      kycName
        ? `The payer's name "${payerName}" does not match the KYC name "${kycName}". Give the reason you accept this payment (it is recorded in the audit log), or reject it.`
        : `The customer has no KYC name to compare "${payerName}" with. Give the reason you accept this payment (it is recorded in the audit log), or reject it.`,
    )
  }
}

/** What a confirmation recorded on the payment: the bank statement's entry and its name check. */
export type RecordedBankStatement = {
  bankUtr: string
  bankPayerName: string
  kycName: string | null
  payerNameCheck: PayerNameCheck
  payerNameMismatchReason: string | null
}

/**
 * Admin console: the transfer arrived, as the bank statement shows. Goes through the one path to
 * subscriptions; inside its transaction the payer's account name is checked against the customer's
 * KYC name (a mismatch without a reason is PayerNameMismatchError, and nothing is paid), the
 * statement's entry is stored on the payment, and the claim must still pass the purchase's limits,
 * counting everything committed but the claim itself (a PaymentError otherwise).
 */
export function confirmManualPayment(
  paymentId: string,
  statement: BankStatementEntry,
  {
    now = new Date(),
    onPaid,
  }: {
    now?: Date
    onPaid?: (tx: Prisma.TransactionClient, paid: PaidPayment, recorded: RecordedBankStatement) => Promise<void>
  } = {},
) {
  let recorded: RecordedBankStatement | null = null
  return markPaymentPaid(paymentId, {
    paidAt: now,
    source: 'admin',
    beforePaid: async (tx, payment) => {
      const customer = await tx.user.findUniqueOrThrow({
        where: { id: payment.userId },
        select: { name: true, kycNameOnRecord: true },
      })
      const kycName = customer.kycNameOnRecord ?? customer.name
      const check = payerNameCheck(statement.payerName, kycName)
      const reason = statement.nameMismatchReason?.trim() || null
      if (check === 'MISMATCH' && !reason) throw new PayerNameMismatchError(statement.payerName, kycName)
      recorded = {
        bankUtr: statement.utr,
        bankPayerName: statement.payerName,
        kycName,
        payerNameCheck: check,
        payerNameMismatchReason: check === 'MISMATCH' ? reason : null,
      }
      await tx.payment.update({
        where: { id: paymentId },
        data: {
          bankUtr: recorded.bankUtr,
          bankPayerName: recorded.bankPayerName,
          payerNameCheck: recorded.payerNameCheck,
          payerNameMismatchReason: recorded.payerNameMismatchReason,
        },
      })
      await assertPurchaseAllowed(tx, {
        userId: payment.userId,
        items: payment.items,
        now,
        excludePaymentId: paymentId,
      })
    },
    onPaid: onPaid ? (tx, paid) => onPaid(tx, paid, recorded!) : undefined,
  })
}

/**
 * The customer adds or corrects the bank transfer reference of their own claim while the team has
 * not decided it yet. False when there is no such pending claim of theirs (decided, expired, or another's).
 */
export async function setManualPaymentUtr(
  userId: string,
  paymentId: string,
  utr: string,
  now = new Date(),
): Promise<boolean> {
  if (!isUuid(paymentId)) return false
  const { count } = await prisma.payment.updateMany({
    where: { id: paymentId, userId, ...openManualClaimWhere(now) },
    data: { utr },
  })
  if (count > 0) await invalidateUserPayments(userId)
  return count > 0
}

export type RejectedPayment = { paymentId: string; userId: string; reason: string }

/**
 * Admin console: the claimed transfer was not found. Final. Only a claim still pending and inside
 * its 7 days can be rejected; `onRejected` runs in the same transaction (the audit log).
 */
export async function rejectManualPayment(
  paymentId: string,
  reason: string,
  {
    now = new Date(),
    onRejected,
  }: { now?: Date; onRejected?: (tx: Prisma.TransactionClient, rejected: RejectedPayment) => Promise<void> } = {},
): Promise<boolean> {
  const storedReason = reason.slice(0, FAILURE_REASON_MAX_LENGTH)
  const rejected = await prisma.$transaction(async (tx) => {
    const [row] = await tx.payment.updateManyAndReturn({
      where: { id: paymentId, ...openManualClaimWhere(now) },
      data: { status: 'REJECTED', rejectedReason: storedReason },
      select: { userId: true },
    })
    if (!row) return null
    await onRejected?.(tx, { paymentId, userId: row.userId, reason: storedReason })
    return row
  })
  if (rejected) await invalidateUserPayments(rejected.userId)
  return rejected !== null
}

/** Claims expired per statement. */
export const EXPIRE_BATCH_ROWS = 500

/** Manual claims unconfirmed after MANUAL_PAYMENT_EXPIRY_DAYS are dismissed (the promise the payment page makes, enforced). */
export async function expireManualPayments(now: Date, batchRows = EXPIRE_BATCH_ROWS): Promise<number> {
  let expiredCount = 0
  for (;;) {
    // Each batch is its own statement: rows the admin queue reads are locked for one batch at a time.
    const due = await prisma.payment.findMany({
      where: overdueManualClaimWhere(now),
      take: batchRows,
      select: { id: true },
    })
    const expired = await prisma.payment.updateManyAndReturn({
      where: { ...overdueManualClaimWhere(now), id: { in: due.map((row) => row.id) } },
      data: { status: 'EXPIRED' },
      select: { userId: true },
    })
    for (const userId of new Set(expired.map((row) => row.userId))) await invalidateUserPayments(userId)
    expiredCount += expired.length
    if (due.length < batchRows) return expiredCount
  }
}

export type RejectedClaim = {
  id: string
  amountPaise: number
  cart: CartItem[]
  createdAt: Date
  reason: string | null
}

/** The customer's claims the team rejected in the last REJECTED_CLAIM_SHOWN_DAYS, newest first. */
export async function recentlyRejectedClaims(userId: string, now: Date): Promise<RejectedClaim[]> {
  const rows = await prisma.payment.findMany({
    where: {
      userId,
      method: 'MANUAL',
      status: 'REJECTED',
      createdAt: { gt: new Date(now.getTime() - REJECTED_CLAIM_SHOWN_DAYS * MS_PER_DAY) },
    },
    orderBy: { createdAt: 'desc' },
    select: { id: true, amountPaise: true, cart: true, createdAt: true, rejectedReason: true },
  })
  return rows.map(({ cart, rejectedReason, ...row }) => ({
    ...row,
    cart: readCartSnapshot(cart),
    reason: rejectedReason,
  }))
}

/** The services of the customer's rejected claim, which replace the cart ("Pay again"); empty when it is not theirs. */
export async function rejectedClaimServices(userId: string, paymentId: string): Promise<CartItem[]> {
  if (!isUuid(paymentId)) return []
  const claim = await prisma.payment.findFirst({
    where: { id: paymentId, userId, method: 'MANUAL', status: 'REJECTED' },
    select: { cart: true },
  })
  return claim ? readCartSnapshot(claim.cart) : []
}
