import PgBoss from 'pg-boss'
import { isDatabaseShuttingDown } from '~/domain/error-message'
import { prisma } from '../db.server'
import { env } from '../env.server'
import type { Email } from '../messaging/mail.server'
import type { NoticeSms, OtpSms } from '../messaging/sms.server'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('jobs')

// The job queue: what other modules call to queue work, apart from the workers that do it
// (workers.server.ts), so that queueing an e-mail does not import everything a worker runs.

/**
 * Outbound SMS: retried with backoff, so a slow or failing provider never holds a request open.
 *
 * A job carries its code in clear (the provider needs it), while codes are otherwise kept only as a
 * hash. pg-boss 10 keeps finished jobs for 12 hours and then 7 days in `pgboss.archive`, with no
 * per-queue setting to change that (per-queue deletion came in pg-boss 11), so SMS jobs are deleted
 * here: by the worker once the message is delivered or given up (settleSmsJob), and after every
 * pg-boss maintenance run (every 2 minutes) whatever is left (forgetLeftoverSmsJobs). A job not
 * started while its code is valid is not sent at all: its `keep_until` is the code's expiry.
 */
export const SEND_SMS_QUEUE = 'send-sms'
// 5 retries with backoff from 5 s (5, 10, 20, 40, 80 s) end well inside a code's 5-minute life.
const SEND_SMS_RETRY_LIMIT = 5
const SEND_SMS_RETRY_DELAY_SECONDS = 5
const SEND_SMS_TIMEOUT_SECONDS = 60

/** Outbound e-mail to customers (payment confirmed or rejected): retried with backoff over about two hours. */
export const SEND_EMAIL_QUEUE = 'send-email'
const SEND_EMAIL_RETRY_LIMIT = 8
const SEND_EMAIL_RETRY_DELAY_SECONDS = 30
const SEND_EMAIL_TIMEOUT_SECONDS = 60

/**
 * A refund through the payment gateway (app/server/payments/refunds/gateway-refund.server.ts): retried with
 * backoff from 1 minute over about 4 hours (1, 2, 4, ... 128 min), then FAILED for the admin's Retry.
 */
export const REFUND_PAYMENT_QUEUE = 'refund-payment'
const REFUND_PAYMENT_RETRY_LIMIT = 8
const REFUND_PAYMENT_RETRY_DELAY_SECONDS = 60
const REFUND_PAYMENT_TIMEOUT_SECONDS = 60

/** SMS notices (a complaint's reference, an answer): no code in them, retried like e-mail. */
export const SEND_NOTICE_SMS_QUEUE = 'send-notice-sms'

/** Daily at 09:00 India time: the compliance officer's e-mail of complaints overdue or due within 3 days. */
export const COMPLAINTS_DUE_QUEUE = 'complaints-due'

/** Daily at 09:05 India time: the compliance officer's reminder, on the 1st and the 5th, of an unpublished complaint board month. */
export const COMPLAINT_BOARD_REMINDER_QUEUE = 'complaint-board-reminder'

/** At each start and hourly: the e-mail announcing a new version of the terms, once per customer (terms-versions.server.ts). */
export const TERMS_NOTICES_QUEUE = 'terms-notices'

/** Daily: the retention job erases the personal data whose period in the privacy policy has ended (retention.server.ts). */
export const RETENTION_QUEUE = 'erase-expired-data'

/**
 * Every 15 minutes: the renewal reminders due (app/server/payments/renewal-reminders.server.ts), then
 * the check of the mandates' coming charges against the limits (mandate-lifecycle.server.ts).
 */
export const RENEWAL_REMINDERS_QUEUE = 'renewal-reminders'
/** Every 15 minutes: the pre-debit notices of automatic renewals' charges due (payments/pre-debit-notices.server.ts). */
export const PRE_DEBIT_NOTICES_QUEUE = 'pre-debit-notices'
/** Adds the insight change rows into their month tables (decision 045). */
export const INSIGHT_FOLD_QUEUE = 'insight-fold'
/** Recomputes /admin/insights' cohort table. */
export const INSIGHT_COHORTS_QUEUE = 'insight-cohorts'

/**
 * Every minute: the research e-mails due, taken from the delivery log itself in batches (FOR UPDATE
 * SKIP LOCKED; app/server/research/deliveries.server.ts), not one job per message.
 */
export const RESEARCH_DELIVERIES_QUEUE = 'research-deliveries'

/** Every minute: publishes the scheduled research items whose minute has come (research/scheduling.server.ts). */
export const RESEARCH_SCHEDULED_QUEUE = 'research-scheduled'

/** Hourly clean-up of rows that only mattered for a while: limit events, old codes, ended sessions. */
export const PRUNE_QUEUE = 'prune-expired'

/**
 * Every 5 minutes: ask the gateway about orders still open after 15 minutes (a missed webhook or a
 * closed browser must not lose a paid order) and dismiss manual claims past their 7 days.
 */
export const SETTLE_PAYMENTS_QUEUE = 'settle-payments'

const globalForJobs = globalThis as { jobQueue?: Promise<PgBoss> }

