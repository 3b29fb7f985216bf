import { prisma } from '../db.server'
import { researchItemSelect, type ResearchItemRow } from './items.server'

// What a customer reads (docs/research.md): the items on whose roll they are, and nothing else.

/** How many of a customer's items /research lists, newest first (docs/limits.md). */
export const CUSTOMER_RESEARCH_LIST_SIZE = 200

export async function researchDeliveredTo(userId: string) {
  const entries = await prisma.researchRollEntry.findMany({
    where: { userId },
    select: {
      deliveredAt: true,
      item: { select: { id: true, title: true, services: { select: { service: { select: { name: true } } } } } },
    },
    orderBy: [{ deliveredAt: 'desc' }, { itemId: 'desc' }],
    take: CUSTOMER_RESEARCH_LIST_SIZE,
  })
  return entries.map(({ deliveredAt, item }) => ({
    id: item.id,
    title: item.title,
    deliveredAt,
    services: item.services.map(({ service }) => service.name).sort(),
  }))
}

/** The item when `userId` is on its roll; null for anyone else (the page answers 404). */
export async function researchItemForCustomer(userId: string, itemId: string): Promise<ResearchItemRow | null> {
  const entry = await prisma.researchRollEntry.findUnique({
    where: { itemId_userId: { itemId, userId } },
    select: { item: { select: researchItemSelect } },
  })
  return entry?.item ?? null
}
