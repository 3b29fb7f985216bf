import type { Keyset, Page, PageRequest } from '~/domain/keyset'
import { CUSTOMER_RESEARCH_PAGE_SIZE, readResearchListQuery } from '~/domain/research-list'
import { Prisma } from '~/generated/prisma/client'
import { prisma } from '../db.server'
import { keysetSql, readKeysetPage } from '../keyset.server'
import { researchItemSelect, type ResearchItemRow } from './items.server'
import { servableCustomerSql } from './servable.server'

// What a customer reads (docs/research.md, decision 040): every item on whose roll they are, for
// good, and, while a subscription to a service runs (and they could be on a roll now), that
// service's archive. Nothing else: anyone else gets the same 404 as for no item at all.

/** The services whose archive `userId` sees at `now`: a subscription running, and servable (as on a roll). */
export async function archiveServiceIds(userId: string, now: Date): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ service_id: string }[]>`
    SELECT DISTINCT s.service_id::text AS service_id
    FROM subscriptions s JOIN users u ON u.id = s.user_id
    WHERE s.user_id = ${userId}::uuid AND s.starts_at <= ${now} AND s.ends_at > ${now}
      AND ${await servableCustomerSql(now)}`
  return rows.map((row) => row.service_id)
}

/** The services a customer can filter their research by: those they ever subscribed to, by name. */
export async function researchServicesOf(userId: string): Promise<{ id: string; name: string }[]> {
  return prisma.service.findMany({
    where: { subscriptions: { some: { userId } } },
    select: { id: true, name: true },
    orderBy: { name: 'asc' },
  })
}

/**
 * What /research and GET /api/v1/research show for a query string: the customer's services (for
 * the filter), the filter and cursor as read (a bad one reported, the first page of everything shown)
 * and the page.
 */
export async function researchListFor(userId: string, params: URLSearchParams, now = new Date()) {
  const services = await researchServicesOf(userId)
  const query = readResearchListQuery(
    params,
    services.map((service) => service.id),
  )
  const page = await researchPageFor(userId, query, now)
  return { services, ...query, ...page }
}

/** Item `i` is visible to the reader: on their roll, or in the archive of a service they may read now. */
function visibleSql(userId: string, archive: string[]) {
  return Prisma.sql`(EXISTS (SELECT 1 FROM research_roll r WHERE r.item_id = i.id AND r.user_id = ${userId}::uuid)
    OR EXISTS (SELECT 1 FROM research_item_services a WHERE a.item_id = i.id AND a.service_id = ANY(${archive}::uuid[])))`
}

export type ResearchListEntry = {
  id: string
  title: string
  publishedAt: Date
  /** When the customer first opened it; null: unread. */
  readAt: Date | null
  services: string[]
}

type ListRow = { id: string; title: string; published_at: Date; read_at: Date | null }

/**
 * One page of the customer's research, newest first by publication, optionally of one service:
 * the candidates are the reader's roll rows and the archive services' items (both indexed), then
 * ordered and cut on research_items' (published_at, id) key.
 */
export async function researchPageFor(
  userId: string,
  { serviceId, page }: { serviceId: string | null; page: PageRequest },
  now = new Date(),
  size = CUSTOMER_RESEARCH_PAGE_SIZE,
): Promise<Page<ResearchListEntry>> {
  const archive = await archiveServiceIds(userId, now)
  const ofService = serviceId
    ? Prisma.sql`AND EXISTS (SELECT 1 FROM research_item_services f WHERE f.item_id = i.id AND f.service_id = ${serviceId}::uuid)`
    : Prisma.empty
  const read = (request: PageRequest, take: number) => {
    const keyset = keysetSql(request, 'i.published_at', 'i.id', 'uuid')
    return prisma.$queryRaw<ListRow[]>`
      SELECT i.id::text AS id, i.title, i.published_at, rd.read_at
      FROM research_items i
      LEFT JOIN research_reads rd ON rd.user_id = ${userId}::uuid AND rd.item_id = i.id
      WHERE i.id IN (SELECT r.item_id FROM research_roll r WHERE r.user_id = ${userId}::uuid
                     UNION SELECT a.item_id FROM research_item_services a WHERE a.service_id = ANY(${archive}::uuid[]))
        AND i.status = 'PUBLISHED' ${ofService} AND ${keyset.where}
      ${keyset.orderBy} LIMIT ${take}`
  }
  const keyOf = (row: ListRow): Keyset => ({ at: row.published_at, id: row.id })
  const found = await readKeysetPage(page, size, read, keyOf)
  const names = await serviceNamesOf(found.rows.map((row) => row.id))
  return {
    ...found,
    rows: found.rows.map((row) => ({
      id: row.id,
      title: row.title,
      publishedAt: row.published_at,
      readAt: row.read_at,
      services: names.get(row.id) ?? [],
    })),
  }
}

async function serviceNamesOf(itemIds: string[]): Promise<Map<string, string[]>> {
  const links = await prisma.researchItemService.findMany({
    where: { itemId: { in: itemIds } },
    select: { itemId: true, service: { select: { name: true } } },
  })
  const names = new Map<string, string[]>()
  for (const { itemId, service } of links) names.set(itemId, [...(names.get(itemId) ?? []), service.name].sort())
  return names
}

/** The item when `userId` may read it at `now` (roll or archive); null for anyone else (the page answers 404). */
export async function researchItemForCustomer(
  userId: string,
  itemId: string,
  now = new Date(),
): Promise<ResearchItemRow | null> {
  const archive = await archiveServiceIds(userId, now)
  const visible = await prisma.$queryRaw<{ id: string }[]>`
    SELECT i.id::text AS id FROM research_items i
    WHERE i.id = ${itemId}::uuid AND i.status = 'PUBLISHED' AND ${visibleSql(userId, archive)}`
  if (visible.length === 0) return null
  return prisma.researchItem.findUnique({ where: { id: itemId }, select: researchItemSelect })
}

/** Records the customer's first opening of an item (the unread marks); later openings change nothing. */
export async function markResearchRead(userId: string, itemId: string, now = new Date()): Promise<void> {
  await prisma.$executeRaw`
    INSERT INTO research_reads (user_id, item_id, read_at) VALUES (${userId}::uuid, ${itemId}::uuid, ${now})
    ON CONFLICT DO NOTHING`
}
