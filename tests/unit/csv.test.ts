import { describe, expect, it } from 'vitest'
import { toCsv } from '~/domain/csv'

describe('toCsv', () => {
  it('starts with a byte order mark, ends rows with CRLF and quotes commas, quotes and line breaks', () => {
    expect(
      toCsv(
        ['name', 'amount'],
        [
          ['Rao, Asha', 2999.5],
          ['say "hi"\nthere', null],
        ],
      ),
    ).toBe('\uFEFFname,amount\r\n"Rao, Asha",2999.5\r\n"say ""hi""\nthere",\r\n')
  })

  it('defuses text a spreadsheet would run as a formula, but leaves numbers alone', () => {
    const csv = toCsv(
      ['a'],
      [['=HYPERLINK("http://evil")'], ['+91 98765'], ['-1+2'], ['@SUM(A1)'], ['\tx'], [-5], ['+1-2'], ['-2E3']],
    )
    expect(csv.split('\r\n').slice(1, 9)).toEqual([
      `"'=HYPERLINK(""http://evil"")"`,
      "'+91 98765",
      "'-1+2",
      "'@SUM(A1)",
      "'\tx",
      '-5',
      "'+1-2",
      "'-2E3",
    ])
  })

  it('leaves a phone number (a plus and digits) and a plain signed number as they are: a spreadsheet reads them as numbers', () => {
    const csv = toCsv(['a'], [['+919876543210'], ['-500'], ['-2999.50'], ['+15']])
    expect(csv.split('\r\n').slice(1, 5)).toEqual(['+919876543210', '-500', '-2999.50', '+15'])
  })
})
