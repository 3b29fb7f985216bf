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

/** Where the last batch ended when reading forward: rows sort by their time, then id (times can be equal). */
export type BatchKey<Id> = { at: Date; id: Id }

/**
 * The rows after `key` in (time, id) order, a batch at a time, for work over a range of any size
 * (exports, jobs): memory holds one batch, and each batch is its own query.
 */
export async function* batchesInKeyOrder<Row, Id>(
  read: (after: BatchKey<Id> | null, take: number) => Promise<Row[]>,
  keyOf: (row: Row) => BatchKey<Id>,
  batchRows: number,
): AsyncGenerator<Row[]> {
  let key: BatchKey<Id> | null = null
  for (;;) {
    const rows = await read(key, batchRows)
    if (rows.length) yield rows
    if (rows.length < batchRows) return
    key = keyOf(rows.at(-1)!)
  }
}

/** Prisma's filter for "after `key`" on a (time, id) ordering; PostgreSQL serves it from the (time, id) index. */
export function afterKey<Field extends string, Id>(field: Field, key: BatchKey<Id> | null) {
  if (!key) return {}
  // A computed key widens to a string index; the cast only names the field it is.
  return { OR: [{ [field]: { gt: key.at } }, { [field]: key.at, id: { gt: key.id } }] } as {
    OR: (Record<Field, { gt: Date }> | (Record<Field, Date> & { id: { gt: Id } }))[]
  }
}
