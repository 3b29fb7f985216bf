/**
 * CSV for spreadsheets (RFC 4180, CRLF line ends), opened by an accountant in Excel or Sheets:
 * - a UTF-8 byte order mark, or Excel reads "₹" and Indian names as mojibake;
 * - a cell that starts with = + - @ or a tab/return is a formula to a spreadsheet, and customer-typed
 *   text (a name, a rejection reason) must never run as one (CSV injection), so it gets a leading '.
 * Numbers are written as they are; only text is guarded. Text that is entirely a signed number
 * (a phone number like +919876543210, an amount like -500) is read by a spreadsheet as that number,
 * never as a formula, so it is left alone: an apostrophe there would only corrupt the phone column.
 */
export type CsvCell = string | number | null

const FORMULA_START = /^[=+\-@\t\r]/
const SIGNED_NUMBER = /^[+-]\d+(\.\d+)?$/

/** One cell as the file holds it: guarded against formulas, quoted where it must be. */
export function csvCell(value: CsvCell): string {
  if (value === null) return ''
  if (typeof value === 'number') return String(value)
  const text = FORMULA_START.test(value) && !SIGNED_NUMBER.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** Starts a file: Excel needs it to read UTF-8. */
export const CSV_BYTE_ORDER_MARK = '\uFEFF'

/** One record with its line end, for a file written a batch at a time. */
export function csvLine(row: readonly CsvCell[]): string {
  return `${row.map(csvCell).join(',')}\r\n`
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return CSV_BYTE_ORDER_MARK + [header, ...rows].map(csvLine).join('')
}

/**
 * csvCell of a text column in SQL, for files whose lines PostgreSQL writes (trusted SQL in, trusted SQL out): NULL is
 * empty; text that starts as a formula gets a leading ' unless it is only a signed number; text with a quote, comma or
 * line break is quoted. tests/integration/admin-export.test.ts holds the two equal on hostile text. `column` is
 * repeated in the result, so it should be a column, not a computation.
 */
export function csvCellSql(column: string): string {
  const guarded = `CASE WHEN left(${column}, 1) IN ('=', '+', '-', '@', E'\\t', E'\\r') AND ${column} !~ '^[+-][0-9]+(\\.[0-9]+)?$'
    THEN '''' || ${column} ELSE ${column} END`
  return `CASE WHEN ${column} IS NULL THEN ''
    WHEN strpos(${column}, '"') > 0 OR strpos(${column}, ',') > 0 OR strpos(${column}, E'\\r') > 0 OR strpos(${column}, E'\\n') > 0
    THEN '"' || replace(${guarded}, '"', '""') || '"' ELSE ${guarded} END`
}

/**
 * Cells PostgreSQL writes as they are: ids, enums, times and amounts it formats, which hold no comma, quote or line
 * break and start with no formula character (a negative amount is a signed number, which csvCell leaves alone too).
 */
export const plainCellSql = (value: string) => `coalesce(${value}, '')`

/** csvLine as SQL: one record with its line end, of cells already written by csvCellSql or plainCellSql. */
export function csvLineSql(cells: readonly string[]): string {
  return `${cells.join(` || ',' || `)} || E'\\r\\n'`
}
