import { describe, expect, it } from 'vitest'
import { decodeCursor, encodeCursor, pageHref, pageOf, readPageRequest } from '~/domain/keyset'

const id = '0f8b1c2e-3d4a-4b5c-8d6e-7f8091a2b3c4'
const at = new Date('2026-11-20T18:00:00.123Z')

describe('keyset cursors', () => {
  it('round-trip a time and a uuid, or a serial id alone', () => {
    expect(decodeCursor(encodeCursor({ at, id }), 'uuid')).toEqual({ at, id })
    expect(decodeCursor(encodeCursor({ id: '12345' }), 'serial', false)).toEqual({ id: '12345' })
  })

  it.each([
    '',
    'garbage',
    `${at.getTime()}`,
    `${at.getTime()}_${id}_x`,
    `${at.getTime()}_not-a-uuid`,
    `${at.getTime()}_${id.toUpperCase()}`,
    `99999999999999_${id}`,
    `-1_${id}`,
    `1e12_${id}`,
    `${at.getTime()}_${id}'; DROP TABLE payments;--`,
    'x'.repeat(200),
  ])('refuse a tampered cursor %j', (text) => {
    expect(decodeCursor(text, 'uuid')).toBeNull()
  })

  it('refuse a serial id that is not a positive whole number', () => {
    for (const text of ['0', '-5', '1.5', '12a', '9'.repeat(19)]) expect(decodeCursor(text, 'serial', false)).toBeNull()
  })

  it('read the page a query string asks for, and call a bad or double cursor invalid', () => {
    expect(readPageRequest(new URLSearchParams(''), 'uuid')).toEqual({ page: null, invalid: false })
    expect(readPageRequest(new URLSearchParams(`after=${encodeCursor({ at, id })}`), 'uuid')).toEqual({
      page: { direction: 'after', key: { at, id } },
      invalid: false,
    })
    expect(readPageRequest(new URLSearchParams(`before=${encodeCursor({ at, id })}`), 'uuid').page?.direction).toBe(
      'before',
    )
    expect(readPageRequest(new URLSearchParams('after=nope'), 'uuid')).toEqual({ page: null, invalid: true })
    expect(readPageRequest(new URLSearchParams('after=1&before=2'), 'serial', false)).toEqual({
      page: null,
      invalid: true,
    })
  })
})

describe('pageOf', () => {
  const rows = (ids: number[]) => ids.map((n) => ({ id: String(n) }))
  const keyOf = (row: { id: string }) => ({ id: row.id })

  it('gives the first page a Next link only when more rows lie beyond', () => {
    expect(pageOf(rows([9, 8, 7, 6]), null, 3, keyOf)).toEqual({ rows: rows([9, 8, 7]), next: '7', previous: null })
    expect(pageOf(rows([9, 8]), null, 3, keyOf)).toEqual({ rows: rows([9, 8]), next: null, previous: null })
  })

  it('gives a later page a Previous link, and Next while more lie beyond', () => {
    const after = { direction: 'after' as const, key: { id: '7' } }
    expect(pageOf(rows([6, 5, 4, 3]), after, 3, keyOf)).toEqual({ rows: rows([6, 5, 4]), next: '4', previous: '6' })
    expect(pageOf(rows([2, 1]), after, 3, keyOf)).toEqual({ rows: rows([2, 1]), next: null, previous: '2' })
  })

  it('turns a page read backwards round, newest first', () => {
    const before = { direction: 'before' as const, key: { id: '3' } }
    expect(pageOf(rows([4, 5, 6, 7]), before, 3, keyOf)).toEqual({ rows: rows([6, 5, 4]), next: '4', previous: '6' })
  })
})

describe('pageHref', () => {
  it('keeps the filters and carries one cursor', () => {
    expect(pageHref('?status=PAID&before=1&q=a+b', 'after', '1700000000000_x')).toBe(
      '?status=PAID&q=a+b&after=1700000000000_x',
    )
  })
})
