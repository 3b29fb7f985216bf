import { readCartSnapshot } from '~/domain/cart'
import { getErrorMessage } from '~/domain/error-message'
import { formatIndiaDate, formatIndiaDateTime } from '~/domain/dates'
import { refusedMethodReason } from '~/domain/gateway-checkout'
import { REMINDER_STAGES, renewalPath, smsQuietUntil, type ReminderStage } from '~/domain/renewal-reminders'
import {
  advanceExcessRefundedEmail,
  claimReceivedEmail,
  closedAccountRefundEmail,
  accreditationRecordedEmail,
  gatewayMethodRefundEmail,
  kraRecordDecidedEmail,
  mandateChargeRefundedEmail,
  correctionDecidedEmail,
  emailChangedEmail,
  paymentConfirmedEmail,
  paymentRejectedEmail,
  renewalReminderEmail,
  subscriptionEndedEmail,
  subscriptionGrantedEmail,
} from '~/server/messaging/emails/customer-emails.server'
import type { EmailContext, RenderedEmail } from '~/server/messaging/emails/render-email.server'
import { brandNames } from '../brand.server'
import { prisma } from '../db.server'
import { env } from '../env.server'
import { isOutboxEnabled } from './outbox.server'
import { enqueueEmail, enqueueEmails, enqueueNoticeSms } from '../jobs/queue.server'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('messaging')

/** `userId`: set for a message that must not go once the account is closed (see Email in mail.server.ts). */
export type CustomerNotice = { email: string | null; userId?: string } & RenderedEmail

/**
 * Who the e-mails come from and where their links go: APP_ORIGIN, else in demo mode and tests the
 * local server; with neither, the e-mails carry no links rather than wrong ones.
 */
export async function emailContext(): Promise<EmailContext> {
  // Read when an e-mail is written, not when this module loads: the payment modules import it, and
  // whatever imports them (the demo gateway in a deployment's tests too) should not need the business details.
  const { businessDetails } = await import('../business.server')
  return {
    business: businessDetails,
    origin: env.APP_ORIGIN ?? (isOutboxEnabled() ? `http://localhost:${env.PORT}` : null),
  }
}

/**
 * Tells a customer what the team did, by e-mail through the job queue (retried there). Called after
 * the change it reports has committed; never fails the admin's action: the change is done, the
 * notice is secondary, and a failure to queue it is logged.
 */
