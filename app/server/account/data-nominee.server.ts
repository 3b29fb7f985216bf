import type { DataNominee } from '~/domain/data-nominee'
import type { Prisma } from '~/generated/prisma/client'
import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'

const NOMINEE_FIELDS = { name: true, relationship: true, phone: true, email: true, updatedAt: true } as const

/** The customer's nominee for their data rights, if they named one. */
export function dataNomineeOf(userId: string) {
  return prisma.dataNominee.findUnique({ where: { userId }, select: NOMINEE_FIELDS })
}

/**
 * What the audit trail keeps of a nominee: the relationship and which ways to reach them were given,
 * not the third person's name or contact (the trail is append-only and outlives the account's erasure).
 */
function auditedNominee(nominee: { relationship: string; phone?: string | null; email?: string | null } | null) {
  if (!nominee) return null
  return { relationship: nominee.relationship, phone: Boolean(nominee.phone), email: Boolean(nominee.email) }
}

async function changeNominee(
  userId: string,
  change: (tx: Prisma.TransactionClient) => Promise<DataNominee | null>,
  now: Date,
): Promise<void> {
  await prisma.$transaction(async (tx) => {
    // The user's row first: two changes at once come one after the other, each audited against the one before.
    await tx.$queryRaw`SELECT 1 FROM "users" WHERE "id" = ${userId}::uuid FOR UPDATE`
    const before = await tx.dataNominee.findUnique({ where: { userId } })
    const after = await change(tx)
    if (!before && !after) return
    await recordAudit(
      tx,
      {
        actorId: userId,
        action: after ? 'account.data-nominee' : 'account.data-nominee-removed',
        subjectType: 'User',
        subjectId: userId,
        before: auditedNominee(before),
        after: auditedNominee(after),
      },
      now,
    )
  })
}

/** Names (or replaces) the customer's nominee, audited. */
export function saveDataNominee(userId: string, nominee: DataNominee, now = new Date()): Promise<void> {
  const row = {
    name: nominee.name,
    relationship: nominee.relationship,
    phone: nominee.phone ?? null,
    email: nominee.email ?? null,
    updatedAt: now,
  }
  return changeNominee(
    userId,
    async (tx) => {
      await tx.dataNominee.upsert({ where: { userId }, create: { userId, ...row, createdAt: now }, update: row })
      return nominee
    },
    now,
  )
}

/** Removes the customer's nominee, audited (nothing happens when there is none). */
export function removeDataNominee(userId: string, now = new Date()): Promise<void> {
  return changeNominee(
    userId,
    async (tx) => {
      await tx.dataNominee.deleteMany({ where: { userId } })
      return null
    },
    now,
  )
}
