import { formatIndiaDate } from '~/domain/dates'
import { PRE_DEBIT_NOTICE_MIN_HOURS, PRE_DEBIT_NOTICE_WINDOW_HOURS } from '~/domain/mandates'
import { formatRupees } from '~/domain/money'
import { smsQuietUntil } from '~/domain/renewal-reminders'
import { prisma } from '../db.server'
import { brandNames } from '../brand.server'
import { enqueueEmails, enqueueNoticeSms } from '../jobs/queue.server'
import { emailContext, withCustomerAndService } from '../messaging/customer-notices.server'
import { preDebitNoticeEmail } from '../messaging/emails/customer-emails.server'
import { renewalSmsEnabled } from '../messaging/sms.server'
import { loggerFor } from '../operations/logger.server'

// The pre-debit notice of each automatic-renewal charge (docs/payments.md, "Renewals and mandates";
// decision 054): RBI's e-mandate rules want the customer told at least 24 hours before each charge,
// so the job (every 15 minutes, app/server/jobs/workers.server.ts) sends it once a charge is
// PRE_DEBIT_NOTICE_WINDOW_HOURS away, which with the 48-hour lead before a first charge leaves it
// at least a day to spare.

const log = loggerFor('payments')

const MS_PER_HOUR = 3_600_000
/** Mandates claimed per statement. */
export const PRE_DEBIT_NOTICE_BATCH_ROWS = 200

type Claimed = {
  id: string
  user_id: string
  service_id: string
  amount_paise: number
  period_days: number
  next_charge_at: Date
}

/**
 * Sends the notices due at `now`: every ACTIVE mandate whose next charge lies within the window and
 * whose notice for that charge time is not sent yet. Each is claimed by setting `notice_sent_for`
 * to the charge time in the statement that picks it (FOR UPDATE SKIP LOCKED), so runs at once, here
 * or on another instance, send it once; a charge moved to a new time (the gateway's next
 * `charge_at`) is announced again. Returns how many were sent.
 */
export async function sendPreDebitNotices({
  now = new Date(),
  batchRows = PRE_DEBIT_NOTICE_BATCH_ROWS,
  sms = renewalSmsEnabled(),
}: { now?: Date; batchRows?: number; sms?: boolean } = {}): Promise<number> {
  const until = new Date(now.getTime() + PRE_DEBIT_NOTICE_WINDOW_HOURS * MS_PER_HOUR)
  const context = await emailContext()
  let sent = 0
  for (;;) {
    // mandates_notice_due_idx: (next_charge_at, id) WHERE state = 'ACTIVE'.
    const claimed = await prisma.$queryRaw<Claimed[]>`
      UPDATE mandates m SET notice_sent_for = m.next_charge_at
        FROM (SELECT id FROM mandates
               WHERE state = 'ACTIVE' AND next_charge_at > ${now} AND next_charge_at <= ${until}
                 AND notice_sent_for IS DISTINCT FROM next_charge_at
               ORDER BY next_charge_at, id
               LIMIT ${batchRows}
               FOR UPDATE SKIP LOCKED) due
       WHERE m.id = due.id AND m.state = 'ACTIVE'
      RETURNING m.id::text AS id, m.user_id::text AS user_id, m.service_id::text AS service_id,
                m.amount_paise, m.period_days, m.next_charge_at`
    if (claimed.length === 0) return sent
    const notices = await withCustomerAndService(claimed)
    for (const { id, next_charge_at: chargeAt } of notices) {
      const hoursLeft = (chargeAt.getTime() - now.getTime()) / MS_PER_HOUR
      // Only when the customer authorised long after turning it on: still told, and the team sees it.
      if (hoursLeft < PRE_DEBIT_NOTICE_MIN_HOURS)
        log.error(`The pre-debit notice of mandate ${id} goes only ${hoursLeft.toFixed(1)} hours before its charge`)
    }
    try {
      await enqueueEmails(
        notices.flatMap(({ user, service, amount_paise, period_days, next_charge_at }) =>
          user.email
            ? [
                {
                  to: user.email,
                  userId: user.id,
                  ...preDebitNoticeEmail(
                    {
                      name: user.name,
                      serviceName: service.name,
                      amountPaise: amount_paise,
                      chargeOn: formatIndiaDate(next_charge_at),
                      periodDays: period_days,
                    },
                    context,
                  ),
                },
              ]
            : [],
        ),
      )
    } catch (error) {
      log.error({ err: error, notices: notices.length }, 'Could not queue pre-debit notice e-mails')
    }
    if (sms) {
      const { sender } = await brandNames()
      for (const { user, service, amount_paise, next_charge_at } of notices) {
        try {
          await enqueueNoticeSms(
            {
              to: user.phone,
              text: `${sender}: Rs. ${formatRupees(amount_paise)} will be charged on ${formatIndiaDate(next_charge_at)} to renew ${service.name} automatically. To stop it: ${context.origin ?? ''}/subscriptions`,
              userId: user.id,
              template: 'renewal-reminder',
            },
            { startAfter: smsQuietUntil(now) ?? undefined },
          )
        } catch (error) {
          log.error({ err: error, userId: user.id }, 'Could not queue a pre-debit notice SMS')
        }
      }
    }
    sent += notices.length
    if (claimed.length < batchRows) return sent
  }
}
