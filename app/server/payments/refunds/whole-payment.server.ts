import type { Prisma } from '~/generated/prisma/client'
import { recordAudit } from '../../audit.server'
import { recordRefundInLedger } from '../ledger.server'
import { queueGatewayRefund } from './gateway-refund.server'

// Money the gateway took for a closed account (docs/payments.md, "Closing an account and late
// money"): the payment is honoured as PAID with its invoice, makes no subscription, and all of it
// is refunded (kind WHOLE_PAYMENT, reason ACCOUNT_CLOSED) with its credit note, in the paying
// transaction; the refund-payment job then gives it back at the gateway, as every gateway refund.

export type WholePaymentRefund = { id: string; amountPaise: number; creditNote: string }

/** In markPaymentPaid's transaction, after the payment's ledger row: the refund, its credit note and the audit entry. */
export async function refundWholePayment(
  tx: Prisma.TransactionClient,
  {
    paymentId,
    userId,
    amountPaise,
    because,
    via,
    now,
  }: {
    paymentId: string
    userId: string
    amountPaise: number
    /** A closed account, or a mandate's charge that could not be applied (docs/payments.md, "Renewals and mandates"). */
    because:
      { kind: 'account-closed'; closedAt: Date } | { kind: 'mandate-charge-refused'; mandateId: string; why: string }
    via: string
    now: Date
  },
): Promise<WholePaymentRefund> {
  const closed = because.kind === 'account-closed'
  const refund = await tx.refund.create({
    data: {
      userId,
      paymentId,
      subscriptionId: null,
      kind: 'WHOLE_PAYMENT',
      reason: closed ? 'ACCOUNT_CLOSED' : 'MANDATE_CHARGE_REFUSED',
      amountPaise,
      status: 'PENDING',
      note: closed ? 'Paid after the account was closed' : `Automatic renewal charge not applied: ${because.why}`,
      createdAt: now,
    },
    select: { id: true },
  })
  const { documentNumber } = await recordRefundInLedger(tx, {
    refundId: refund.id,
    paymentId,
    refundPaise: amountPaise,
    at: now,
  })
  await recordAudit(
    tx,
    {
      // No admin acted: the customer's own payment reached a closed account.
      actorId: userId,
      action: closed ? 'payment.refunded-account-closed' : 'payment.refunded-mandate-charge',
      subjectType: 'Payment',
      subjectId: paymentId,
      before: closed
        ? { accountClosedAt: because.closedAt.toISOString() }
        : { mandateId: because.mandateId, refused: because.why },
      after: { status: 'PAID', paidVia: via, refundId: refund.id, amountPaise, creditNote: documentNumber },
    },
    now,
  )
  return { id: refund.id, amountPaise, creditNote: documentNumber }
}

/** After the paying transaction committed: the gateway refund is queued. */
export async function afterWholePaymentRefund(refund: WholePaymentRefund): Promise<void> {
  await queueGatewayRefund(refund.id)
}
