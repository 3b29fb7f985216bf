import { createHash } from 'node:crypto'
import {
  type BulkNoticeForm,
  bulkNoticeParagraphs,
  bulkNoticeReachesClosedAccounts,
  chosenMobileNumbers,
} from '~/domain/bulk-notice'
import type { Prisma } from '~/generated/prisma/client'
import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'
import { enqueueEmails } from '../jobs/queue.server'
import { emailContext } from '../messaging/customer-notices.server'
import { renderEmail } from '../messaging/emails/render-email.server'
import { loggerFor } from '../operations/logger.server'

// A notice e-mailed to a chosen set of customers at once (issue 28 item 7; docs/admin.md, "Notices"):
// counted before it is sent, recorded in the audit log with its words and its audience, then
// queued as one send-email job per customer like every other e-mail (retried, archived as sent).

const log = loggerFor('admin')

export const BULK_NOTICE_TEMPLATE = 'bulk-notice'

/** Every service, on sale or not, for a notice to its running subscribers. */
export async function noticeServiceChoices(): Promise<{ value: string; label: string }[]> {
  const services = await prisma.service.findMany({
    orderBy: [{ sortOrder: 'asc' }, { name: 'asc' }],
    select: { id: true, name: true },
  })
  return services.map((service) => ({ value: service.id, label: service.name }))
}

type Recipient = { id: string; email: string | null }

function audienceWhere(notice: BulkNoticeForm, now: Date): Prisma.UserWhereInput {
  const notErased: Prisma.UserWhereInput = { role: 'CUSTOMER', erasedAt: null }
  switch (notice.audience) {
    case 'OPEN':
      return { ...notErased, closedAt: null }
    case 'HELD':
      return notErased
    case 'SERVICE':
      return {
        ...notErased,
        closedAt: null,
        subscriptions: {
          some: { serviceId: notice.serviceId ?? '', startsAt: { lte: now }, endsAt: { gt: now } },
        },
      }
    case 'CHOSEN':
      return { ...notErased, phone: { in: chosenMobileNumbers(notice.phones ?? '').numbers } }
  }
}

async function recipientsOf(notice: BulkNoticeForm, now: Date): Promise<Recipient[]> {
  return prisma.user.findMany({ where: audienceWhere(notice, now), select: { id: true, email: true } })
}

export type BulkNoticeReview = {
  /** Customers it reaches (they have an e-mail address), and those it cannot (none saved). */
  reached: number
  withoutEmail: number
  /** Chosen numbers that belong to no customer here. */
  unknownNumbers: number
}

/** What pressing "Send" would do, without doing it. */
export async function reviewBulkNotice(notice: BulkNoticeForm, now = new Date()): Promise<BulkNoticeReview> {
  const recipients = await recipientsOf(notice, now)
  const reached = recipients.filter((recipient) => recipient.email).length
  const chosen = notice.audience === 'CHOSEN' ? chosenMobileNumbers(notice.phones ?? '').numbers.length : 0
  return {
    reached,
    withoutEmail: recipients.length - reached,
    unknownNumbers: notice.audience === 'CHOSEN' ? chosen - recipients.length : 0,
  }
}

export type BulkNoticeSent = { queued: number; withoutEmail: number; alreadySent: boolean }

/**
 * Records the notice (`notice.bulk`, with its words, audience and recipients) and queues its e-mails.
 * `noticeKey` comes with the reviewed form: pressing Send twice, or two tabs, sends it once.
 */
export async function sendBulkNotice({
  notice,
  noticeKey,
  adminId,
  now = new Date(),
}: {
  notice: BulkNoticeForm
  noticeKey: string
  adminId: string
  now?: Date
}): Promise<BulkNoticeSent> {
  const recipients = await recipientsOf(notice, now)
  const reached = recipients.filter((recipient): recipient is { id: string; email: string } => !!recipient.email)
  const withoutEmail = recipients.length - reached.length
  const recorded = await prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`bulk-notice:${noticeKey}`}))`
    const earlier = await tx.auditLog.findFirst({
      where: { action: 'notice.bulk', subjectType: 'bulk_notice', subjectId: noticeKey },
      select: { id: true },
    })
    if (earlier) return false
    await recordAudit(
      tx,
      {
        actorId: adminId,
        action: 'notice.bulk',
        subjectType: 'bulk_notice',
        subjectId: noticeKey,
        before: null,
        after: {
          audience: notice.audience,
          ...(notice.audience === 'SERVICE' ? { serviceId: notice.serviceId ?? null } : {}),
          subject: notice.subject,
          body: notice.body,
          bodySha256: createHash('sha256').update(notice.body).digest('hex'),
          queued: reached.length,
          withoutEmail,
          recipientIds: reached.map((recipient) => recipient.id),
        },
      },
      now,
    )
    return true
  })
  if (!recorded) return { queued: reached.length, withoutEmail, alreadySent: true }

  const email = renderEmail(
    {
      template: BULK_NOTICE_TEMPLATE,
      subject: notice.subject,
      name: null,
      blocks: bulkNoticeParagraphs(notice.body).map((text) => ({ kind: 'paragraph' as const, text })),
    },
    await emailContext(),
  )
  const evenIfClosed = bulkNoticeReachesClosedAccounts(notice.audience)
  await enqueueEmails(
    reached.map((recipient) => ({
      to: recipient.email,
      ...email,
      userId: recipient.id,
      ...(evenIfClosed ? { evenIfClosed } : {}),
    })),
  )
  log.info({ noticeKey, queued: reached.length, audience: notice.audience }, 'A notice to customers was queued')
  return { queued: reached.length, withoutEmail, alreadySent: false }
}
