import { COMPLAINT_ESCALATION_LADDER } from '~/content/legal/complaint-escalation'
import { getErrorMessage } from '~/domain/error-message'
import { renderEmail } from '~/server/messaging/emails/render-email.server'
import { brandNames } from '../brand.server'
import { prisma } from '../db.server'
import { emailContext, notifyCustomer } from '../messaging/customer-notices.server'
import { enqueueNoticeSms } from '../jobs/queue.server'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('complaints')

/**
 * E-mail when we have an address (theirs or their account's), else SMS to their number; never fails
 * the caller. Either ends with the escalation ladder (SCORES, then SMART ODR) and the 21 days.
 */
export async function tellComplainant(complaintId: string, subject: string, text: string): Promise<void> {
  try {
    const complaint = await prisma.complaint.findUniqueOrThrow({
      where: { id: complaintId },
      select: {
        contactEmail: true,
        contactPhone: true,
        complainantName: true,
        user: { select: { name: true, email: true, phone: true } },
      },
    })
    const email = complaint.contactEmail ?? complaint.user?.email ?? null
    if (email) {
      await notifyCustomer({
        email,
        ...renderEmail(
          {
            template: 'complaint-message',
            subject,
            name: complaint.user?.name ?? complaint.complainantName,
            blocks: [
              { kind: 'paragraph', text },
              { kind: 'action', label: 'See your complaints', path: '/complaints' },
              { kind: 'paragraph', text: COMPLAINT_ESCALATION_LADDER },
            ],
          },
          await emailContext(),
        ),
      })
      return
    }
    const phone = complaint.contactPhone ?? complaint.user?.phone ?? null
    if (phone)
      await enqueueNoticeSms({
        to: phone,
        text: `${(await brandNames()).sender}: ${text} ${COMPLAINT_ESCALATION_LADDER}`,
      })
  } catch (error) {
    log.error(`Could not tell the complainant of ${complaintId}: ${getErrorMessage(error)}`)
  }
}
