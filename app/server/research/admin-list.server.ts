import { ADMIN_PAGE_SIZE } from '~/domain/admin'
import type { PageRequest } from '~/domain/keyset'
import { researchListRange, type ResearchListFilter } from '~/domain/research-desk'
import { Prisma } from '~/generated/prisma/client'
import { prisma } from '../db.server'
import { keysetSql, readKeysetPage } from '../keyset.server'

// /admin/research (docs/research.md, "The analyst's desk"): every item, newest first by its date
// (publication time, else the time written), one keyset page at a time, by service, kind, status
// and India calendar dates. The order reads the (COALESCE(published_at, created_at), id) index.

const LISTED_AT = 'COALESCE(i.published_at, i.created_at)'

export type ResearchListRow = {
  id: string
  title: string
  kind: string
  status: string
  listedAt: Date
  scheduledAt: Date | null
  services: string[]
  rollSize: number
}

function researchListSql(filter: ResearchListFilter, page: PageRequest, take: number): Prisma.Sql {
  const { from, until } = researchListRange(filter)
  const conditions = [
    filter.serviceId
      ? Prisma.sql`EXISTS (SELECT 1 FROM research_item_services f WHERE f.item_id = i.id AND f.service_id = ${filter.serviceId}::uuid)`
      : null,
    filter.kind ? Prisma.sql`i.kind::text = ${filter.kind}` : null,
    filter.status ? Prisma.sql`i.status::text = ${filter.status}` : null,
    from ? Prisma.sql`${Prisma.raw(LISTED_AT)} >= ${from}` : null,
    until ? Prisma.sql`${Prisma.raw(LISTED_AT)} < ${until}` : null,
  ].filter((condition) => condition !== null)
  const keyset = keysetSql(page, LISTED_AT, 'i.id', 'uuid')
  return Prisma.sql`
    SELECT i.id::text, i.title, i.kind::text, i.status::text, ${Prisma.raw(LISTED_AT)} AS "listedAt",
           i.scheduled_at AS "scheduledAt",
           ARRAY(SELECT s.name FROM research_item_services ris JOIN services s ON s.id = ris.service_id
                 WHERE ris.item_id = i.id ORDER BY s.name) AS services,
           COALESCE(i.roll_size, 0) AS "rollSize"
    FROM research_items i
    WHERE ${Prisma.join([...conditions, keyset.where], ' AND ')}
    ${keyset.orderBy}
    LIMIT ${take}`
}

export async function researchItemsForAdmin(
  filter: ResearchListFilter,
  page: PageRequest = null,
  size = ADMIN_PAGE_SIZE,
) {
  return readKeysetPage(
    page,
    size,
    (at, take) => prisma.$queryRaw<ResearchListRow[]>(researchListSql(filter, at, take)),
    (row) => ({ at: row.listedAt, id: row.id }),
  )
}
