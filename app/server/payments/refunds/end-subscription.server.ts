import { type RefundBankAccount, type RefundReason } from '~/domain/refunds'
import type { Prisma } from '~/generated/prisma/client'
import { recordAudit } from '../../audit.server'
import { invalidate } from '../../cache.server'
import { prisma } from '../../db.server'
import { notifyRefund } from '../../messaging/customer-notices.server'
import { subscriptionsCacheKey } from '../subscriptions.server'
import { recordRefundInLedger } from '../ledger.server'
import {
  payingAccountOf,
  refundOf,
  routeOf,
  runningPeriods,
  type PayingAccount,
  type PeriodRow,
} from './periods.server'
import { queueGatewayRefund } from './gateway-refund.server'
import { cancelLiveMandateIn, cancelMandatesAtGateway } from '../mandate-lifecycle.server'
import { lockFamilyPurchases } from '../purchase-lock.server'

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
  constructor(message = 'Give the bank account the refund should be paid to.') {
    super(message)
  }
}

/** The refund goes back to the account the transfer came from, and the customer has not confirmed it. */
export class PayingAccountNotConfirmedError extends BankAccountNeededError {
  override name = 'PayingAccountNotConfirmedError'
  constructor() {
    super('Confirm the account your transfer came from: the refund is paid back to it.')
  }
}

/** A customer asked for a bank transfer's refund to go to an account other than the one that paid. */
export class RefundToOtherAccountError extends Error {
  override name = 'RefundToOtherAccountError'
  constructor() {
    super(
      'A bank transfer is refunded only to the account it came from, not to another one. Confirm that account below; if it is closed, write to us.',
    )
  }
}
export type EndingPreview = {
  serviceName: string
  endsAt: Date
  refundPaise: number
  /** Of which back to the card/UPI used. */
  gatewayPaise: number
  /** Of which by bank transfer: back to the paying account when the confirmation recorded it, else to an account the customer gives. */
  bankTransferPaise: number
  /** The accounts the bank transfers came from (each once), which the customer confirms. */
  payingAccounts: PayingAccount[]
  /** Some bank transfer was confirmed before the paying account was recorded: the customer gives the account. */
  needsTypedAccount: boolean
}

/** What ending a customer's service at `at` would give back, for the confirmation step; null when nothing of it runs. */
export async function endingPreview(userId: string, serviceId: string, at: Date): Promise<EndingPreview | null> {
  const periods = await runningPeriods(prisma, userId, serviceId, at)
  if (periods.length === 0) return null
  let gatewayPaise = 0
  let bankTransferPaise = 0
  const payingAccounts = new Map<string, PayingAccount>()
  let needsTypedAccount = false
  for (const period of periods) {
    const refund = refundOf(period, at)
    if (refund === 0 || !period.payment) continue
    if (routeOf(period.payment) === 'GATEWAY') gatewayPaise += refund
    else {
      bankTransferPaise += refund
      const paying = payingAccountOf(period.payment)
      if (paying) payingAccounts.set(`${paying.utr}\u0000${paying.accountName}`, paying)
      else needsTypedAccount = true
    }
  }
  return {
    serviceName: periods[0]!.service.name,
    endsAt: periods.reduce((latest, period) => (period.endsAt > latest ? period.endsAt : latest), periods[0]!.endsAt),
    refundPaise: gatewayPaise + bankTransferPaise,
    gatewayPaise,
    bankTransferPaise,
    payingAccounts: [...payingAccounts.values()],
    needsTypedAccount,
  }
}

export type EndedService = {
  userId: string
  serviceName: string
  endedAt: Date
  refunds: { id: string; amountPaise: number; status: 'DUE' | 'PENDING'; creditNote: string }[]
  /** The gateway subscriptions of the automatic renewal ended with it, cancelled there after commit. */
  cancelledMandates: string[]
}

type EndSubscriptionInput = {
  userId: string
  serviceId: string
  by: EndedBy
  reason: Exclude<RefundReason, 'ADVANCE_LIMIT' | 'ACCOUNT_CLOSED'>
  note?: string | null
  /** The account the customer typed: only for a transfer confirmed before the paying account was recorded. */
  payeeAccount?: RefundBankAccount | null
  /** The customer confirmed the refund goes back to the account their transfer came from. */
  payingAccountConfirmed?: boolean
  now: Date
}

