import { refusedMethodReason } from '~/domain/gateway-checkout'
import type { Prisma } from '~/generated/prisma/client'
import { recordAudit } from '../../audit.server'
import { recordRefundInLedger } from '../ledger.server'
import { queueGatewayRefund } from './gateway-refund.server'

// Money the gateway took for a closed account (docs/payments.md, "Closing an account and late
// money"): the payment is honoured as PAID with its invoice, makes no subscription, and all of it
// is refunded (kind WHOLE_PAYMENT, reason ACCOUNT_CLOSED) with its credit note, in the paying
// transaction; the refund-payment job then gives it back at the gateway, as every gateway refund.
// The same for a mandate's charge that cannot be applied, and for a checkout's capture by a method
// the store does not take (docs/payments.md, "Gateway payment methods").

export type WholePaymentRefund = { id: string; amountPaise: number; creditNote: string }

/** Why a payment is refunded in full instead of applied. */
export type WholePaymentRefundCause =
  | { kind: 'account-closed'; closedAt: Date }
  | { kind: 'mandate-charge-refused'; mandateId: string; why: string }
  | { kind: 'gateway-method-refused'; method: string }

const REFUND_OF_CAUSE = {
  'account-closed': { reason: 'ACCOUNT_CLOSED', action: 'payment.refunded-account-closed' },
  'mandate-charge-refused': { reason: 'MANDATE_CHARGE_REFUSED', action: 'payment.refunded-mandate-charge' },
  'gateway-method-refused': { reason: 'GATEWAY_METHOD_REFUSED', action: 'payment.refunded-gateway-method' },
} as const

function noteOf(cause: WholePaymentRefundCause): string {
  switch (cause.kind) {
    case 'account-closed':
      return 'Paid after the account was closed'
    case 'mandate-charge-refused':
      return `Automatic renewal charge not applied: ${cause.why}`
    case 'gateway-method-refused':
      return refusedMethodReason(cause.method)
  }
}

function auditBeforeOf(cause: WholePaymentRefundCause): Record<string, string> {
  switch (cause.kind) {
    case 'account-closed':
      return { accountClosedAt: cause.closedAt.toISOString() }
    case 'mandate-charge-refused':
      return { mandateId: cause.mandateId, refused: cause.why }
    case 'gateway-method-refused':
      return { gatewayMethod: cause.method }
  }
}

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
    /** A closed account, a mandate's charge that could not be applied (docs/payments.md, "Renewals and mandates"), or a refused method. */
    because: WholePaymentRefundCause
    via: string
    now: Date
  },
): Promise<WholePaymentRefund> {
  const { reason, action } = REFUND_OF_CAUSE[because.kind]
  const refund = await tx.refund.create({
    data: {
      userId,
      paymentId,
      subscriptionId: null,
      kind: 'WHOLE_PAYMENT',
      reason,
      amountPaise,
      status: 'PENDING',
      note: noteOf(because),
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
      // No admin acted: the customer's own payment was refused.
      actorId: userId,
      action,
      subjectType: 'Payment',
      subjectId: paymentId,
      before: auditBeforeOf(because),
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
