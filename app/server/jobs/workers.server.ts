import { computeCohorts, foldInsightChanges } from '../admin/insight-aggregates.server'
import { sendComplaintsDueDigest } from '../complaints/due-digest.server'
import { sendComplaintBoardReminder } from '../complaints/board-reminders.server'
import { type Email } from '../messaging/mail.server'
import { sendGatewayRefund } from '../payments/refunds/gateway-refund.server'
import {
  COMPLAINT_BOARD_REMINDER_QUEUE,
  COMPLAINTS_DUE_QUEUE,
  INSIGHT_COHORTS_QUEUE,
  INSIGHT_FOLD_QUEUE,
  jobQueue,
  PRE_DEBIT_NOTICES_QUEUE,
  PRUNE_QUEUE,
  RENEWAL_REMINDERS_QUEUE,
  RESEARCH_DELIVERIES_QUEUE,
  RESEARCH_SCHEDULED_QUEUE,
  SEND_NOTICE_SMS_QUEUE,
  REFUND_PAYMENT_QUEUE,
  RETENTION_QUEUE,
  SEND_EMAIL_QUEUE,
  SEND_SMS_QUEUE,
  SETTLE_PAYMENTS_QUEUE,
  TERMS_NOTICES_QUEUE,
  type GatewayRefundJob,
} from './queue.server'
import { eraseExpiredData } from '../account/retention.server'
import { sendTermsNotices } from '../account/terms-versions.server'
import { sendDocumentNotices } from '../account/document-versions.server'
import { renewalSmsEnabled, researchSmsEnabled, type NoticeSms, type OtpSms } from '../messaging/sms.server'
import { sendRenewalReminders } from '../payments/renewal-reminders.server'
import { checkUpcomingMandateCharges } from '../payments/mandate-lifecycle.server'
import { sendPreDebitNotices } from '../payments/pre-debit-notices.server'
import { sendEmail, sendNoticeSms, settleSmsJob } from '../messaging/delivery.server'
import { pruneExpiredRows } from './prune.server'
import { sendDueResearchDeliveries } from '../research/deliveries.server'
import { publishDueScheduledResearch } from '../research/scheduling.server'
import { telegramBot } from '../messaging/telegram-bot.server'
import { settlePayments } from '../payments/settlement.server'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('jobs')

// The workers: which function each queued or scheduled job runs, registered in every instance.
// Queueing lives in queue.server.ts; what the jobs do lives with their capability.

