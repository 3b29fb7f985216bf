/*
 * Text a person types never holds control characters. Postgres refuses NUL in text, so one would
 * reach the database as a 500; the others (escape, DEL, backspace...) only hide or fake what an
 * admin page, a CSV file or an e-mail shows. Tab and line breaks are kept in a field of several
 * lines, where a person can type them.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_CHARACTER_BUT_LINE_BREAK_OR_TAB = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

export const CONTROL_CHARACTER_MESSAGE = 'Remove the control characters (such as NUL) from this text.'

export type PlainTextOptions = { multiLine?: boolean }

export function hasControlCharacter(text: string, { multiLine = false }: PlainTextOptions = {}): boolean {
  return (multiLine ? CONTROL_CHARACTER_BUT_LINE_BREAK_OR_TAB : CONTROL_CHARACTER).test(text)
}

/** Any string anywhere in a parsed JSON body with a control character other than a line break or tab. */
export function jsonHasControlCharacter(value: unknown): boolean {
  if (typeof value === 'string') return hasControlCharacter(value, { multiLine: true })
  if (Array.isArray(value)) return value.some(jsonHasControlCharacter)
  if (value && typeof value === 'object')
    return Object.entries(value).some(([key, item]) => hasControlCharacter(key) || jsonHasControlCharacter(item))
  return false
}
