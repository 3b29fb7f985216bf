import { randomBytes } from 'node:crypto'
import { createCookie } from 'react-router'
import {
  canMoveComplaint,
  complaintCategoryLabel,
  complaintDueOn,
  complaintReference,
  COMPLAINT_STATUS_LABELS,
  dueSoonUntil,
  isOpenComplaint,
  type ComplaintCategory,
  type ComplaintContact,
  type ComplaintStatus,
} from '~/domain/complaints'
import { formatIndiaDate, indiaIsoDate, indiaMidnight } from '~/domain/dates'
import { getErrorMessage } from '~/domain/error-message'
import { renderEmail } from '~/emails/render-email.server'
import type { ComplaintSource, Prisma } from '~/generated/prisma/client'
import { recordAudit } from './audit.server'
import { prisma } from './db.server'
import { env } from './env.server'
import { emailContext, notifyCustomer } from './notify.server'
import { enqueueEmail, enqueueNoticeSms } from './queue.server'
import { serverSecret } from './secrets.server'
import { getFileStorage, type FileStorage } from './storage.server'
import { sniffPanCardImageType } from '~/domain/pan-card-image'

export const COMPLAINT_ATTACHMENT_PREFIX = 'complaints'
export const COMPLAINT_CONFLICT_MESSAGE =
  'Another admin changed this complaint a moment ago. Its page now shows their step; yours was not saved.'

/** Between a visitor's code and their complaint: the contact, once confirmed, for 30 minutes (signed). */
const complaintContactCookie = createCookie('complaint-contact', {
  httpOnly: true,
  secure: !env.DEMO_MODE,
  sameSite: 'lax',
  path: '/complaints',
  maxAge: 30 * 60,
  secrets: [serverSecret('complaint-contact-cookie')],
})
export type PendingContact = ComplaintContact & { confirmed: boolean }

export async function readComplaintContact(request: Request): Promise<PendingContact | null> {
  const value: unknown = await complaintContactCookie.parse(request.headers.get('Cookie'))
  if (!value || typeof value !== 'object') return null
  const contact = value as Partial<PendingContact> & { kind?: string }
  if (contact.kind === 'phone' && typeof (contact as { phone?: unknown }).phone === 'string')
    return { kind: 'phone', phone: (contact as { phone: string }).phone, confirmed: contact.confirmed === true }
  if (contact.kind === 'email' && typeof (contact as { email?: unknown }).email === 'string')
    return { kind: 'email', email: (contact as { email: string }).email, confirmed: contact.confirmed === true }
  return null
}
export const rememberComplaintContact = (contact: PendingContact) => complaintContactCookie.serialize(contact)
export const forgetComplaintContact = () => complaintContactCookie.serialize('', { maxAge: 0 })

/** The e-mail that carries a visitor's confirmation code. */
export async function emailComplaintCode(email: string, code: string): Promise<void> {
  await enqueueEmail({
    to: email,
    subject: 'Your code to file a complaint',
    body: `${code} is your code to file a complaint with Research Store. It expires in 5 minutes. Our team will never ask you for this code.`,
  })
}

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
  attachment?: { bytes: Uint8Array } | null
}

async function storeAttachment(bytes: Uint8Array, storage: FileStorage): Promise<string> {
  const imageType = sniffPanCardImageType(bytes)
  if (!imageType) throw new TypeError('A complaint attachment must be a JPEG, PNG or WebP image')
  const key = `${COMPLAINT_ATTACHMENT_PREFIX}/${randomBytes(16).toString('hex')}.${imageType.extension}`
  await storage.put(key, bytes, imageType.contentType)
  return key
}

/** Files a complaint in the register (received), then tells the complainant its reference and due date. */
export async function fileComplaint(
  complaint: NewComplaint,
  { storage = getFileStorage() }: { storage?: FileStorage } = {},
): Promise<FiledComplaint> {
  const attachmentKey = complaint.attachment ? await storeAttachment(complaint.attachment.bytes, storage) : null
  const dueOn = complaintDueOn(complaint.category, indiaIsoDate(complaint.receivedAt), holidays())
  let filed: FiledComplaint
  try {
    filed = await prisma.$transaction(async (tx) => {
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
      return { id: row.id, reference, dueOn }
    })
  } catch (error) {
    if (attachmentKey) await storage.delete(attachmentKey).catch(() => {})
    throw error
  }
  await tellComplainant(
    filed.id,
    `Complaint ${filed.reference} received`,
    `We received your complaint ${filed.reference} on ${formatIndiaDate(complaint.receivedAt)}. We will resolve it by ${formatDay(filed.dueOn)}. You can follow it at /complaints.`,
  )
  return filed
}

const formatDay = (isoDate: string) => formatIndiaDate(indiaMidnight(isoDate))

