import { getErrorMessage } from '~/domain/error-message'
import type PgBoss from 'pg-boss'
import { prisma } from '../db.server'
import { deliverEmail, MailDeliveryError, type Email } from './mail.server'
import { archiveSentMessage } from './message-archive.server'
import { jobQueue, SEND_SMS_QUEUE } from '../jobs/queue.server'
import { loggerFor } from '../operations/logger.server'
import { countMessage } from '../operations/metrics.server'
import { smsProvider, SmsDeliveryError, type NoticeSms, type OtpSms, type SmsProvider } from './sms.server'

// The workers' side of messaging: one try of a queued SMS or e-mail, dropped when its account has closed.
// Each try is counted in /metrics (research_store_messages_total, by channel, sent or failed).

const log = loggerFor('messaging')

export async function deliverOtpSms(sms: OtpSms, provider: SmsProvider = smsProvider()): Promise<void> {
  try {
    await provider.sendOtp(sms)
    countMessage('sms', 'sent')
    const account = await prisma.user.findUnique({ where: { phone: sms.to }, select: { id: true } })
    await archiveSentMessage({
      userId: account?.id,
      channel: 'sms',
      recipient: sms.to,
      template: 'sign-in-code',
      body: sms.text,
      secret: sms.code,
    })
  } catch (error) {
    countMessage('sms', 'failed')
    log.error(`A sign-in code SMS failed: ${getErrorMessage(error)}`)
    // pg-boss retries a job whose handler throws; a permanent refusal is logged and dropped.
    if (!(error instanceof SmsDeliveryError) || error.retryable) throw error
  }
}

export type SmsJob = Pick<PgBoss.JobWithMetadata<OtpSms>, 'id' | 'data' | 'retryCount' | 'retryLimit'>

/** One try of an SMS job: thrown for pg-boss to retry, else (delivered, refused for good, last try) deleted with its code. */
export async function settleSmsJob(job: SmsJob, provider: SmsProvider = smsProvider()): Promise<void> {
  try {
    await deliverOtpSms(job.data, provider)
  } catch (error) {
    if (job.retryCount < job.retryLimit) throw error
  }
  await (await jobQueue()).deleteJob(SEND_SMS_QUEUE, job.id)
}

/**
 * Whether a queued message for `userId` must be dropped: its account was closed (or erased) since it
 * was queued. Closing an account stops every message queued for it (docs/regulatory.md).
 */
export async function isForClosedAccount(userId: string | undefined): Promise<boolean> {
  if (!userId) return false
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { closedAt: true, erasedAt: true } })
  return !user || user.closedAt !== null || user.erasedAt !== null
}

export async function sendNoticeSms(sms: NoticeSms, provider: SmsProvider = smsProvider()): Promise<void> {
  if (await isForClosedAccount(sms.userId)) {
    log.info({ userId: sms.userId }, 'An SMS notice for a closed account was not sent')
    return
  }
  try {
    const providerMessageId = await provider.sendNotice(sms)
    countMessage('sms', 'sent')
    await archiveSentMessage({
      userId: sms.userId,
      channel: 'sms',
      recipient: sms.to,
      template: sms.template ?? 'notice',
      body: sms.text,
      providerMessageId: providerMessageId || null,
    })
  } catch (error) {
    countMessage('sms', 'failed')
    log.error({ userId: sms.userId }, `An SMS notice failed: ${getErrorMessage(error)}`)
    if (!(error instanceof SmsDeliveryError) || error.retryable) throw error
  }
}

export async function sendEmail(email: Email): Promise<void> {
  if (!email.evenIfClosed && (await isForClosedAccount(email.userId))) {
    log.info({ userId: email.userId, subject: email.subject }, 'An e-mail for a closed account was not sent')
    return
  }
  try {
    await deliverEmail(email)
    countMessage('email', 'sent')
  } catch (error) {
    countMessage('email', 'failed')
    log.error({ userId: email.userId, subject: email.subject }, `An e-mail failed: ${getErrorMessage(error)}`)
    // As for SMS: retried unless the mail server refused it for good.
    if (!(error instanceof MailDeliveryError) || error.retryable) throw error
  }
}
