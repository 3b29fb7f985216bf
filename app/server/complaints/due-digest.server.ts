import {
  complaintCategoryLabel,
  COMPLAINT_DUE_SOON_DAYS,
  COMPLAINT_STATUS_LABELS,
  dueSoonUntil,
} from '~/domain/complaints'
import { calendarDateOf, formatIsoDate, indiaIsoDate } from '~/domain/dates'
import { renderEmail } from '~/server/messaging/emails/render-email.server'
import { prisma } from '../db.server'
import { emailContext } from '../messaging/customer-notices.server'
import { enqueueEmail } from '../jobs/queue.server'

/** The open complaints overdue or due within 3 days on `now`'s India date, soonest first. */
export async function complaintsDue(now = new Date()) {
  const today = indiaIsoDate(now)
  const rows = await prisma.complaint.findMany({
    where: {
      status: { in: ['RECEIVED', 'ACKNOWLEDGED', 'ANSWERED'] },
      dueOn: { lte: new Date(`${dueSoonUntil(today)}T00:00:00Z`) },
    },
    orderBy: [{ dueOn: 'asc' }, { reference: 'asc' }],
    select: { id: true, reference: true, category: true, status: true, dueOn: true },
  })
  return rows.map((row) => ({ ...row, dueOn: calendarDateOf(row.dueOn), overdue: calendarDateOf(row.dueOn) < today }))
}

/** The daily job: e-mails the compliance officer what is overdue or due within 3 days; nothing when nothing is. */
export async function sendComplaintsDueDigest(now = new Date()): Promise<number> {
  const due = await complaintsDue(now)
  if (due.length === 0) return 0
  const context = await emailContext()
  const lines = due.map(
    (row) =>
      `${row.reference} (${complaintCategoryLabel(row.category)}, ${COMPLAINT_STATUS_LABELS[row.status].toLowerCase()}): ${row.overdue ? 'overdue since' : 'due'} ${formatIsoDate(row.dueOn)}`,
  )
  const { businessDetails } = await import('../business.server')
  const officer = businessDetails.complianceOfficer
  await enqueueEmail({
    to: officer.email,
    ...renderEmail(
      {
        template: 'complaints-due-digest',
        subject: `Complaints due: ${due.filter((row) => row.overdue).length} overdue, ${due.filter((row) => !row.overdue).length} due within ${COMPLAINT_DUE_SOON_DAYS} days`,
        name: officer.name,
        blocks: [
          {
            kind: 'paragraph',
            text: `These complaints in the register are overdue or due within ${COMPLAINT_DUE_SOON_DAYS} days:`,
          },
          { kind: 'list', items: lines },
          { kind: 'action', label: 'Open the register', path: '/admin/complaints?status=due' },
        ],
      },
      context,
    ),
  })
  return due.length
}
