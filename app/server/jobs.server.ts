import { getErrorMessage } from '~/domain/error-message'
import type PgBoss from 'pg-boss'
import { sendComplaintsDueDigest } from './complaints.server'
import { Prisma } from '~/generated/prisma/client'
import { executeInBatches, prisma } from './db.server'
import { deliverEmail, MailDeliveryError, type Email } from './mail.server'
import { expireManualPayments } from './payments/manual-claims.server'
import { reconcileOpenOrders } from './payments/reconciliation.server'
import { sendGatewayRefund } from './payments/refunds.server'
import {
  COMPLAINTS_DUE_QUEUE,
  jobQueue,
  PRUNE_QUEUE,
  SEND_NOTICE_SMS_QUEUE,
  REFUND_PAYMENT_QUEUE,
  RETENTION_QUEUE,
  SEND_EMAIL_QUEUE,
  SEND_SMS_QUEUE,
  SETTLE_PAYMENTS_QUEUE,
  TERMS_NOTICES_QUEUE,
  type GatewayRefundJob,
} from './queue.server'
import { eraseExpiredData } from './retention.server'
import { sendTermsNotices } from './terms-versions.server'
import { smsProvider, SmsDeliveryError, type NoticeSms, type OtpSms, type SmsProvider } from './sms.server'

// The workers: what each queued or scheduled job does. Queueing lives in queue.server.ts.

const JOB_POLLING_INTERVAL_SECONDS = 0.5
const PRUNE_SCHEDULE_CRON = '17 * * * *'
/** Longer than the longest rate-limit window (1 hour) and a code's life (5 minutes). */
export const PRUNE_AFTER_MS = 24 * 60 * 60_000
/** settle-payments runs every 5 minutes. */
const SETTLE_PAYMENTS_SCHEDULE_CRON = '*/5 * * * *'
/** 03:30 UTC is 09:00 in India. */
const COMPLAINTS_DUE_SCHEDULE_CRON = '30 3 * * *'
const TERMS_NOTICES_SCHEDULE_CRON = '41 * * * *'
/** 21:07 UTC is 02:37 in India, a quiet hour. */
const RETENTION_SCHEDULE_CRON = '7 21 * * *'

export async function deliverOtpSms(sms: OtpSms, provider: SmsProvider = smsProvider()): Promise<void> {
  try {
    await provider.sendOtp(sms)
  } catch (error) {
    console.error(`[jobs] SMS to ${sms.to} failed: ${getErrorMessage(error)}`)
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
    console.info(`[jobs] SMS notice for closed account ${sms.userId} not sent`)
    return
  }
  try {
    await provider.sendNotice(sms)
  } catch (error) {
    console.error(`[jobs] SMS notice to ${sms.to} failed: ${getErrorMessage(error)}`)
    if (!(error instanceof SmsDeliveryError) || error.retryable) throw error
  }
}

export async function sendEmail(email: Email): Promise<void> {
  if (await isForClosedAccount(email.userId)) {
    console.info(`[jobs] e-mail "${email.subject}" for closed account ${email.userId} not sent`)
    return
  }
  try {
    await deliverEmail(email)
  } catch (error) {
    console.error(`[jobs] e-mail to ${email.to} failed: ${getErrorMessage(error)}`)
    // As for SMS: retried unless the mail server refused it for good.
    if (!(error instanceof MailDeliveryError) || error.retryable) throw error
  }
}

/** Rows deleted per statement by the clean-up: each statement holds its locks for one batch. */
export const PRUNE_BATCH_ROWS = 5_000

/** What the hourly clean-up deletes: the table, the time column (indexed) and the cut-off it is compared with. */
export function pruneTargets(now: Date) {
  const cutoff = new Date(now.getTime() - PRUNE_AFTER_MS)
  return [
    { table: 'rate_limit_events', column: 'created_at', before: cutoff },
    { table: 'otp_challenges', column: 'created_at', before: cutoff },
    { table: 'sessions', column: 'expires_at', before: now },
  ] as const
}