/** E-mail when we have an address (theirs or their account's), else SMS to their number; never fails the caller. */
async function tellComplainant(complaintId: string, subject: string, text: string): Promise<void> {
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
            subject,
            name: complaint.user?.name ?? complaint.complainantName,
            blocks: [
              { kind: 'paragraph', text },
              { kind: 'action', label: 'See your complaints', path: '/complaints' },
            ],
          },
          await emailContext(),
        ),
      })
      return
    }
    const phone = complaint.contactPhone ?? complaint.user?.phone ?? null
    if (phone) await enqueueNoticeSms({ to: phone, text: `Research Store: ${text}` })
  } catch (error) {
    console.error(`[complaints] could not tell the complainant of ${complaintId}: ${getErrorMessage(error)}`)
  }
}

const isoOf = (date: Date) => date.toISOString().slice(0, 10)

/** A customer's complaints: those they filed signed in, and those filed from their confirmed number. */
export async function complaintsOf(user: { id: string; phone: string }) {
  const rows = await prisma.complaint.findMany({
    where: { OR: [{ userId: user.id }, { contactPhone: user.phone }] },
    orderBy: { receivedAt: 'desc' },
    select: {
      id: true,
      reference: true,
      category: true,
      text: true,
      status: true,
      receivedAt: true,
      dueOn: true,
      events: {
        where: { message: { not: null } },
        orderBy: { id: 'asc' },
        select: { status: true, message: true, createdAt: true },
      },
    },
  })
  return rows.map((row) => ({
    id: row.id,
    reference: row.reference,
    category: complaintCategoryLabel(row.category),
    text: row.text,
    status: COMPLAINT_STATUS_LABELS[row.status],
    receivedOn: formatIndiaDate(row.receivedAt),
    dueOn: formatDay(isoOf(row.dueOn)),
    answers: row.events.map((event) => ({
      status: COMPLAINT_STATUS_LABELS[event.status],
      message: event.message!,
      sentOn: formatIndiaDate(event.createdAt),
    })),
  }))
}

export type RegisterFilter = { status: ComplaintStatus | 'open' | 'due' | 'all' }

/** The admin's register: by default the open complaints, soonest due first; `due`: overdue or due within 3 days. */
export async function complaintRegister({ status }: RegisterFilter, now = new Date()) {
  const openStatuses: ComplaintStatus[] = ['RECEIVED', 'ACKNOWLEDGED', 'ANSWERED']
  const today = indiaIsoDate(now)
  const where: Prisma.ComplaintWhereInput =
    status === 'all'
      ? {}
      : status === 'open'
        ? { status: { in: openStatuses } }
        : status === 'due'
          ? { status: { in: openStatuses }, dueOn: { lte: new Date(`${dueSoonUntil(today)}T00:00:00Z`) } }
          : { status }
  const rows = await prisma.complaint.findMany({
    where,
    orderBy: [{ dueOn: 'asc' }, { reference: 'asc' }],
    take: 500,
    select: {
      id: true,
      reference: true,
      source: true,
      sourceReference: true,
      category: true,
      status: true,
      impersonation: true,
      receivedAt: true,
      dueOn: true,
      contactPhone: true,
      contactEmail: true,
      complainantName: true,
      user: { select: { name: true, phone: true } },
    },
  })
  return rows.map((row) => {
    const dueOn = isoOf(row.dueOn)
    return {
      ...row,
      category: complaintCategoryLabel(row.category),
      statusLabel: COMPLAINT_STATUS_LABELS[row.status],
      receivedOn: formatIndiaDate(row.receivedAt),
      dueOn: formatDay(dueOn),
      urgency: isOpenComplaint(row.status)
        ? dueOn < today
          ? 'overdue'
          : dueOn <= dueSoonUntil(today)
            ? 'due-soon'
            : null
        : null,
      complainant:
        row.user?.name ?? row.complainantName ?? row.user?.phone ?? row.contactPhone ?? row.contactEmail ?? '',
    }
  })
}

/** One complaint with its steps (who and when), for /admin/complaints/:id; null when there is none. */
export async function complaintForAdmin(id: string) {
  const row = await prisma.complaint.findUnique({
    where: { id },
    include: {
      user: { select: { id: true, name: true, phone: true, email: true } },
      events: { orderBy: { id: 'asc' } },
    },
  })
  if (!row) return null
  const actorIds = [...new Set(row.events.flatMap((event) => (event.actorId ? [event.actorId] : [])))]
  const actors = await prisma.user.findMany({
    where: { id: { in: actorIds } },
    select: { id: true, name: true, phone: true },
  })
  const actorName = new Map(actors.map((actor) => [actor.id, actor.name ?? actor.phone]))
  return {
    id: row.id,
    reference: row.reference,
    source: row.source,
    sourceReference: row.sourceReference,
    category: complaintCategoryLabel(row.category),
    text: row.text,
    impersonation: row.impersonation,
    status: row.status,
    version: row.version,
    hasAttachment: row.attachmentKey !== null,
    receivedAt: row.receivedAt,
    dueOn: formatDay(isoOf(row.dueOn)),
    complainant: {
      name: row.user?.name ?? row.complainantName,
      phone: row.contactPhone ?? row.user?.phone ?? null,
      email: row.contactEmail ?? row.user?.email ?? null,
      userId: row.user?.id ?? null,
    },
    events: row.events.map((event) => ({
      id: Number(event.id),
      status: event.status,
      message: event.message,
      at: event.createdAt,
      by: event.actorId ? (actorName.get(event.actorId) ?? event.actorId) : 'Complainant',
    })),
  }
}