const JOB_POLLING_INTERVAL_SECONDS = 0.5
const PRUNE_SCHEDULE_CRON = '17 * * * *'
/** settle-payments runs every 5 minutes. */
const SETTLE_PAYMENTS_SCHEDULE_CRON = '*/5 * * * *'
/** 03:30 UTC is 09:00 in India. */
const COMPLAINTS_DUE_SCHEDULE_CRON = '30 3 * * *'
/** 03:35 UTC is 09:05 in India. */
const COMPLAINT_BOARD_REMINDER_SCHEDULE_CRON = '35 3 * * *'
const TERMS_NOTICES_SCHEDULE_CRON = '41 * * * *'
/** Every 15 minutes: a reminder goes at most that long after its moment (docs/limits.md). */
const RENEWAL_REMINDERS_SCHEDULE_CRON = '*/15 * * * *'
/** Every 15 minutes: a charge's notice goes within 15 minutes of its window opening (docs/limits.md). */
const PRE_DEBIT_NOTICES_SCHEDULE_CRON = '*/15 * * * *'
/** 21:07 UTC is 02:37 in India, a quiet hour. */
const RETENTION_SCHEDULE_CRON = '7 21 * * *'
/** Every minute: a published item's e-mails start going within a minute (docs/limits.md). */
const RESEARCH_DELIVERIES_SCHEDULE_CRON = '* * * * *'
/** Every minute: a scheduled item is published within a minute of its time (docs/limits.md). */
const RESEARCH_SCHEDULED_SCHEDULE_CRON = '* * * * *'
/** Every 5 minutes: the pages add the change rows not folded yet, so this only keeps them few. */
const INSIGHT_FOLD_SCHEDULE_CRON = '*/5 * * * *'
const INSIGHT_COHORTS_SCHEDULE_CRON = '23 * * * *'

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
  // Each reminder is claimed in complaint_board_reminders: runs at once, here or on another instance, send it once.
  await boss.schedule(COMPLAINT_BOARD_REMINDER_QUEUE, COMPLAINT_BOARD_REMINDER_SCHEDULE_CRON)
  await boss.work(COMPLAINT_BOARD_REMINDER_QUEUE, async () => {
    const day = await sendComplaintBoardReminder()
    if (day) log.info(`Complaint board reminder of the ${day === 1 ? '1st' : '5th'} queued`)
  })
  // The terms this instance starts with are recorded (server/app.ts) before this; each run claims
  // its customers in terms_notices, so runs at once, here or on another instance, send each e-mail once.
  await boss.schedule(TERMS_NOTICES_QUEUE, TERMS_NOTICES_SCHEDULE_CRON)
  // The same run announces new versions of the Privacy Policy, the Investor Charter and the MITC.
  await boss.work(TERMS_NOTICES_QUEUE, async () => {
    await sendTermsNotices()
    await sendDocumentNotices()
  })
  await boss.send(TERMS_NOTICES_QUEUE, {})
  await boss.schedule(RETENTION_QUEUE, RETENTION_SCHEDULE_CRON)
  await boss.work(RETENTION_QUEUE, async () => {
    const report = await eraseExpiredData()
    const total = Object.values(report).reduce((sum, count) => sum + count, 0)
    if (total > 0) log.info(`Retention: ${JSON.stringify(report)}`)
  })
  // Each stage is claimed by a conditional update of its subscription: runs at once, here or on
  // another instance, send each reminder once (renewal-reminders.server.ts).
  if (!renewalSmsEnabled())
    log.warn('MSG91_RENEWAL_TEMPLATE_ID is not set: renewal reminders go by e-mail only, not by SMS')
  await boss.schedule(RENEWAL_REMINDERS_QUEUE, RENEWAL_REMINDERS_SCHEDULE_CRON)
  await boss.work(RENEWAL_REMINDERS_QUEUE, async () => {
    const sent = await sendRenewalReminders()
    if (sent > 0) log.info(`Renewal reminders: ${sent} sent`)
    // The same run checks the mandates' coming charges against the limits; each stop is claimed by
    // the mandate's row (mandate-lifecycle.server.ts), so runs at once stop and tell once.
    const stopped = await checkUpcomingMandateCharges()
    if (stopped > 0) log.info(`Mandate charges checked: ${stopped} automatic renewals stopped before a charge`)
  })
  // Each charge's notice is claimed by the statement that picks its mandate: sent once across instances.
  await boss.schedule(PRE_DEBIT_NOTICES_QUEUE, PRE_DEBIT_NOTICES_SCHEDULE_CRON)
  await boss.work(PRE_DEBIT_NOTICES_QUEUE, async () => {
    const sent = await sendPreDebitNotices()
    if (sent > 0) log.info(`Pre-debit notices: ${sent} sent`)
  })
  // The delivery rows are the queue: runs at once, here or on another instance, claim different rows.
  if (!researchSmsEnabled())
    log.warn('MSG91_RESEARCH_TEMPLATE_ID is not set: research is not sent by SMS (no SMS rows are queued)')
  if (!(await telegramBot()))
    log.warn('TELEGRAM_BOT_TOKEN is not set: research is not sent on Telegram (customers cannot link it)')
  await boss.schedule(RESEARCH_DELIVERIES_QUEUE, RESEARCH_DELIVERIES_SCHEDULE_CRON)
  await boss.work(RESEARCH_DELIVERIES_QUEUE, async () => {
    const run = await sendDueResearchDeliveries()
    if (run.sent + run.retrying + run.failed > 0) log.info(`Research deliveries: ${JSON.stringify(run)}`)
  })
  // Each item is published under its row lock (publishResearchItem): runs at once take its roll once.
  await boss.schedule(RESEARCH_SCHEDULED_QUEUE, RESEARCH_SCHEDULED_SCHEDULE_CRON)
  await boss.work(RESEARCH_SCHEDULED_QUEUE, async () => {
    const { published } = await publishDueScheduledResearch()
    if (published > 0) log.info(`Scheduled research: ${published} published`)
  })
  // One transaction per run; a second run at once finds the rows it would fold gone (insight-aggregates.server.ts).
  await boss.schedule(INSIGHT_FOLD_QUEUE, INSIGHT_FOLD_SCHEDULE_CRON)
  await boss.work(INSIGHT_FOLD_QUEUE, () => foldInsightChanges().then(() => undefined))
  await boss.schedule(INSIGHT_COHORTS_QUEUE, INSIGHT_COHORTS_SCHEDULE_CRON)
  await boss.work(INSIGHT_COHORTS_QUEUE, () => computeCohorts(new Date()).then(() => undefined))
  await boss.send(INSIGHT_COHORTS_QUEUE, {})
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