/** One batch of the clean-up's DELETE for a target (trusted table and column names). */
export function pruneBatchSql({ table, column, before }: ReturnType<typeof pruneTargets>[number], batchRows: number) {
  return Prisma.sql`DELETE FROM ${Prisma.raw(table)} WHERE id IN (
    SELECT id FROM ${Prisma.raw(table)} WHERE ${Prisma.raw(column)} < ${before} LIMIT ${batchRows})`
}

export async function pruneExpiredRows(now = new Date(), batchRows = PRUNE_BATCH_ROWS): Promise<number> {
  let deleted = 0
  for (const target of pruneTargets(now)) deleted += await executeInBatches(pruneBatchSql(target, batchRows), batchRows)
  return deleted
}

/** The settle-payments job; one instance runs it at a time (pg-boss hands each scheduled job to one worker). */
export async function settlePayments(now = new Date()): Promise<void> {
  const report = await reconcileOpenOrders(now)
  const expired = await expireManualPayments(now)
  if (report.paid || report.abandoned || report.errors || expired) {
    console.info(
      `[jobs] settle-payments: ${report.checked} open orders checked, ${report.paid} paid, ${report.abandoned} given up, ${report.errors} errors; ${expired} manual claims expired`,
    )
  }
}

/** Runs in every app instance; pg-boss hands each job to exactly one of them. */
export async function startJobWorkers(): Promise<void> {
  const boss = await jobQueue()
  await boss.schedule(PRUNE_QUEUE, PRUNE_SCHEDULE_CRON)
  await boss.work(PRUNE_QUEUE, () => pruneExpiredRows())
  await boss.schedule(SETTLE_PAYMENTS_QUEUE, SETTLE_PAYMENTS_SCHEDULE_CRON)
  await boss.work(SETTLE_PAYMENTS_QUEUE, () => settlePayments())
  // pg-boss keeps one schedule per queue and hands each run to one worker: one e-mail a day across instances.
  await boss.schedule(COMPLAINTS_DUE_QUEUE, COMPLAINTS_DUE_SCHEDULE_CRON)
  await boss.work(COMPLAINTS_DUE_QUEUE, () => sendComplaintsDueDigest())
  // The terms this instance starts with are recorded (server/app.ts) before this; each run claims
  // its customers in terms_notices, so runs at once, here or on another instance, send each e-mail once.
  await boss.schedule(TERMS_NOTICES_QUEUE, TERMS_NOTICES_SCHEDULE_CRON)
  await boss.work(TERMS_NOTICES_QUEUE, () => sendTermsNotices().then(() => undefined))
  await boss.send(TERMS_NOTICES_QUEUE, {})
  await boss.schedule(RETENTION_QUEUE, RETENTION_SCHEDULE_CRON)
  await boss.work(RETENTION_QUEUE, async () => {
    const report = await eraseExpiredData()
    const total = Object.values(report).reduce((sum, count) => sum + count, 0)
    if (total > 0) console.info(`[jobs] retention: ${JSON.stringify(report)}`)
  })
  await boss.work<NoticeSms>(
    SEND_NOTICE_SMS_QUEUE,
    { pollingIntervalSeconds: JOB_POLLING_INTERVAL_SECONDS },
    async (jobs) => {
      for (const job of jobs) await sendNoticeSms(job.data)
    },
  )
  await boss.work<Email>(SEND_EMAIL_QUEUE, { pollingIntervalSeconds: JOB_POLLING_INTERVAL_SECONDS }, async (jobs) => {
    for (const job of jobs) await sendEmail(job.data)
  })
  await boss.work<GatewayRefundJob>(REFUND_PAYMENT_QUEUE, { includeMetadata: true }, async (jobs) => {
    for (const job of jobs)
      await sendGatewayRefund(job.data.refundId, { lastAttempt: job.retryCount >= job.retryLimit })
  })
  await boss.work<OtpSms>(
    SEND_SMS_QUEUE,
    { pollingIntervalSeconds: JOB_POLLING_INTERVAL_SECONDS, includeMetadata: true },
    async (jobs) => {
      for (const job of jobs) await settleSmsJob(job)
    },
  )
}