export async function notifyCustomer({
  email,
  template,
  subject,
  body,
  html,
  replyTo,
  userId,
}: CustomerNotice): Promise<boolean> {
  if (!email) {
    log.warn(`No e-mail address for "${subject}"; not sent`)
    return false
  }
  try {
    await enqueueEmail({ to: email, template, subject, body, html, replyTo, ...(userId ? { userId } : {}) })
    return true
  } catch (error) {
    log.error(`Could not queue "${subject}" to ${email}: ${getErrorMessage(error)}`)
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
  return notifyCustomer({
    email: payment.user.email,
    ...paymentConfirmedEmail(
      {
        name: payment.user.name,
        method: payment.method,
        amountPaise: payment.amountPaise,
        subscriptions: payment.subscriptions.map((subscription) => ({
          serviceName: subscription.service.name,
          endsOn: formatIndiaDate(subscription.endsAt),
        })),
      },
      await emailContext(),
    ),
  })
}

/**
 * "We got your claim": the e-mail of a new bank-transfer claim, saying what happens next and the
 * day it is dismissed if not confirmed. Carries the account's id: a claim cancelled by closing the
 * account meanwhile is not announced.
 */
export async function notifyClaimReceived(paymentId: string): Promise<boolean> {
  const payment = await prisma.payment.findUnique({
    where: { id: paymentId },
    select: {
      userId: true,
      amountPaise: true,
      cart: true,
      createdAt: true,
      expiresAt: true,
      user: { select: { name: true, email: true } },
    },
  })
  if (!payment?.expiresAt) return false
  const context = await emailContext()
  const { businessDetails } = await import('../business.server')
  return notifyCustomer({
    email: payment.user.email,
    userId: payment.userId,
    ...claimReceivedEmail(
      {
        name: payment.user.name,
        amountPaise: payment.amountPaise,
        serviceNames: readCartSnapshot(payment.cart).map((item) => item.name),
        claimedOn: formatIndiaDate(payment.createdAt),
        dismissedOn: formatIndiaDate(payment.expiresAt),
        whatsappNumber: businessDetails.whatsappNumber,
      },
      context,
    ),
  })
}

/** The e-mail of a rejected manual claim: what was not found, the admin's reason, and what the customer can do next. */
export async function notifyPaymentRejected(paymentId: string): Promise<boolean> {
  const payment = await prisma.payment.findUnique({
    where: { id: paymentId },
    select: { amountPaise: true, cart: true, rejectedReason: true, user: { select: { name: true, email: true } } },
  })
  if (!payment) return false
  return notifyCustomer({
    email: payment.user.email,
    ...paymentRejectedEmail(
      {
        name: payment.user.name,
        amountPaise: payment.amountPaise,
        serviceNames: readCartSnapshot(payment.cart).map((item) => item.name),
        reason: payment.rejectedReason ?? '',
      },
      await emailContext(),
    ),
  })
}

/** The e-mail of a subscription an admin granted without a payment. */
export async function notifySubscriptionGranted(grant: {
  user: { name: string | null; email: string | null }
  serviceName: string
  durationDays: number
  endsAt: Date
  reason: string
}): Promise<boolean> {
  return notifyCustomer({
    email: grant.user.email,
    ...subscriptionGrantedEmail(
      {
        name: grant.user.name,
        serviceName: grant.serviceName,
        durationDays: grant.durationDays,
        endsOn: formatIndiaDate(grant.endsAt),
        reason: grant.reason,
      },
      await emailContext(),
    ),
  })
}

/** The e-mail of an ended subscription: when it ended and each refund, how it will be paid, and its credit note. */
export async function notifyRefund(ended: {
  userId: string
  serviceName: string
  endedAt: Date
  refunds: { amountPaise: number; status: 'DUE' | 'PENDING'; creditNote: string }[]
}): Promise<boolean> {
  const user = await prisma.user.findUnique({ where: { id: ended.userId }, select: { name: true, email: true } })
  if (!user) return false
  return notifyCustomer({
    email: user.email,
    ...subscriptionEndedEmail(
      {
        name: user.name,
        serviceName: ended.serviceName,
        endedOn: formatIndiaDate(ended.endedAt),
        refunds: ended.refunds.map((refund) => ({
          amountPaise: refund.amountPaise,
          byBankTransfer: refund.status === 'DUE',
          creditNote: refund.creditNote,
        })),
      },
      await emailContext(),
    ),
  })
}

/** The e-mail of a payment captured past the one-year advance limit: the days cut and their refund. */
export async function notifyAdvanceExcessRefund(
  userId: string,
  refund: {
    serviceName: string
    excessDays: number
    endsAt: Date
    amountPaise: number
    status: 'DUE' | 'PENDING'
    creditNote: string
  },
): Promise<boolean> {
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { name: true, email: true } })
  if (!user) return false
  return notifyCustomer({
    email: user.email,
    ...advanceExcessRefundedEmail(
      {
        name: user.name,
        serviceName: refund.serviceName,
        excessDays: refund.excessDays,
        endsOn: formatIndiaDate(refund.endsAt),
        refund: {
          amountPaise: refund.amountPaise,
          byBankTransfer: refund.status === 'DUE',
          creditNote: refund.creditNote,
        },
      },
      await emailContext(),
    ),
  })
}

export type CorrectionDecision = {
  approved: boolean
  /** Masked as the customer's pages show them (PAN ABCPE****F). */
  changes: { label: string; from: string | null; to: string }[]
  kycStatusLabel: string | null
  /** The admin's reason for a rejection. */
  reason: string | null
}

/**
 * The admin's decision on a correction request, by e-mail, or by SMS to the account's number when
 * it has no e-mail address (as complaint answers go). Like the onboarding copy it carries the
 * account's id: dropped if the account is closed by the time it is sent.
 */
export async function notifyCorrectionDecided(userId: string, decision: CorrectionDecision): Promise<boolean> {
  try {
    const user = await prisma.user.findUnique({
      where: { id: userId },
      select: { name: true, email: true, phone: true },
    })
    if (!user) return false
    if (user.email)
      return await notifyCustomer({
        email: user.email,
        userId,
        ...correctionDecidedEmail({ name: user.name, ...decision }, await emailContext()),
      })
    const fields = decision.changes.map((change) => change.label).join(', ')
    const { sender } = await brandNames()
    await enqueueNoticeSms({
      to: user.phone,
      text: decision.approved
        ? `${sender}: we approved your correction request (${fields}). See your details at /account/corrections.`
        : `${sender}: we did not approve your correction request (${fields}). Reason: ${(decision.reason ?? '').trim()}`,
      userId,
    })
    return true
  } catch (error) {
    log.error(`Could not tell ${userId} of the correction decision: ${getErrorMessage(error)}`)
    return false
  }
}

