import { boardReminderDayDue, dayLabel, publicationDeadline, type BoardReminderDay } from '~/domain/complaint-board'
import { lastEndedMonth } from '~/domain/complaint-board-form'
import { indiaIsoDate } from '~/domain/dates'
import { renderEmail } from '~/server/messaging/emails/render-email.server'
import { prisma } from '../db.server'
import { enqueueEmail } from '../jobs/queue.server'
import { emailContext } from '../messaging/customer-notices.server'
import { complaintMonthAwaitingPublication } from './board-publishing.server'
import { firstDayOf } from './board-history.server'

/**
 * The daily job: while the month that ended last is not on the complaint board, e-mails the
 * compliance officer on the 1st and again on the 5th (India dates; see boardReminderDayDue). Each reminder is claimed in
 * `complaint_board_reminders` before it is queued, so runs at once, here or on another instance,
 * send it once. Answers the day of the reminder sent, or null when none was due.
 */
export async function sendComplaintBoardReminder(now = new Date()): Promise<BoardReminderDay | null> {
  const day = boardReminderDayDue(indiaIsoDate(now))
  if (!day) return null
  const awaiting = await complaintMonthAwaitingPublication(lastEndedMonth(now))
  if (!awaiting) return null
  const month = firstDayOf(awaiting.month)
  const claimed = await prisma.complaintBoardReminder.createMany({
    data: [{ month, day, sentAt: now }],
    skipDuplicates: true,
  })
  if (claimed.count === 0) return null
  try {
    const { businessDetails } = await import('../business.server')
    const officer = businessDetails.complianceOfficer
    const deadline = dayLabel(publicationDeadline(awaiting.month))
    await enqueueEmail({
      to: officer.email,
      ...renderEmail(
        {
          template: 'complaint-board-reminder',
          subject: `${day === 1 ? 'Complaint board' : 'Second reminder'}: publish ${awaiting.label} by ${deadline}`,
          name: officer.name,
          blocks: [
            {
              kind: 'paragraph',
              text: `The complaint data of ${awaiting.label} is not yet on the complaint board. SEBI's investor charter asks for each month's figures on our website by the 7th of the next month: publish it by ${deadline}.`,
            },
            { kind: 'action', label: 'Publish the month', path: '/admin/complaint-board' },
          ],
        },
        await emailContext(),
      ),
    })
  } catch (error) {
    // Not queued: the claim goes too, so the next run sends it.
    await prisma.complaintBoardReminder.delete({ where: { month_day: { month, day } } })
    throw error
  }
  return day
}
