import type { Prisma } from '~/generated/prisma/client'
import { prisma } from './db.server'

/** What the admin console records for every action it takes (append-only: see the migration's trigger). */
export type AuditEntry = {
  actorId: string
  action: string
  subjectType: string
  subjectId: string
  before: Prisma.InputJsonValue | null
  after: Prisma.InputJsonValue | null
}

/** Written inside the transaction of the change it describes, so the trail and the data never disagree. */
export async function recordAudit(tx: Prisma.TransactionClient, entry: AuditEntry, now = new Date()): Promise<void> {
  await tx.auditLog.create({
    data: {
      actorId: entry.actorId,
      action: entry.action,
      subjectType: entry.subjectType,
      subjectId: entry.subjectId,
      ...(entry.before === null ? {} : { before: entry.before }),
      ...(entry.after === null ? {} : { after: entry.after }),
      createdAt: now,
    },
  })
}

/** The newest entries first, with the actor's phone and name, for the admin console's audit page. */
export async function recentAuditEntries(limit = 100) {
  const entries = await prisma.auditLog.findMany({ orderBy: { id: 'desc' }, take: limit })
  const actors = await prisma.user.findMany({
    where: { id: { in: [...new Set(entries.map((entry) => entry.actorId))] } },
    select: { id: true, phone: true, name: true },
  })
  const actorById = new Map(actors.map((actor) => [actor.id, actor]))
  return entries.map((entry) => ({
    id: Number(entry.id),
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: entry.subjectId,
    before: entry.before,
    after: entry.after,
    createdAt: entry.createdAt,
    actor: actorById.get(entry.actorId) ?? { id: entry.actorId, phone: null, name: null },
  }))
}