/** pg-boss keeps jobs in the app's own Postgres (schema `pgboss`): every instance shares them. */
export function jobQueue(): Promise<PgBoss> {
  globalForJobs.jobQueue ??= (async () => {
    const boss = new PgBoss({ connectionString: env.DATABASE_URL, schema: 'pgboss', max: 3 })
    boss.on('error', (error) => {
      if (isDatabaseShuttingDown(error))
        log.warn('The database ended a connection (it is shutting down, or an administrator ended it)')
      else log.error({ err: error }, 'pg-boss reported an error')
    })
    // Emitted by whichever instance ran maintenance (expire, archive) this time.
    boss.on(
      'maintenance',
      () =>
        void forgetLeftoverSmsJobs().catch((error: unknown) =>
          log.error({ err: error }, 'Forgetting the settled SMS jobs failed'),
        ),
    )
    await boss.start()
    await boss.createQueue(SEND_SMS_QUEUE)
    await boss.createQueue(SEND_EMAIL_QUEUE)
    await boss.createQueue(PRUNE_QUEUE)
    await boss.createQueue(SETTLE_PAYMENTS_QUEUE)
    await boss.createQueue(REFUND_PAYMENT_QUEUE)
    await boss.createQueue(SEND_NOTICE_SMS_QUEUE)
    await boss.createQueue(COMPLAINTS_DUE_QUEUE)
    await boss.createQueue(COMPLAINT_BOARD_REMINDER_QUEUE)
    await boss.createQueue(TERMS_NOTICES_QUEUE)
    await boss.createQueue(RETENTION_QUEUE)
    await boss.createQueue(RENEWAL_REMINDERS_QUEUE)
    await boss.createQueue(PRE_DEBIT_NOTICES_QUEUE)
    await boss.createQueue(RESEARCH_DELIVERIES_QUEUE)
    await boss.createQueue(RESEARCH_SCHEDULED_QUEUE)
    await boss.createQueue(INSIGHT_FOLD_QUEUE)
    await boss.createQueue(INSIGHT_COHORTS_QUEUE)
    return boss
  })()
  return globalForJobs.jobQueue
}

/** Queues the SMS of a code valid for `validForMs`; it is not sent, or retried, after that. */
export async function enqueueOtpSms(sms: OtpSms, validForMs: number): Promise<void> {
  await (
    await jobQueue()
  ).send(SEND_SMS_QUEUE, sms, {
    retryLimit: SEND_SMS_RETRY_LIMIT,
    retryDelay: SEND_SMS_RETRY_DELAY_SECONDS,
    retryBackoff: true,
    expireInSeconds: SEND_SMS_TIMEOUT_SECONDS,
    retentionSeconds: Math.ceil(validForMs / 1000),
  })
}

export async function enqueueEmail(email: Email): Promise<void> {
  await (
    await jobQueue()
  ).send(SEND_EMAIL_QUEUE, email, {
    retryLimit: SEND_EMAIL_RETRY_LIMIT,
    retryDelay: SEND_EMAIL_RETRY_DELAY_SECONDS,
    retryBackoff: true,
    expireInSeconds: SEND_EMAIL_TIMEOUT_SECONDS,
  })
}

/** Many e-mails in one statement per batch (a notice to every customer), each retried as enqueueEmail's. */
export async function enqueueEmails(emails: Email[], batchSize = 1_000): Promise<void> {
  const boss = await jobQueue()
  for (let start = 0; start < emails.length; start += batchSize) {
    await boss.insert(
      emails.slice(start, start + batchSize).map((email) => ({
        name: SEND_EMAIL_QUEUE,
        data: email,
        retryLimit: SEND_EMAIL_RETRY_LIMIT,
        retryDelay: SEND_EMAIL_RETRY_DELAY_SECONDS,
        retryBackoff: true,
        expireInSeconds: SEND_EMAIL_TIMEOUT_SECONDS,
      })),
    )
  }
}

/** `startAfter`: not sent before then (a reminder waiting for the end of India's night). */
export async function enqueueNoticeSms(sms: NoticeSms, { startAfter }: { startAfter?: Date } = {}): Promise<void> {
  await (
    await jobQueue()
  ).send(SEND_NOTICE_SMS_QUEUE, sms, {
    ...(startAfter ? { startAfter } : {}),
    retryLimit: SEND_EMAIL_RETRY_LIMIT,
    retryDelay: SEND_EMAIL_RETRY_DELAY_SECONDS,
    retryBackoff: true,
    expireInSeconds: SEND_EMAIL_TIMEOUT_SECONDS,
  })
}

export type GatewayRefundJob = { refundId: string }

export async function enqueueGatewayRefund(refundId: string): Promise<void> {
  await (
    await jobQueue()
  ).send(REFUND_PAYMENT_QUEUE, { refundId } satisfies GatewayRefundJob, {
    retryLimit: REFUND_PAYMENT_RETRY_LIMIT,
    retryDelay: REFUND_PAYMENT_RETRY_DELAY_SECONDS,
    retryBackoff: true,
    expireInSeconds: REFUND_PAYMENT_TIMEOUT_SECONDS,
  })
}

/**
 * Deletes the SMS jobs no worker will settle: finished some other way (timed out, failed while the
 * process stopped), never started before their code expired, or archived by pg-boss. Raw SQL on
 * pg-boss 10's own tables (`job` is partitioned by queue name, `archive` is not).
 */
export async function forgetLeftoverSmsJobs(): Promise<number> {
  const fromJobs = await prisma.$executeRaw`
    DELETE FROM pgboss.job WHERE name = ${SEND_SMS_QUEUE}
      AND (state IN ('completed', 'cancelled', 'failed') OR keep_until < now())`
  const fromArchive = await prisma.$executeRaw`DELETE FROM pgboss.archive WHERE name = ${SEND_SMS_QUEUE}`
  return fromJobs + fromArchive
}

/**
 * PostgreSQL's admin_shutdown: the server is stopping, or an administrator ended the connection;
 * pg-boss opens a new one when it needs it. Ctrl-C on `npm start` does this to the embedded
 * database (it shares the terminal) while the store shuts down, and the error object would print
 * the whole connection.
 */
export async function stopJobs(): Promise<void> {
  const pending = globalForJobs.jobQueue
  delete globalForJobs.jobQueue
  if (pending) await (await pending).stop({ graceful: true, timeout: 5_000 })
}
