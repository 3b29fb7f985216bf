import { readCartSnapshot } from '~/domain/cart'
import { getErrorMessage } from '~/domain/error-message'
import { formatRupees } from '~/domain/money'
import { advanceRefusalMessage, advanceRefusals } from '~/domain/purchase-limits'
import type { Prisma } from '~/generated/prisma/client'
import { loggerFor } from '../operations/logger.server'
import { paymentGateway } from './gateway/choice.server'
import type { PaymentGateway } from './gateway/razorpay.server'
import { feeCapRefusalFor, readCommittedEnds } from './purchase-limits.server'

// What markPaymentPaid (core.server.ts) checks and does for a payment that is a mandate's charge
// (docs/payments.md, "Renewals and mandates"); the rest of mandates is mandates.server.ts.

const log = loggerFor('payments')

export async function cancelAtGateway(
  subscriptionId: string,
  gateway: PaymentGateway = paymentGateway(),
): Promise<void> {
  try {
    const answer = await gateway.cancelSubscription(subscriptionId)
    if (answer.status !== 'cancelled') log.warn(`Subscription ${subscriptionId} is ${answer.status} after cancelling`)
  } catch (error) {
    // Cancelled already (by the gateway, or a retry): fine. Anything else is logged; a later charge is refunded.
    log.error(`Subscription ${subscriptionId} could not be cancelled at the gateway: ${getErrorMessage(error)}`)
  }
}

/**
 * In markPaymentPaid's transaction, under the family's purchase locks, for a payment that is a
 * mandate's charge: why it cannot be applied (then it is refunded in full and the mandate
 * cancelled), or null. A cancelled mandate, an amount other than the one consented to, SEBI's
 * one-year advance limit and the family fee cap, each counted as for any purchase, but for this payment.
 */
export async function mandateChargeRefusal(
  tx: Prisma.TransactionClient,
  {
    paymentId,
    mandateId,
    userId,
    familyIds,
    amountPaise,
    cart,
    paidAt,
  }: {
    paymentId: string
    mandateId: string
    userId: string
    familyIds: string[]
    amountPaise: number
    cart: unknown
    paidAt: Date
  },
): Promise<string | null> {
  const [mandate] = await tx.$queryRaw<{ state: string; amount_paise: number; max_amount_paise: number }[]>`
    SELECT state::text, amount_paise, max_amount_paise FROM mandates WHERE id = ${mandateId}::uuid FOR UPDATE`
  if (!mandate) return 'The automatic renewal it was charged for does not exist.'
  if (mandate.state === 'CANCELLED') return 'Automatic renewal had been stopped before this charge.'
  if (amountPaise !== mandate.amount_paise || amountPaise > mandate.max_amount_paise)
    return `The charge was not the amount you authorised (Rs. ${formatRupees(mandate.amount_paise)}).`
  const items = readCartSnapshot(cart)
  const committed = await readCommittedEnds(tx, userId, paidAt, paymentId)
  const tooEarly = advanceRefusals(paidAt, committed, items)
  if (tooEarly.length > 0) return advanceRefusalMessage(tooEarly)
  const overCap = await feeCapRefusalFor(tx, { userId, familyIds, items, now: paidAt, excludePaymentId: paymentId })
  return overCap ?? null
}

/**
 * In the paying transaction: the mandate whose charge was refused is cancelled (one cancelled already
 * keeps when and why); its gateway id, to cancel there after commit.
 */
export async function cancelMandateInTransaction(
  tx: Prisma.TransactionClient,
  mandateId: string,
  reason: string,
  now: Date,
): Promise<string | null> {
  const [row] = await tx.$queryRaw<{ gateway_subscription_id: string }[]>`
    UPDATE mandates SET state = 'CANCELLED', cancelled_at = COALESCE(cancelled_at, ${now}),
           cancel_reason = COALESCE(cancel_reason, ${reason})
     WHERE id = ${mandateId}::uuid
     RETURNING gateway_subscription_id`
  return row?.gateway_subscription_id ?? null
}
