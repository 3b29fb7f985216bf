import { type Keyset, type Page, type PageRequest, pageOf } from '~/domain/keyset'
import { Prisma } from '~/generated/prisma/client'

/**
 * The condition and order of a keyset page over `(time, id)` columns (trusted SQL names): after a
 * key, rows below it newest first; before a key, rows above it oldest first (pageOf turns them
 * round). Both read an index on (..., time, id) in one direction, from the key on.
 */
export function keysetSql(page: PageRequest, time: string | null, id: string, idType: 'uuid' | 'bigint') {
  const columns = time ? Prisma.raw(`(${time}, ${id})`) : Prisma.raw(id)
  const order = page?.direction === 'before' ? 'ASC' : 'DESC'
  const orderBy = Prisma.raw(time ? `ORDER BY ${time} ${order}, ${id} ${order}` : `ORDER BY ${id} ${order}`)
  if (!page) return { where: Prisma.sql`TRUE`, orderBy }
  const key = keyValue(page.key, time !== null, idType)
  return {
    where: page.direction === 'after' ? Prisma.sql`${columns} < ${key}` : Prisma.sql`${columns} > ${key}`,
    orderBy,
  }
}

function keyValue(key: Keyset, timed: boolean, idType: 'uuid' | 'bigint') {
  const id = idType === 'uuid' ? Prisma.sql`${key.id}::uuid` : Prisma.sql`${key.id}::bigint`
  return timed ? Prisma.sql`(${key.at!}::timestamptz, ${id})` : id
}

/**
 * Reads one page. A `before` page that comes back short has reached the newest rows: the first page
 * is read instead, so Previous always lands on a full page.
 */
export async function readKeysetPage<T>(
  page: PageRequest,
  size: number,
  read: (page: PageRequest, take: number) => Promise<T[]>,
  keyOf: (row: T) => Keyset,
): Promise<Page<T>> {
  const fetched = await read(page, size + 1)
  if (page?.direction === 'before' && fetched.length <= size)
    return pageOf(await read(null, size + 1), null, size, keyOf)
  return pageOf(fetched, page, size, keyOf)
}
