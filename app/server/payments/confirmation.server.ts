import { formatIndiaDate } from '~/domain/dates'
import type { Flash } from '~/domain/flash'
import { formatRupees } from '~/domain/money'
import { GATEWAY_LATE_AUTHORISATION_WINDOW_MS } from '~/domain/payment-status'
import { readCartSnapshot } from '~/domain/cart'
import { DOCUMENT_TITLES, seriesOf, taxDocumentHref } from '~/domain/tax-documents'
import { prisma } from '../db.server'
import { paymentGateway } from './gateway/choice.server'
import { payIfCaptured, type GatewayDeps } from './checkout.server'

// What the customer is told once a payment is confirmed, and the check /subscriptions makes for
// gateway payments that may be paid at the gateway but not yet confirmed to us.

/**
 * "Payment of Rs. X received": the amount, the reference (the gateway's payment id, or the bank
 * reference of a transfer), each service it added with its new end date, and a link to its invoice.
 * Null for a payment that is not paid.
 */
export async function paymentConfirmationFlash(paymentId: string): Promise<Flash | null> {
  const payment = await prisma.payment.findUnique({
    where: { id: paymentId },
    select: {
      status: true,
      amountPaise: true,
      gatewayPaymentId: true,
      utr: true,
      cart: true,
      subscriptions: { select: { serviceId: true, endsAt: true } },
      ledgerEntries: { where: { kind: 'PAYMENT' }, select: { documentNumber: true } },
      refunds: { where: { kind: 'WHOLE_PAYMENT' }, select: { note: true } },
    },
  })
  if (payment?.status !== 'PAID') return null
  const refused = payment.refunds[0]
  if (refused) {
    // Paid at the gateway but not applied (a refused method): refunded in full, and e-mailed.
    return {
      tone: 'error',
      message: `Payment of Rs. ${formatRupees(payment.amountPaise)} received but not accepted: no subscription was started, and all of it is being refunded. We have e-mailed you the details.`,
      ...(refused.note ? { details: [refused.note] } : {}),
    }
  }
  const names = new Map(readCartSnapshot(payment.cart).map((item) => [item.serviceId, item.name]))
  const reference = payment.gatewayPaymentId ?? payment.utr
  const invoice = payment.ledgerEntries[0]?.documentNumber
  return {
    tone: 'success',
    message: `Payment of Rs. ${formatRupees(payment.amountPaise)} received.${reference ? ` Reference ${reference}.` : ''} Added to your subscriptions:`,
    details: payment.subscriptions.map(
      (subscription) =>
        `${names.get(subscription.serviceId) ?? 'Service'} until ${formatIndiaDate(subscription.endsAt)}`,
    ),
    ...(invoice
      ? { link: { href: taxDocumentHref(invoice), label: `${DOCUMENT_TITLES[seriesOf(invoice) ?? 'RCT']} ${invoice}` } }
      : {}),
  }
}

/**
 * Asks the gateway about the customer's open gateway orders (inside the late-authorisation
 * window) and pays those it reports captured: the checkout's answer may never have reached us (a
 * network drop just after paying). Returns the ids it paid, and the ids of orders on which nothing
 * was paid: no attempt at all, or only failed ones (a checkout tab closed before paying), which the
 * customer may pay again. A gateway that cannot be asked leaves the order as it was, neither; the
 * webhook or the reconciliation job settles it.
 */
export async function confirmOpenGatewayPayments(
  userId: string,
  now: Date,
  deps: Omit<GatewayDeps, 'now'> = {},
): Promise<{ paid: string[]; unpaid: string[] }> {
  const open = await prisma.payment.findMany({
    where: {
      userId,
      method: 'GATEWAY',
      status: 'CREATED',
      gatewayOrderId: { not: null },
      createdAt: { gt: new Date(now.getTime() - GATEWAY_LATE_AUTHORISATION_WINDOW_MS) },
    },
    select: { id: true, gatewayOrderId: true, amountPaise: true, currency: true },
  })
  const paid: string[] = []
  const unpaid: string[] = []
  if (open.length === 0) return { paid, unpaid }
  const gateway = deps.gateway ?? paymentGateway()
  for (const payment of open) {
    try {
      const result = await payIfCaptured(gateway, { ...payment, gatewayOrderId: payment.gatewayOrderId! }, now)
      if (result.paid) paid.push(payment.id)
      else if (result.attempts.every((attempt) => attempt.status === 'failed')) unpaid.push(payment.id)
    } catch {
      // The gateway could not be asked: the order stays "being confirmed".
    }
  }
  return { paid, unpaid }
}

/** "Payment claim recorded": what the claim now waits for, said once on the page the claim leads to. */
export function claimRecordedFlash(claim: { amountPaise: number; expiresAt: Date }): Flash {
  return {
    tone: 'info',
    message: `Payment claim recorded. Transfer Rs. ${formatRupees(claim.amountPaise)} and send the screenshot by ${formatIndiaDate(claim.expiresAt)}: the bank details are below. We confirm it once the transfer reaches us.`,
  }
}
