import { familyGroupPans } from '~/domain/family'
import type { DeclaredFamilyMember } from '~/domain/family-relations'
import type { Prisma } from '~/generated/prisma/client'
import { prisma } from '../db.server'

/** The family members' PANs a customer declared, in the order they were declared. */
export function familyMembersOf(userId: string) {
  return prisma.familyMember.findMany({
    where: { userId },
    orderBy: [{ createdAt: 'asc' }, { pan: 'asc' }],
    select: { pan: true, relation: true },
  })
}

/**
 * Puts `family` in place of the customer's declared members, inside the caller's transaction.
 * The user's row is locked first, so two saves of the list at once come one after the other.
 */
export async function replaceFamilyMembers(
  tx: Prisma.TransactionClient,
  userId: string,
  family: readonly DeclaredFamilyMember[],
  now = new Date(),
): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "users" WHERE "id" = ${userId}::uuid FOR UPDATE`
  const kept = await tx.familyMember.findMany({ where: { userId }, select: { pan: true, relation: true } })
  const unchanged = (member: DeclaredFamilyMember) =>
    kept.some((old) => old.pan === member.pan && old.relation === member.relation)
  // Rows that stay keep their created_at (when the member was first declared).
  await tx.familyMember.deleteMany({
    where: { userId, NOT: { OR: family.filter(unchanged).map(({ pan, relation }) => ({ pan, relation })) } },
  })
  await tx.familyMember.createMany({
    data: family
      .filter((member) => !unchanged(member))
      .map((member, index) => ({
        userId,
        pan: member.pan,
        relation: member.relation,
        // Declared together, kept in the order given.
        createdAt: new Date(now.getTime() + index),
      })),
  })
}

/** The family members page: the whole list at once. The schema refused the customer's own PAN already. */
export async function saveFamilyMembers(
  userId: string,
  family: readonly DeclaredFamilyMember[],
  now = new Date(),
): Promise<void> {
  await prisma.$transaction((tx) => replaceFamilyMembers(tx, userId, family, now))
}

/**
 * The user ids whose payments count with this customer's for SEBI's family fee cap: the customer,
 * accounts whose PAN the customer declared, and accounts that declared the customer's PAN. Read
 * inside the caller's transaction, so the fee-cap check sees one consistent family.
 */
export async function familyUserIds(tx: Prisma.TransactionClient, userId: string): Promise<string[]> {
  const user = await tx.user.findUnique({
    where: { id: userId },
    select: { pan: true, familyMembers: { select: { pan: true } } },
  })
  if (!user) return []
  const declaredBy = user.pan
    ? await tx.familyMember.findMany({
        where: { pan: user.pan },
        select: { user: { select: { id: true, pan: true } } },
      })
    : []
  const pans = familyGroupPans(
    user.pan,
    user.familyMembers.map((member) => member.pan),
    declaredBy.map((declaration) => declaration.user.pan),
  )
  const holders = pans.size ? await tx.user.findMany({ where: { pan: { in: [...pans] } }, select: { id: true } }) : []
  return [...new Set([userId, ...declaredBy.map((declaration) => declaration.user.id), ...holders.map((u) => u.id)])]
}
