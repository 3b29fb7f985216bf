import { describe, expect, it } from 'vitest'
import { csvCell, csvCellSql, csvLine, csvLineSql } from '~/domain/csv'
import { prisma } from '~/server/db.server'

// csvCellSql is csvCell written again for PostgreSQL (the audit pack's lines, decision 059): the two must agree.
const VALUES = [
  null,
  '',
  'plain',
  'Rao, Asha',
  'say "hi"',
  'line\nbreak',
  'carriage\rreturn',
  '=HYPERLINK("http://evil")',
  '+91 98765',
  '+919876543210',
  '-500',
  '-2999.50',
  '+15',
  '-1+2',
  '+1-2',
  '-2E3',
  '-',
  '+',
  '-.5',
  '-5.',
  '@SUM(A1)',
  '\tx',
  '\rx',
  ' =not at the start',
  "'quoted already",
  'back\\slash',
  'राम ₹ 😀',
  '+١٢٣',
  '-12\n',
]

describe('csvCellSql', () => {
  it('writes every cell as csvCell does: the formula guard, the quoting, an empty cell for null', async () => {
    const rows = await prisma.$queryRawUnsafe<{ cell: string; line: string }[]>(
      `SELECT ${csvCellSql('v.value')} AS cell, ${csvLineSql(['v.value', 'v.value'])} AS line
       FROM unnest($1::text[]) WITH ORDINALITY v(value, position) ORDER BY v.position`,
      VALUES,
    )
    expect(rows.map((row) => row.cell)).toEqual(VALUES.map(csvCell))
    expect(rows.map((row) => row.line)).toEqual(VALUES.map((value) => csvLine([value, value])))
  })
})
