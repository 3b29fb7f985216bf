import {
  dueReminderStage,
  REMINDER_AFTER_END_LIMIT_MS,
  REMINDER_STAGE_BEFORE_END_MS,
  REMINDER_STAGES,
  type ReminderStage,
} from '~/domain/renewal-reminders'
import { prisma } from '../db.server'
import {
  emailContext,
  notifyRenewalReminders,
  type RenewalReminder,
  withCustomerAndService,
} from '../messaging/customer-notices.server'
import { renewalSmsEnabled } from '../messaging/sms.server'

// The renewal reminders job (docs/payments.md, "Renewals"), run every 15 minutes by the job runtime
// (app/server/jobs/workers.server.ts). Further channels (Telegram, once a customer can link one) are
// one more send in notifyRenewalReminders, behind the same claim.

/** Subscriptions read per statement. */
export const REMINDER_BATCH_ROWS = 500

type Candidate = {
  id: string
  user_id: string
  service_id: string
  starts_at: Date
  ends_at: Date
  reminder_stage: number
}

/**
 * Sends the reminders due at `now`, a batch at a time. Due rows are those running as sold whose end
 * lies within 7 days ahead or a day behind (the partial index subscriptions_reminder_due_idx) and
 * whose service is not already renewed (a later period of the same service starting at or after
 * this end). Each stage is claimed by a conditional update (reminder_stage < the stage due), so two
 * runs at once, here or on another instance, send it once; a row that passed several stages since
 * the last run gets the latest only. Returns how many reminders were sent.
 */
export async function sendRenewalReminders({
  now = new Date(),
  batchRows = REMINDER_BATCH_ROWS,
  sms = renewalSmsEnabled(),
}: { now?: Date; batchRows?: number; sms?: boolean } = {}): Promise<number> {
  const from = new Date(now.getTime() - REMINDER_AFTER_END_LIMIT_MS)
  const until = new Date(now.getTime() + REMINDER_STAGE_BEFORE_END_MS[REMINDER_STAGES.WEEK_BEFORE])
  let after: { endsAt: Date; id: string } = { endsAt: from, id: '00000000-0000-0000-0000-000000000000' }
  let sent = 0
  const context = await emailContext()
  for (;;) {
    const rows = await prisma.$queryRaw<Candidate[]>`
      SELECT s.id::text AS id, s.user_id::text AS user_id, s.service_id::text AS service_id,
             s.starts_at, s.ends_at, s.reminder_stage
        FROM subscriptions s
       WHERE s.ended_at IS NULL AND s.reminder_stage < 3
         AND s.ends_at > ${from} AND s.ends_at <= ${until}
         AND (s.ends_at, s.id) > (${after.endsAt}, ${after.id}::uuid)
         AND NOT EXISTS (
           SELECT 1 FROM subscriptions later
            WHERE later.user_id = s.user_id AND later.service_id = s.service_id
              AND later.ends_at > s.ends_at AND later.starts_at >= s.ends_at AND later.ends_at > later.starts_at)
         -- Not while it renews automatically (an authorised mandate: docs/payments.md, "Renewals and mandates").
         AND NOT EXISTS (
           SELECT 1 FROM mandates m
            WHERE m.user_id = s.user_id AND m.service_id = s.service_id AND m.state = 'ACTIVE')
       ORDER BY s.ends_at, s.id
       LIMIT ${batchRows}`
    const last = rows.at(-1)
    if (last) after = { endsAt: last.ends_at, id: last.id }
    const due = rows.flatMap((row) => {
      const stage = dueReminderStage(row.starts_at, row.ends_at, now)
      return stage !== null && stage > row.reminder_stage ? [{ ...row, stage }] : []
    })
    if (due.length > 0) sent += await claimAndSend(due, { now, sms, context })
    if (rows.length < batchRows) return sent
  }
}

async function claimAndSend(
  due: (Candidate & { stage: ReminderStage })[],
  options: Parameters<typeof notifyRenewalReminders>[1],
): Promise<number> {
  const claimed = await prisma.$queryRaw<{ id: string }[]>`
    UPDATE subscriptions s SET reminder_stage = claim.stage
      FROM unnest(${due.map((row) => row.id)}::uuid[], ${due.map((row) => row.stage)}::smallint[]) AS claim(id, stage)
     WHERE s.id = claim.id AND s.reminder_stage < claim.stage
    RETURNING s.id::text AS id`
  if (claimed.length === 0) return 0
  const mine = new Set(claimed.map((row) => row.id))
  const rows = due.filter((row) => mine.has(row.id))
  const reminders: RenewalReminder[] = (await withCustomerAndService(rows)).map(
    ({ user, service, ends_at, stage }) => ({
      user,
      service,
      endsAt: ends_at,
      stage,
    }),
  )
  await notifyRenewalReminders(reminders, options)
  return reminders.length
}