/**
 * Ends every period of a customer's service still running at `at` (the current one and renewals
 * not yet started): each one's end becomes `at`, and each paid one gets its refund and credit note,
 * in one transaction under the customer's subscription lock (the one purchases take); its automatic
 * renewal (a live mandate) stops in the same transaction. Then cancels that mandate at the gateway and
 * queues the gateway refunds and the customer's e-mail. Ending what has already ended is NothingToEndError.
 */
export async function endSubscription(input: EndSubscriptionInput): Promise<EndedService> {
  const ended = await prisma.$transaction((tx) => endSubscriptionIn(tx, input))
  await afterEnding(ended)
  return ended
}

/**
 * endSubscription's writes in the caller's transaction (closing an account ends every service in
 * the transaction that closes it). The caller calls `afterEnding` once `tx` committed.
 */
export async function endSubscriptionIn(
  tx: Prisma.TransactionClient,
  {
    userId,
    serviceId,
    by,
    reason,
    note = null,
    payeeAccount = null,
    payingAccountConfirmed = false,
    now,
  }: EndSubscriptionInput,
): Promise<EndedService> {
  // The purchase locks before the subscription lock, as markPaymentPaid takes them: a mandate's
  // charge being paid at the same moment (it holds the mandate's row) is before or after, never a deadlock.
  await lockFamilyPurchases(tx, userId)
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${subscriptionsCacheKey(userId)}, 0))::text`
  const periods = await runningPeriods(tx, userId, serviceId, now)
  if (periods.length === 0) throw new NothingToEndError()
  const cancelledMandates = await cancelLiveMandateIn(tx, {
    userId,
    serviceId,
    reason: note ? `The subscription was ended: ${note}` : 'The subscription was ended',
    adminId: by.kind === 'admin' ? by.adminId : null,
    now,
  })
  const refunds: EndedService['refunds'] = []
  for (const period of periods) {
    const refundPaise = refundOf(period, now)
    await tx.subscription.update({
      where: { id: period.id },
      data: { endsAt: now, endedAt: now, originalEndsAt: period.originalEndsAt ?? period.endsAt },
    })
    if (refundPaise === 0 || !period.payment) continue
    const route = routeOf(period.payment)
    const payee =
      route === 'BANK_TRANSFER' ? bankRefundPayee(period.payment, by, payeeAccount, payingAccountConfirmed) : {}
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
        ...payee,
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
        after: {
          endedAt: now.toISOString(),
          reason: note,
          refunds,
          ...(cancelledMandates.length > 0 ? { automaticRenewalStopped: true } : {}),
        },
      },
      now,
    )
  }
  return { userId, serviceName: periods[0]!.service.name, endedAt: now, refunds, cancelledMandates }
}

/**
 * Where a bank transfer's refund is paid: back to the account the transfer came from when the
 * admin's confirmation recorded it (the customer confirms it and may not name another), else to
 * the account the customer gives. An admin ending it needs neither: the refund waits as DUE.
 */
function bankRefundPayee(
  payment: NonNullable<PeriodRow['payment']>,
  by: EndedBy,
  typed: RefundBankAccount | null,
  payingAccountConfirmed: boolean,
): Partial<Prisma.RefundUncheckedCreateInput> {
  const paying = payingAccountOf(payment)
  if (paying) {
    if (by.kind === 'customer' && typed) throw new RefundToOtherAccountError()
    if (by.kind === 'customer' && !payingAccountConfirmed) throw new PayingAccountNotConfirmedError()
    return { payeeAccountName: paying.accountName, payeePaidWithUtr: paying.utr }
  }
  if (by.kind === 'customer' && !typed) throw new BankAccountNeededError()
  return typed
    ? { payeeAccountName: typed.accountName, payeeAccountNumber: typed.accountNumber, payeeIfsc: typed.ifsc }
    : {}
}

/** After the transaction that ended a service committed: caches, gateway refunds, the customer's e-mail. */
export async function afterEnding(ended: EndedService): Promise<void> {
  await invalidate(subscriptionsCacheKey(ended.userId))
  await cancelMandatesAtGateway(ended.cancelledMandates)
  for (const refund of ended.refunds) {
    if (refund.status === 'PENDING') await queueGatewayRefund(refund.id)
  }
  await notifyRefund(ended)
}
