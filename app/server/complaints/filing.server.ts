import { randomBytes } from 'node:crypto'
import {
  complaintDueOn,
  complaintReference,
  SAME_COMPLAINT_WINDOW_MS,
  type ComplaintCategory,
} from '~/domain/complaints'
import { calendarDateOf, formatIndiaDate, formatIsoDate, indiaIsoDate } from '~/domain/dates'
import type { ComplaintSource, Prisma } from '~/generated/prisma/client'
import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'
import { env } from '../env.server'
import { getFileStorage, type FileStorage } from '../storage.server'
import type { ReceivedFile } from '../http/received-file.server'
import { sniffPanCardImageType } from '~/domain/pan-card-image'
import { tellComplainant } from './complainant-messages.server'

export const COMPLAINT_ATTACHMENT_PREFIX = 'complaints'
const holidays = () => env.COMPLAINT_HOLIDAYS

/** The next reference of the calendar year (India time), counted in document_sequences under the series CMP. */
async function nextReference(tx: Prisma.TransactionClient, now: Date): Promise<string> {
  const year = Number(indiaIsoDate(now).slice(0, 4))
  const [row] = await tx.$queryRaw<{ last_number: number }[]>`
    INSERT INTO document_sequences (series, financial_year, last_number) VALUES ('CMP', ${String(year)}, 1)
    ON CONFLICT (series, financial_year) DO UPDATE SET last_number = document_sequences.last_number + 1
    RETURNING last_number`
  return complaintReference(year, row!.last_number)
}

export type FiledComplaint = { id: string; reference: string; dueOn: string }

export type NewComplaint = {
  source: ComplaintSource
  sourceReference?: string | null
  category: ComplaintCategory
  text: string
  impersonation: boolean
  userId?: string | null
  complainantName?: string | null
  contactPhone?: string | null
  contactEmail?: string | null
  receivedAt: Date
  /** The admin who entered it (SCORES, other sources): audited. */
  enteredBy?: string
  /** An image received with the form (readPanCardUpload), moved into storage when filed. */
  attachment?: ReceivedFile | null
}

async function storeAttachment(file: ReceivedFile, storage: FileStorage): Promise<string> {
  const imageType = sniffPanCardImageType(file.ends)
  if (!imageType) throw new TypeError('A complaint attachment must be a JPEG, PNG or WebP image')
  const key = `${COMPLAINT_ATTACHMENT_PREFIX}/${randomBytes(16).toString('hex')}.${imageType.extension}`
  await storage.putFile(key, file, imageType.contentType)
  return key
}

/** Who files it, as the register knows them: their account, else the contact they confirmed. */
function complainantOf(complaint: NewComplaint): { key: string; where: Prisma.ComplaintWhereInput } | null {
  if (complaint.userId) return { key: `user:${complaint.userId}`, where: { userId: complaint.userId } }
  if (complaint.contactPhone)
    return { key: `phone:${complaint.contactPhone}`, where: { userId: null, contactPhone: complaint.contactPhone } }
  if (complaint.contactEmail)
    return { key: `email:${complaint.contactEmail}`, where: { userId: null, contactEmail: complaint.contactEmail } }
  return null
}

/**
 * The complaint this person filed with the same text within SAME_COMPLAINT_WINDOW_MS, if any. Under a
 * lock per complainant, so two presses at once file one complaint (docs/limits.md, complaint).
 */
async function sameComplaintFiled(tx: Prisma.TransactionClient, complaint: NewComplaint) {
  const complainant = complaint.enteredBy ? null : complainantOf(complaint)
  if (!complainant) return null
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`complaint:${complainant.key}`}, 0))::text`
  const at = complaint.receivedAt.getTime()
  return tx.complaint.findFirst({
    where: {
      ...complainant.where,
      source: complaint.source,
      text: complaint.text,
      receivedAt: { gte: new Date(at - SAME_COMPLAINT_WINDOW_MS), lte: new Date(at + SAME_COMPLAINT_WINDOW_MS) },
    },
    orderBy: { receivedAt: 'desc' },
    select: { id: true, reference: true, dueOn: true },
  })
}

/**
 * Files a complaint in the register (received), then tells the complainant its reference and due date.
 * The same text from the same person again within minutes answers the complaint already filed.
 */
export async function fileComplaint(
  complaint: NewComplaint,
  { storage = getFileStorage() }: { storage?: FileStorage } = {},
): Promise<FiledComplaint> {
  const attachmentKey = complaint.attachment ? await storeAttachment(complaint.attachment, storage) : null
  const dueOn = complaintDueOn(complaint.category, indiaIsoDate(complaint.receivedAt), holidays())
  let filed: FiledComplaint & { again: boolean }
  try {
    filed = await prisma.$transaction(async (tx) => {
      const earlier = await sameComplaintFiled(tx, complaint)
      if (earlier)
        return { id: earlier.id, reference: earlier.reference, dueOn: calendarDateOf(earlier.dueOn), again: true }
      const reference = await nextReference(tx, complaint.receivedAt)
      const row = await tx.complaint.create({
        data: {
          reference,
          source: complaint.source,
          sourceReference: complaint.sourceReference ?? null,
          category: complaint.category,
          text: complaint.text,
          impersonation: complaint.impersonation,
          userId: complaint.userId ?? null,
          complainantName: complaint.complainantName ?? null,
          contactPhone: complaint.contactPhone ?? null,
          contactEmail: complaint.contactEmail ?? null,
          attachmentKey,
          receivedAt: complaint.receivedAt,
          dueOn: new Date(`${dueOn}T00:00:00Z`),
          events: {
            create: { status: 'RECEIVED', actorId: complaint.enteredBy ?? null, createdAt: complaint.receivedAt },
          },
        },
        select: { id: true },
      })
      if (complaint.enteredBy) {
        await recordAudit(tx, {
          actorId: complaint.enteredBy,
          action: 'complaint.enter',
          subjectType: 'complaint',
          subjectId: row.id,
          before: null,
          after: { reference, source: complaint.source, sourceReference: complaint.sourceReference ?? null, dueOn },
        })
      }
      return { id: row.id, reference, dueOn, again: false }
    })
  } catch (error) {
    if (attachmentKey) await storage.delete(attachmentKey).catch(() => {})
    throw error
  }
  if (filed.again) {
    if (attachmentKey) await storage.delete(attachmentKey).catch(() => {})
    return { id: filed.id, reference: filed.reference, dueOn: filed.dueOn }
  }
  await tellComplainant(
    filed.id,
    `Complaint ${filed.reference} received`,
    `We received your complaint ${filed.reference} on ${formatIndiaDate(complaint.receivedAt)}. We will resolve it by ${formatIsoDate(filed.dueOn)}. You can follow it at /complaints.`,
  )
  return { id: filed.id, reference: filed.reference, dueOn: filed.dueOn }
}
