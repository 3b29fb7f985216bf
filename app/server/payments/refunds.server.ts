import { readCartSnapshot } from '~/domain/cart'
import { formatIndiaDate } from '~/domain/dates'
import { getErrorMessage } from '~/domain/error-message'
import { advanceExcess } from '~/domain/purchase-limits'
import {
  endingRefundPaise,
  excessRefundPaise,
  type RefundBankAccount,
  type RefundReason,
  type RefundRoute,
} from '~/domain/refunds'
import { ADMIN_PAGE_SIZE } from '~/domain/admin'
import type { Page, PageRequest } from '~/domain/keyset'
import type { Prisma } from '~/generated/prisma/client'
import { recordAudit } from '../audit.server'
import { invalidate } from '../cache.server'
import { paymentGateway } from '../payment-gateway.server'
import { GatewayError, type PaymentGateway } from '../razorpay.server'
import { prisma } from '../db.server'
import { readKeysetPage } from '../keyset.server'
import { notifyRefund } from '../notify.server'
import { enqueueGatewayRefund } from '../queue.server'
import { subscriptionsCacheKey } from '../subscriptions.server'
import { recordRefundInLedger } from './ledger.server'

// Ending subscriptions and giving back the unexpired part (docs/payments.md, "Refunds"). The
// subscription's new end, the refund row and its ledger row (credit note) are one transaction; the
// money moves afterwards: a gateway refund through the refund-payment job (retried with backoff),
// a bank transfer by the admin (Mark paid on /admin/refunds).

/** Who ends a subscription: the customer (only their own) or an admin (with a reason, audited). */
export type EndedBy = { kind: 'customer' } | { kind: 'admin'; adminId: string }

/** Nothing of this service runs any more: an end request sent twice lands here the second time. */
export class NothingToEndError extends Error {
  override name = 'NothingToEndError'
  constructor() {
    super('This subscription has already ended.')
  }
}

/** Part of the refund is a bank transfer, and the customer has not given the account for it. */
export class BankAccountNeededError extends Error {
  override name = 'BankAccountNeededError'
  constructor() {
    super('Give the bank account the refund should be paid to.')
  }
}

type PeriodRow = Prisma.SubscriptionGetPayload<{
  select: typeof periodSelect
}>

const periodSelect = {
  id: true,
  userId: true,
  serviceId: true,
  startsAt: true,
  endsAt: true,
  originalEndsAt: true,
  service: { select: { name: true } },
  payment: { select: { id: true, method: true, cart: true, gatewayPaymentId: true } },
  refunds: { select: { amountPaise: true } },
} satisfies Prisma.SubscriptionSelect

/** A gateway payment is refunded to the card/UPI it came from; a bank transfer (or a payment the admin marked paid) by transfer. */
function routeOf(payment: NonNullable<PeriodRow['payment']>): RefundRoute {
  return payment.method === 'GATEWAY' && payment.gatewayPaymentId ? 'GATEWAY' : 'BANK_TRANSFER'
}

