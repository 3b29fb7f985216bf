// Keyset pages for the admin lists: newest first in (time, id) order, each page starting after the
// last row the previous one showed, so rows added meanwhile never shift a page or show twice. The
// cursor rides in the query string (?after= or ?before=), so Next and Previous are plain links.

/** Where a page starts: a row's time (ms) and id; lists ordered by a serial id alone leave `at` out. */
export type Keyset = { at?: Date; id: string }

/** `after`: the next (older) page starts below this key; `before`: the previous (newer) page ends above it. */
export type PageRequest = { direction: 'after' | 'before'; key: Keyset } | null

export type IdKind = 'uuid' | 'serial'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const SERIAL = /^[1-9][0-9]{0,17}$/
/** Times from 2000 to 2100, in ms. */
const MIN_MS = 946_684_800_000
const MAX_MS = 4_102_444_800_000

export function encodeCursor(key: Keyset): string {
  return key.at ? `${key.at.getTime()}_${key.id}` : key.id
}

/** The key a cursor names, or null for anything this list did not write (a tampered or stale link). */
export function decodeCursor(text: string, idKind: IdKind, timed = true): Keyset | null {
  if (text.length > 80) return null
  const [time, id, extra] = timed ? text.split('_') : [undefined, text]
  if (extra !== undefined || id === undefined) return null
  if (!(idKind === 'uuid' ? UUID : SERIAL).test(id)) return null
  if (!timed) return { id }
  if (!/^\d{12,13}$/.test(time ?? '')) return null
  const ms = Number(time)
  if (ms < MIN_MS || ms > MAX_MS) return null
  return { at: new Date(ms), id }
}

/**
 * The page a query string asks for. A cursor that does not decode (or both directions at once) is
 * `invalid`: the list shows its first page and says so, rather than failing.
 */
export function readPageRequest(
  params: URLSearchParams,
  idKind: IdKind,
  timed = true,
): { page: PageRequest; invalid: boolean } {
  const after = params.get('after')
  const before = params.get('before')
  if (after === null && before === null) return { page: null, invalid: false }
  if (after !== null && before !== null) return { page: null, invalid: true }
  const direction = after !== null ? 'after' : 'before'
  const key = decodeCursor((after ?? before)!, idKind, timed)
  return key ? { page: { direction, key }, invalid: false } : { page: null, invalid: true }
}

export type Page<T> = { rows: T[]; next: string | null; previous: string | null }

/**
 * Turns what the query read into a page. The query reads `size + 1` rows in its scan order: newest
 * first for the first page and `after`, oldest first for `before` (the extra row says whether more
 * lie that way). Rows come back newest first with the cursors of the pages on either side.
 */
export function pageOf<T>(fetched: T[], request: PageRequest, size: number, keyOf: (row: T) => Keyset): Page<T> {
  const more = fetched.length > size
  const slice = fetched.slice(0, size)
  const rows = request?.direction === 'before' ? slice.reverse() : slice
  const first = rows[0]
  const last = rows.at(-1)
  const olderExist = request?.direction === 'before' ? true : more
  const newerExist = request === null ? false : request.direction === 'after' ? true : more
  return {
    rows,
    next: olderExist && last ? encodeCursor(keyOf(last)) : null,
    previous: newerExist && first ? encodeCursor(keyOf(first)) : null,
  }
}

/** The link to another page: the same filters, this cursor, and no other cursor. */
export function pageHref(search: string, direction: 'after' | 'before', cursor: string): string {
  const params = new URLSearchParams(search)
  params.delete('after')
  params.delete('before')
  params.set(direction, cursor)
  return `?${params.toString()}`
}
