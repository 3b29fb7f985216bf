import {
  canMoveComplaint,
  complaintCategoryLabel,
  COMPLAINT_STATUS_LABELS,
  dueSoonUntil,
  isOpenComplaint,
  type ComplaintStatus,
} from '~/domain/complaints'
import { calendarDateOf, formatIndiaDate, formatIsoDate, indiaIsoDate } from '~/domain/dates'
import type { Prisma } from '~/generated/prisma/client'
import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'
import { tellComplainant } from './complainant-messages.server'

export const COMPLAINT_CONFLICT_MESSAGE =
  'Another admin changed this complaint a moment ago. Its page now shows their step; yours was not saved.'
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
    dueOn: formatIsoDate(calendarDateOf(row.dueOn)),
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
    const dueOn = calendarDateOf(row.dueOn)
    return {
      ...row,
      category: complaintCategoryLabel(row.category),
      statusLabel: COMPLAINT_STATUS_LABELS[row.status],
      receivedOn: formatIndiaDate(row.receivedAt),
      dueOn: formatIsoDate(dueOn),
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
    dueOn: formatIsoDate(calendarDateOf(row.dueOn)),
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
/** The attached image of a complaint, for the admin only (the route checks). */
export async function complaintAttachmentKey(id: string): Promise<string | null> {
  const row = await prisma.complaint.findUnique({ where: { id }, select: { attachmentKey: true } })
  return row?.attachmentKey ?? null
}
