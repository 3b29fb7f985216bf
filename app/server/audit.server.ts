import type { Prisma } from '~/generated/prisma/client'
import { ADMIN_PAGE_SIZE } from '~/domain/admin'
import type { PageRequest } from '~/domain/keyset'
import { prisma } from './db.server'
import { readKeysetPage } from './keyset.server'

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

/**
 * The newest entries first, one keyset page at a time in id order (the primary key), with the
 * actor's phone and name, for the admin console's audit page.
 */
export async function auditEntriesPage(page: PageRequest = null, size = ADMIN_PAGE_SIZE) {
  const found = await readKeysetPage(
    page,
    size,
    (at, take) =>
      prisma.auditLog.findMany({
        where: at ? { id: at.direction === 'after' ? { lt: BigInt(at.key.id) } : { gt: BigInt(at.key.id) } } : {},
        orderBy: { id: at?.direction === 'before' ? 'asc' : 'desc' },
        take,
      }),
    (entry) => ({ id: String(entry.id) }),
  )
  const entries = found.rows
  const actors = await prisma.user.findMany({
    where: { id: { in: [...new Set(entries.map((entry) => entry.actorId))] } },
    select: { id: true, phone: true, name: true },
  })
  const actorById = new Map(actors.map((actor) => [actor.id, actor]))
  const rows = entries.map((entry) => ({
    id: Number(entry.id),
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: entry.subjectId,
    before: entry.before,
    after: entry.after,
    createdAt: entry.createdAt,
    actor: actorById.get(entry.actorId) ?? { id: entry.actorId, phone: null, name: null },
  }))
  return { ...found, rows }
}