/**
 * An e-mail to the customer `userId`, written by `email` from their name. Carries the account's id:
 * dropped if the account is closed by the time it is sent. Never throws: a failure is logged.
 */
async function notifyAccountHolder(
  userId: string,
  what: string,
  email: (name: string | null, context: EmailContext) => RenderedEmail,
): Promise<boolean> {
  try {
    const user = await prisma.user.findUnique({ where: { id: userId }, select: { name: true, email: true } })
    if (!user) return false
    return await notifyCustomer({ email: user.email, userId, ...email(user.name, await emailContext()) })
  } catch (error) {
    log.error(`Could not tell ${userId} of ${what}: ${getErrorMessage(error)}`)
    return false
  }
}

/** The admin recorded an accredited investor's certificate: how to opt in. */
export function notifyAccreditationRecorded(
  userId: string,
  recorded: { certificate: string; validUntil: string },
): Promise<boolean> {
  return notifyAccountHolder(userId, 'the recorded accreditation', (name, context) =>
    accreditationRecordedEmail({ name, ...recorded }, context),
  )
}

/** The analyst's decision on a KRA record that differs (decision 047), by e-mail with what to do next. */
export function notifyKraRecordDecided(
  userId: string,
  decision: { accepted: boolean; fields: string },
): Promise<boolean> {
  return notifyAccountHolder(userId, 'the KRA record decision', (name, context) =>
    kraRecordDecidedEmail({ name, ...decision }, context),
  )
}

/**
 * An e-mail change, told to the address it replaced (not tied to the account: it goes even if the
 * account is closed meanwhile). `changedAt` as India time.
 */
export async function notifyEmailChanged(change: {
  oldEmail: string
  newEmail: string
  name: string | null
  changedAt: Date
}): Promise<boolean> {
  return notifyCustomer({
    email: change.oldEmail,
    ...emailChangedEmail(
      { name: change.name, newEmail: change.newEmail, changedAt: formatIndiaDateTime(change.changedAt) },
      await emailContext(),
    ),
  })
}

/**
 * A capture that reached a closed account was refunded in full: told to the customer's last e-mail
 * address (the account's, kept after closing). Not tied to the account (no `userId`), so closing
 * does not drop it, as it does not drop refund e-mails.
 */
export async function notifyClosedAccountRefund(
  paymentId: string,
  refund: { amountPaise: number; creditNote: string },
): Promise<boolean> {
  const payment = await prisma.payment.findUnique({
    where: { id: paymentId },
    select: { cart: true, user: { select: { name: true, email: true, closedAt: true } } },
  })
  if (!payment?.user.closedAt) return false
  return notifyCustomer({
    email: payment.user.email,
    ...closedAccountRefundEmail(
      {
        name: payment.user.name,
        closedOn: formatIndiaDate(payment.user.closedAt),
        serviceNames: readCartSnapshot(payment.cart).map((item) => item.name),
        amountPaise: refund.amountPaise,
        creditNote: refund.creditNote,
      },
      await emailContext(),
    ),
  })
}

/**
 * The e-mail of a payment refunded in full instead of applied, written by `email` from the payment's
 * customer and the services its cart named.
 */
async function notifyRefundedInFull(
  paymentId: string,
  email: (payment: { name: string | null; serviceNames: string[] }, context: EmailContext) => RenderedEmail,
): Promise<boolean> {
  const payment = await prisma.payment.findUnique({
    where: { id: paymentId },
    select: { cart: true, user: { select: { name: true, email: true } } },
  })
  if (!payment) return false
  return notifyCustomer({
    email: payment.user.email,
    ...email(
      { name: payment.user.name, serviceNames: readCartSnapshot(payment.cart).map((item) => item.name) },
      await emailContext(),
    ),
  })
}

/** A mandate's charge refunded in full instead of applied (docs/payments.md, "Renewals and mandates"). */
export function notifyMandateChargeRefunded(
  paymentId: string,
  refund: { amountPaise: number; creditNote: string },
  why: string,
): Promise<boolean> {
  return notifyRefundedInFull(paymentId, (payment, context) =>
    mandateChargeRefundedEmail({ ...payment, ...refund, why }, context),
  )
}

