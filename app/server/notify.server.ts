import { formatIndiaDate } from '~/domain/dates'
import { formatRupees } from '~/domain/money'
import { prisma } from './db.server'
import { enqueueEmail } from './queue.server'

export type CustomerNotice = { email: string | null; subject: string; body: string }

/**
 * Tells a customer what the team did, by e-mail through the job queue (retried there). Called after
 * the change it reports has committed; never fails the admin's action: the change is done, the
 * notice is secondary, and a failure to queue it is logged.
 */
export async function notifyCustomer({ email, subject, body }: CustomerNotice): Promise<boolean> {
  if (!email) {
    console.warn(`[notify] no e-mail address for "${subject}"; not sent`)
    return false
  }
  try {
    await enqueueEmail({ to: email, subject, body })
    return true
  } catch (error) {
    console.error(
      `[notify] could not queue "${subject}" to ${email}: ${error instanceof Error ? error.message : String(error)}`,
    )
    return false
  }
}

/**
 * The confirmation e-mail of a paid payment, whichever path paid it (checkout, callback, webhook,
 * reconciliation, admin): what was paid and until when each subscription runs, in India time.
 * markPaymentPaid calls it once, after the paying transaction committed, and only for the call that paid.
 */
export async function notifyPaymentConfirmed(paymentId: string): Promise<boolean> {
  const payment = await prisma.payment.findUnique({
    where: { id: paymentId },
    select: {
      method: true,
      amountPaise: true,
      user: { select: { name: true, email: true } },
      subscriptions: { select: { endsAt: true, service: { select: { name: true } } }, orderBy: { endsAt: 'asc' } },
    },
  })
  if (!payment) return false
  const lines = payment.subscriptions.map(
    (subscription) => `- ${subscription.service.name}: ends on ${formatIndiaDate(subscription.endsAt)}`,
  )
  const how = payment.method === 'MANUAL' ? 'your bank transfer' : 'your payment'
  return notifyCustomer({
    email: payment.user.email,
    subject: 'Your payment is confirmed',
    body: [
      `Hello ${payment.user.name ?? ''},`,
      '',
      `We received ${how} of Rs. ${formatRupees(payment.amountPaise)}. Your subscriptions:`,
      ...lines,
    ].join('\n'),
  })
}