function refundOf(period: PeriodRow, at: Date): number {
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

function runningPeriods(db: Prisma.TransactionClient, userId: string, serviceId: string, at: Date) {
  return db.subscription.findMany({
    where: { userId, serviceId, endsAt: { gt: at } },
    select: periodSelect,
    orderBy: { startsAt: 'asc' },
  })
}

export type EndingPreview = {
  serviceName: string
  endsAt: Date
  refundPaise: number
  /** Of which back to the card/UPI used. */
  gatewayPaise: number
  /** Of which by bank transfer (the customer gives the account). */
  bankTransferPaise: number
}

/** What ending a customer's service at `at` would give back, for the confirmation step; null when nothing of it runs. */
export async function endingPreview(userId: string, serviceId: string, at: Date): Promise<EndingPreview | null> {
  const periods = await runningPeriods(prisma, userId, serviceId, at)
  if (periods.length === 0) return null
  let gatewayPaise = 0
  let bankTransferPaise = 0
  for (const period of periods) {
    const refund = refundOf(period, at)
    if (refund === 0 || !period.payment) continue
    if (routeOf(period.payment) === 'GATEWAY') gatewayPaise += refund
    else bankTransferPaise += refund
  }
  return {
    serviceName: periods[0]!.service.name,
    endsAt: periods.reduce((latest, period) => (period.endsAt > latest ? period.endsAt : latest), periods[0]!.endsAt),
    refundPaise: gatewayPaise + bankTransferPaise,
    gatewayPaise,
    bankTransferPaise,
  }
}

export type EndedService = {
  userId: string
  serviceName: string
  endedAt: Date
  refunds: { id: string; amountPaise: number; status: 'DUE' | 'PENDING'; creditNote: string }[]
}

/**
 * Ends every period of a customer's service still running at `at` (the current one and renewals
 * not yet started): each one's end becomes `at`, and each paid one gets its refund and credit note,
 * in one transaction under the customer's subscription lock (the one purchases take). Then queues
 * the gateway refunds and the customer's e-mail. Ending what has already ended is NothingToEndError.
 */
export async function endSubscription({
  userId,
  serviceId,
  by,
  reason,
  note = null,
  payeeAccount = null,
  now,
}: {
  userId: string
  serviceId: string
  by: EndedBy
  reason: Exclude<RefundReason, 'ADVANCE_LIMIT'>
  note?: string | null
  payeeAccount?: RefundBankAccount | null
  now: Date
}): Promise<EndedService> {
  const ended = await prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${subscriptionsCacheKey(userId)}, 0))::text`
    const periods = await runningPeriods(tx, userId, serviceId, now)
    if (periods.length === 0) throw new NothingToEndError()
    const refunds: EndedService['refunds'] = []
    for (const period of periods) {
      const refundPaise = refundOf(period, now)
      await tx.subscription.update({
        where: { id: period.id },
        data: { endsAt: now, endedAt: now, originalEndsAt: period.originalEndsAt ?? period.endsAt },
      })
      if (refundPaise === 0 || !period.payment) continue
      const route = routeOf(period.payment)
      if (route === 'BANK_TRANSFER' && by.kind === 'customer' && !payeeAccount) throw new BankAccountNeededError()
      const refund = await tx.refund.create({
        data: {
          userId,
          paymentId: period.payment.id,
          subscriptionId: period.id,
          kind: 'ENDING',
          reason,
          amountPaise: refundPaise,
          status: route === 'GATEWAY' ? 'PENDING' : 'DUE',
          note,
          actorId: by.kind === 'admin' ? by.adminId : null,
          ...(route === 'BANK_TRANSFER' && payeeAccount
            ? {
                payeeAccountName: payeeAccount.accountName,
                payeeAccountNumber: payeeAccount.accountNumber,
                payeeIfsc: payeeAccount.ifsc,
              }
            : {}),
          createdAt: now,
        },
        select: { id: true, amountPaise: true, status: true },
      })
      const { documentNumber } = await recordRefundInLedger(tx, {
        refundId: refund.id,
        paymentId: period.payment.id,
        refundPaise,
        at: now,
      })
      refunds.push({
        id: refund.id,
        amountPaise: refund.amountPaise,
        status: refund.status as 'DUE' | 'PENDING',
        creditNote: documentNumber,
      })
    }
    if (by.kind === 'admin') {
      await recordAudit(
        tx,
        {
          actorId: by.adminId,
          action: reason === 'SERVICES_STOPPED' ? 'subscription.stopped' : 'subscription.ended',
          subjectType: 'user',
          subjectId: userId,
          before: {
            serviceId,
            periods: periods.map((period) => ({ id: period.id, endsAt: period.endsAt.toISOString() })),
          },
          after: { endedAt: now.toISOString(), reason: note, refunds },
        },
        now,
      )
    }
    return { userId, serviceName: periods[0]!.service.name, endedAt: now, refunds }
  })
  await afterEnding(ended)
  return ended
}

async function afterEnding(ended: EndedService): Promise<void> {
  await invalidate(subscriptionsCacheKey(ended.userId))
  for (const refund of ended.refunds) {
    if (refund.status === 'PENDING') await queueGatewayRefund(refund.id)
  }
  await notifyRefund(ended)
}

/** Queues a gateway refund; if queueing fails the refund stays PENDING and the admin's Retry (or the next end) queues it. */
async function queueGatewayRefund(refundId: string): Promise<void> {
  try {
    await enqueueGatewayRefund(refundId)
  } catch (error) {
    console.error(`[refunds] could not queue gateway refund ${refundId}: ${getErrorMessage(error)}`)
  }
}

/**
 * The advance-limit case: a capture that took a service more than the limit ahead. Shortens the
 * subscription by `excessDays` and refunds that part (reason ADVANCE_LIMIT), in `tx` when given
 * (the caller's transaction) or its own. Returns the refund's id and amount, or null when nothing
 * is to be refunded. The caller queues nothing: call `afterExcessRefund` once `tx` committed.
 */
export async function refundExcess(
  {
    subscriptionId,
    excessDays,
    now,
  }: {
    subscriptionId: string
    excessDays: number
    now: Date
  },
  tx?: Prisma.TransactionClient,
): Promise<{ id: string; amountPaise: number; status: 'DUE' | 'PENDING' } | null> {
  const run = async (db: Prisma.TransactionClient) => {
    const period = await db.subscription.findUniqueOrThrow({ where: { id: subscriptionId }, select: periodSelect })
    if (!period.payment) return null
    const line = readCartSnapshot(period.payment.cart).find((item) => item.serviceId === period.serviceId)
    if (!line) return null
    const refundPaise = excessRefundPaise({ feePaise: line.pricePaise, daysBought: line.durationDays }, excessDays)
    await db.subscription.update({
      where: { id: period.id },
      data: {
        endsAt: new Date(period.endsAt.getTime() - Math.min(excessDays, line.durationDays) * 86_400_000),
        originalEndsAt: period.originalEndsAt ?? period.endsAt,
        endedAt: now,
      },
    })
    if (refundPaise === 0) return null
    const status = routeOf(period.payment) === 'GATEWAY' ? ('PENDING' as const) : ('DUE' as const)
    const refund = await db.refund.create({
      data: {
        userId: period.userId,
        paymentId: period.payment.id,
        subscriptionId: period.id,
        kind: 'EXCESS',
        reason: 'ADVANCE_LIMIT',
        amountPaise: refundPaise,
        status,
        note: `${excessDays} days beyond the one-year advance limit`,
        createdAt: now,
      },
      select: { id: true },
    })
    await recordRefundInLedger(db, { refundId: refund.id, paymentId: period.payment.id, refundPaise, at: now })
    return { id: refund.id, amountPaise: refundPaise, status }
  }
  return tx ? run(tx) : prisma.$transaction(run)
}

export type AdvanceExcessRefund = {
  id: string
  status: 'DUE' | 'PENDING'
  amountPaise: number
  serviceName: string
  excessDays: number
  endsAt: Date
  creditNote: string
}

/**
 * Money captured past the one-year advance limit (a gateway capture that raced the check): each of
 * the payment's subscriptions ending more than ADVANCE_LIMIT_DAYS after `paidAt` is cut by its
 * excess days and that part refunded, in the paying transaction (markPaymentPaid). The caller calls
 * `afterExcessRefund` and tells the customer once the transaction committed.
 */
export async function refundAdvanceExcess(
  tx: Prisma.TransactionClient,
  { subscriptionIds, paidAt }: { subscriptionIds: readonly string[]; paidAt: Date },
): Promise<AdvanceExcessRefund[]> {
  const periods = await tx.subscription.findMany({ where: { id: { in: [...subscriptionIds] } }, select: periodSelect })
  const refunds: AdvanceExcessRefund[] = []
  for (const period of periods) {
    const line = readCartSnapshot(period.payment?.cart ?? []).find((item) => item.serviceId === period.serviceId)
    if (!line) continue
    const { excessDays } = advanceExcess({
      paidAt,
      startsAt: period.startsAt,
      endsAt: period.endsAt,
      durationDays: line.durationDays,
      pricePaise: line.pricePaise,
    })
    if (excessDays === 0) continue
    const refund = await refundExcess({ subscriptionId: period.id, excessDays, now: paidAt }, tx)
    if (!refund) continue
    const entry = await tx.ledgerEntry.findFirstOrThrow({
      where: { refundId: refund.id },
      select: { documentNumber: true },
    })
    const cut = await tx.subscription.findUniqueOrThrow({ where: { id: period.id }, select: { endsAt: true } })
    refunds.push({
      ...refund,
      serviceName: line.name,
      excessDays,
      endsAt: cut.endsAt,
      creditNote: entry.documentNumber,
    })
  }
  return refunds
}

/** After the transaction that made an excess refund committed: the gateway refund is queued. */
export async function afterExcessRefund(
  refund: { id: string; status: 'DUE' | 'PENDING' },
  userId: string,
): Promise<void> {
  await invalidate(subscriptionsCacheKey(userId))
  if (refund.status === 'PENDING') await queueGatewayRefund(refund.id)
}

// ---------------------------------------------------------------------------------------------
// Stopping every service (a suspended or cancelled registration: SEBI's MITC, Annexure B item 8).

/** Every customer's service still running at `effectiveFrom`, with what ending it then gives back. */
export async function stopAllServicesPreview(
  effectiveFrom: Date,
): Promise<{ subscriptions: number; customers: number; refundPaise: number }> {
  const periods = await prisma.subscription.findMany({ where: { endsAt: { gt: effectiveFrom } }, select: periodSelect })
  return {
    subscriptions: new Set(periods.map((period) => `${period.userId}:${period.serviceId}`)).size,
    customers: new Set(periods.map((period) => period.userId)).size,
    refundPaise: periods.reduce((sum, period) => sum + refundOf(period, effectiveFrom), 0),
  }
}

/**
 * Ends every customer's service running at `effectiveFrom` with its proportionate refund as at that
 * date (reason SERVICES_STOPPED), one customer's service per transaction, each audited, and one
 * audit entry for the whole action. Returns what it ended.
 */
export async function stopAllServices({
  effectiveFrom,
  reason,
  adminId,
}: {
  effectiveFrom: Date
  reason: string
  adminId: string
}): Promise<{ subscriptions: number; refundPaise: number }> {
  const running = await prisma.subscription.findMany({
    where: { endsAt: { gt: effectiveFrom } },
    distinct: ['userId', 'serviceId'],
    select: { userId: true, serviceId: true },
  })
  let subscriptions = 0
  let refundPaise = 0
  for (const { userId, serviceId } of running) {
    try {
      const ended = await endSubscription({
        userId,
        serviceId,
        by: { kind: 'admin', adminId },
        reason: 'SERVICES_STOPPED',
        note: reason,
        now: effectiveFrom,
      })
      subscriptions += 1
      refundPaise += ended.refunds.reduce((sum, refund) => sum + refund.amountPaise, 0)
    } catch (error) {
      if (!(error instanceof NothingToEndError)) throw error
    }
  }
  await prisma.$transaction((tx) =>
    recordAudit(tx, {
      actorId: adminId,
      action: 'services.stopped',
      subjectType: 'business',
      subjectId: 'all',
      before: null,
      after: { effectiveFrom: effectiveFrom.toISOString(), reason, subscriptions, refundPaise },
    }),
  )
  return { subscriptions, refundPaise }
}

// ---------------------------------------------------------------------------------------------
// The admin's refund queue.

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
      serviceName: row.subscription.service.name,
      amountPaise: row.amountPaise,
      reason: row.reason,
      status: row.status,
      createdOn: formatIndiaDate(row.createdAt),
      processedOn: row.processedAt ? formatIndiaDate(row.processedAt) : null,
      payee:
        row.payeeAccountName && row.payeeAccountNumber && row.payeeIfsc
          ? { accountName: row.payeeAccountName, accountNumber: row.payeeAccountNumber, ifsc: row.payeeIfsc }
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

// ---------------------------------------------------------------------------------------------
// The refund-payment job.

/**
 * One try of a gateway refund (the refund-payment job): asks Razorpay to refund, with our refund id
 * as its idempotency key, so a retry after a lost answer refunds once. Processed or pending at the
 * gateway is recorded; a failure is thrown for the queue to retry, or on the last attempt (or a
 * refusal that would fail the same way again) recorded as FAILED for the admin.
 */
/**
 * The refund's id, so a retry after a lost answer (or a failed call, whatever the admin does) can
 * never refund twice; with a suffix per time the gateway itself reported the refund failed and the
 * admin retried, since Razorpay answers a repeated key with the same failed refund.
 */
async function gatewayRefundIdempotencyKey(refundId: string): Promise<string> {
  const [row] = await prisma.$queryRaw<{ rounds: bigint }[]>`
    SELECT count(*) AS rounds FROM audit_logs
    WHERE action = 'refund.retried' AND subject_type = 'refund' AND subject_id = ${refundId}
      AND before->>'gatewayRefundId' IS NOT NULL`
  const rounds = Number(row?.rounds ?? 0)
  return rounds === 0 ? refundId : `${refundId}-r${rounds}`
}

export async function sendGatewayRefund(
  refundId: string,
  { lastAttempt }: { lastAttempt: boolean },
  gateway: PaymentGateway = paymentGateway(),
  now = new Date(),
): Promise<'processed' | 'pending' | 'failed' | 'skipped'> {
  const refund = await prisma.refund.findUnique({
    where: { id: refundId },
    select: { status: true, amountPaise: true, gatewayRefundId: true, payment: { select: { gatewayPaymentId: true } } },
  })
  if (!refund || refund.status !== 'PENDING' || refund.gatewayRefundId || !refund.payment.gatewayPaymentId)
    return 'skipped'
  await prisma.refund.update({ where: { id: refundId }, data: { attempts: { increment: 1 } } })
  try {
    const answer = await gateway.refundPayment({
      paymentId: refund.payment.gatewayPaymentId,
      amountPaise: refund.amountPaise,
      idempotencyKey: await gatewayRefundIdempotencyKey(refundId),
      notes: { refundId },
    })
    await recordGatewayRefundStatus(refundId, answer.id, answer.status, now)
    return answer.status
  } catch (error) {
    const message = getErrorMessage(error)
    const final = lastAttempt || (error instanceof GatewayError && !error.retryable)
    await prisma.refund.updateMany({
      where: { id: refundId, status: 'PENDING' },
      data: { lastError: message, ...(final ? { status: 'FAILED' } : {}) },
    })
    console.error(`[refunds] gateway refund ${refundId} failed${final ? ' for the last time' : ''}: ${message}`)
    if (final) return 'failed'
    throw error
  }
}

/** What the gateway says of a refund (its answer, or a refund.processed / refund.failed webhook). */
export async function recordGatewayRefundStatus(
  refundId: string,
  gatewayRefundId: string,
  status: 'pending' | 'processed' | 'failed',
  now: Date,
): Promise<void> {
  await prisma.refund.updateMany({
    where: { id: refundId, status: { in: ['PENDING', 'FAILED'] } },
    data: {
      gatewayRefundId,
      ...(status === 'processed' ? { status: 'PROCESSED', processedAt: now, lastError: null } : {}),
      ...(status === 'failed' ? { status: 'FAILED', lastError: 'The gateway reported the refund failed' } : {}),
    },
  })
}