/** A checkout's capture by a refused method, refunded in full (docs/payments.md, "Gateway payment methods"). */
export function notifyGatewayMethodRefund(
  paymentId: string,
  refund: { amountPaise: number; creditNote: string },
  method: string,
): Promise<boolean> {
  return notifyRefundedInFull(paymentId, (payment, context) =>
    gatewayMethodRefundEmail({ ...payment, ...refund, reason: refusedMethodReason(method) }, context),
  )
}

const REMINDER_STAGE_NAMES = {
  [REMINDER_STAGES.WEEK_BEFORE]: 'week-before',
  [REMINDER_STAGES.DAY_BEFORE]: 'day-before',
  [REMINDER_STAGES.ENDED]: 'ended',
} as const

/**
 * The open accounts and services that rows claimed by a notice job name (`user_id`, `service_id`),
 * read in two queries for the whole batch: each row with its customer and service, closed accounts
 * and rows whose service is gone left out.
 */
export async function withCustomerAndService<Row extends { user_id: string; service_id: string }>(
  rows: Row[],
): Promise<(Row & { user: NoticeRecipient; service: { id: string; name: string } })[]> {
  const [users, services] = await Promise.all([
    prisma.user.findMany({
      where: { id: { in: [...new Set(rows.map((row) => row.user_id))] }, closedAt: null },
      select: { id: true, name: true, email: true, phone: true },
    }),
    prisma.service.findMany({
      where: { id: { in: [...new Set(rows.map((row) => row.service_id))] } },
      select: { id: true, name: true },
    }),
  ])
  const userById = new Map(users.map((user) => [user.id, user]))
  const serviceById = new Map(services.map((service) => [service.id, service]))
  return rows.flatMap((row) => {
    const user = userById.get(row.user_id)
    const service = serviceById.get(row.service_id)
    return user && service ? [{ ...row, user, service }] : []
  })
}

export type NoticeRecipient = { id: string; name: string | null; email: string | null; phone: string }

export type RenewalReminder = {
  user: NoticeRecipient
  service: { id: string; name: string }
  endsAt: Date
  stage: ReminderStage
}

/**
 * Renewal reminders (docs/payments.md, "Renewals"): by e-mail at once, all of them queued in one
 * statement per thousand (a run may claim 10,000), and by SMS when `sms` (a DLT template for it, or
 * the dev outbox), held until 09:00 India time when `now` is in the night. Each links to the one-tap
 * renewal. All carry the account's id: dropped if it is closed meanwhile. Never throws: a failure to
 * queue is logged (the stages are recorded; they are not sent twice).
 */
export async function notifyRenewalReminders(
  reminders: RenewalReminder[],
  { now, sms, context }: { now: Date; sms: boolean; context: EmailContext },
): Promise<void> {
  const emails = reminders.flatMap(({ user, service, endsAt, stage }) =>
    user.email
      ? [
          {
            to: user.email,
            userId: user.id,
            ...renewalReminderEmail(
              {
                name: user.name,
                serviceName: service.name,
                endsOn: formatIndiaDate(endsAt),
                stage: REMINDER_STAGE_NAMES[stage],
                renewPath: renewalPath(service.id),
              },
              context,
            ),
          },
        ]
      : [],
  )
  try {
    await enqueueEmails(emails)
  } catch (error) {
    log.error({ err: error, reminders: emails.length }, 'Could not queue renewal reminder e-mails')
  }
  if (!sms) return
  const sender = (await brandNames()).sender
  const startAfter = smsQuietUntil(now) ?? undefined
  for (const { user, service, endsAt, stage } of reminders) {
    const endsOn = formatIndiaDate(endsAt)
    const news =
      stage === REMINDER_STAGES.ENDED
        ? `your ${service.name} subscription ended on ${endsOn}`
        : stage === REMINDER_STAGES.DAY_BEFORE
          ? `your ${service.name} subscription ends tomorrow, ${endsOn}`
          : `your ${service.name} subscription ends on ${endsOn}`
    try {
      await enqueueNoticeSms(
        {
          to: user.phone,
          text: `${sender}: ${news}. Renew: ${context.origin ?? ''}${renewalPath(service.id)}`,
          userId: user.id,
          template: 'renewal-reminder',
        },
        { startAfter },
      )
    } catch (error) {
      log.error({ err: error, userId: user.id }, 'Could not queue a renewal reminder SMS')
    }
  }
}
