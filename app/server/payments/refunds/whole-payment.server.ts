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
    closedAt,
    via,
    now,
  }: { paymentId: string; userId: string; amountPaise: number; closedAt: Date; via: string; now: Date },
): Promise<WholePaymentRefund> {
  const refund = await tx.refund.create({
    data: {
      userId,
      paymentId,
      subscriptionId: null,
      kind: 'WHOLE_PAYMENT',
      reason: 'ACCOUNT_CLOSED',
      amountPaise,
      status: 'PENDING',
      note: 'Paid after the account was closed',
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
      action: 'payment.refunded-account-closed',
      subjectType: 'Payment',
      subjectId: paymentId,
      before: { accountClosedAt: closedAt.toISOString() },
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