export type StepResult = { ok: true } | { ok: false; status: 404 | 409 | 400; message: string }

/**
 * The admin's next step on a complaint, with the text sent to the complainant. The step applies only
 * to the version the admin saw: of two admins answering at once, the second is refused.
 */
export async function takeComplaintStep({
  complaintId,
  adminId,
  status,
  message,
  version,
  now = new Date(),
}: {
  complaintId: string
  adminId: string
  status: ComplaintStatus
  message?: string | null
  version: number
  now?: Date
}): Promise<StepResult> {
  const result = await prisma.$transaction(async (tx): Promise<StepResult & { reference?: string }> => {
    const current = await tx.complaint.findUnique({
      where: { id: complaintId },
      select: { status: true, version: true, reference: true },
    })
    if (!current) return { ok: false, status: 404, message: 'There is no such complaint.' }
    if (current.version !== version) return { ok: false, status: 409, message: COMPLAINT_CONFLICT_MESSAGE }
    if (!canMoveComplaint(current.status, status))
      return {
        ok: false,
        status: 400,
        message: `A ${COMPLAINT_STATUS_LABELS[current.status].toLowerCase()} complaint cannot be marked ${COMPLAINT_STATUS_LABELS[status].toLowerCase()}.`,
      }
    const updated = await tx.complaint.updateMany({
      where: { id: complaintId, version },
      data: {
        status,
        version: { increment: 1 },
        ...(status === 'RESOLVED' ? { resolvedAt: now } : {}),
      },
    })
    if (updated.count === 0) return { ok: false, status: 409, message: COMPLAINT_CONFLICT_MESSAGE }
    await tx.complaintEvent.create({
      data: { complaintId, status, actorId: adminId, message: message || null, createdAt: now },
    })
    await recordAudit(
      tx,
      {
        actorId: adminId,
        action: 'complaint.step',
        subjectType: 'complaint',
        subjectId: complaintId,
        before: { status: current.status, version },
        after: { status, version: version + 1, message: message || null },
      },
      now,
    )
    return { ok: true, reference: current.reference }
  })
  if (result.ok && message)
    await tellComplainant(
      complaintId,
      `Complaint ${result.reference}: ${COMPLAINT_STATUS_LABELS[status].toLowerCase()}`,
      message,
    )
  return result.ok ? { ok: true } : result
}

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
  return rows.map((row) => ({ ...row, dueOn: isoOf(row.dueOn), overdue: isoOf(row.dueOn) < today }))
}

/** The daily job: e-mails the compliance officer what is overdue or due within 3 days; nothing when nothing is. */
export async function sendComplaintsDueDigest(now = new Date()): Promise<number> {
  const due = await complaintsDue(now)
  if (due.length === 0) return 0
  const context = await emailContext()
  const lines = due.map(
    (row) =>
      `${row.reference} (${complaintCategoryLabel(row.category)}, ${COMPLAINT_STATUS_LABELS[row.status].toLowerCase()}): ${row.overdue ? 'overdue since' : 'due'} ${formatDay(row.dueOn)}`,
  )
  const { businessDetails } = await import('./business.server')
  const officer = businessDetails.complianceOfficer
  await enqueueEmail({
    to: officer.email,
    ...renderEmail(
      {
        subject: `Complaints due: ${due.filter((row) => row.overdue).length} overdue, ${due.filter((row) => !row.overdue).length} due within 3 days`,
        name: officer.name,
        blocks: [
          { kind: 'paragraph', text: 'These complaints in the register are overdue or due within 3 days:' },
          { kind: 'list', items: lines },
          { kind: 'action', label: 'Open the register', path: '/admin/complaints?status=due' },
        ],
      },
      context,
    ),
  })
  return due.length
}

/** The attached image of a complaint, for the admin only (the route checks). */
export async function complaintAttachmentKey(id: string): Promise<string | null> {
  const row = await prisma.complaint.findUnique({ where: { id }, select: { attachmentKey: true } })
  return row?.attachmentKey ?? null
}
