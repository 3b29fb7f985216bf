// What never reaches a log line: PANs, phone numbers, e-mail addresses, sign-in codes, cookies,
// bearer tokens and the XSRF token. Two nets: the logger's own redact configuration drops fields by
// name (LOG_REDACTED_PATHS, wherever a module puts a `phone` or a request's headers), and every
// string the logger writes (the message, its arguments, nested values, an error's message and stack)
// is rewritten by pattern (redactText), so a PAN in free text is caught too (docs/operations.md).

/** What replaces a value removed by name or by pattern. */
export const REDACTED = '[redacted]'

/** Field names whose value is dropped wherever they sit (at the top or two levels down). */
const SENSITIVE_FIELDS = [
  'pan',
  'panEncrypted',
  'phone',
  'mobile',
  'email',
  'to',
  'otp',
  'cookie',
  'set-cookie',
  'authorization',
  'x-xsrf-token',
  'password',
  'token',
  'secret',
] as const

const pathOf = (field: string) => (/^[A-Za-z_$][\w$]*$/.test(field) ? field : `["${field}"]`)
const join = (prefix: string, field: string) => {
  const path = pathOf(field)
  return path.startsWith('[') ? `${prefix}${path}` : `${prefix}.${path}`
}

/** A field that holds a sign-in code when its value is 4 to 8 digits (an error's `code` such as P2002 is kept). */
const CODE_FIELDS = new Set(['code', 'otp'])
const CODE_VALUE = /^\d{4,8}$/

/** The paths handed to pino's `redact` (its syntax: `*` is any one key). */
export const LOG_REDACTED_PATHS: string[] = SENSITIVE_FIELDS.flatMap((field) => [
  pathOf(field),
  join('*', field),
  join('*.*', field),
])

const SENSITIVE_FIELD_NAMES = new Set(SENSITIVE_FIELDS.map((field) => field.toLowerCase()))

/** Query parameters whose value is personal whatever it looks like (a search by name is one). */
const SENSITIVE_PARAMETERS = new Set([...SENSITIVE_FIELD_NAMES, 'code', 'q', 'query', 'search', 'name', 'utr'])

type Rule = { pattern: RegExp; replace: string | ((match: string, ...groups: string[]) => string) }

/**
 * Patterns for free text, applied in order. Phone numbers: an international number (+ or %2B, 7 to
 * 15 digits, single spaces or hyphens allowed between them) and an Indian mobile standing alone
 * (10 digits from 6 to 9, with 0 or 91 before it), never digits inside a longer word or number.
 */
const TEXT_RULES: Rule[] = [
  // A bearer token or a Cookie header's values, before the patterns below cut them in pieces.
  { pattern: /\b(Bearer|Basic)\s+[\w.~+/=-]+/gi, replace: (_match, scheme) => `${scheme} ${REDACTED}` },
  {
    pattern: /\b((?:__Host-)?session|flash|cart|XSRF-TOKEN)=[^;,\s&"']+/gi,
    replace: (_match, name) => `${name}=${REDACTED}`,
  },
  { pattern: /[\w.!#$%&'*+/=?^`{|}~-]+(?:@|%40)[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/gi, replace: '[email]' },
  { pattern: /(?<![\w])[A-Z]{5}\d{4}[A-Z](?![\w])/gi, replace: '[PAN]' },
  { pattern: /(?:\+|%2B)\d(?:[ -]?\d){6,14}(?!\d)/gi, replace: '[phone]' },
  { pattern: /(?<![\w.])(?:0|91)?[6-9]\d{9}(?![\w])/g, replace: '[phone]' },
  // "482913 is your Research Store sign-in code": the digits before the words that name them a code.
  { pattern: /\b\d{4,8}(?=\s+is\s+(?:your|the)\b[^.\n]{0,60}\bcode\b)/gi, replace: REDACTED },
  // "code 123456", "code: 123456", "otp=1234": the digits after a word that names a code.
  {
    pattern: /\b(codes?|otp|passcode)(\W{1,4}(?:is\W{1,3})?)\d{4,8}(?!\d)/gi,
    replace: (_match, word, between) => `${word}${between}${REDACTED}`,
  },
]

/** `text` with every PAN, phone number, e-mail address, code, cookie value and bearer token replaced. */
export function redactText(text: string): string {
  let redacted = text
  for (const { pattern, replace } of TEXT_RULES)
    redacted = redacted.replace(pattern, replace as (substring: string, ...args: string[]) => string)
  return redacted
}

const MAX_DEPTH = 8

/**
 * A copy of `value` with every string in it passed through redactText and every sensitive field
 * name's value replaced (objects and arrays followed MAX_DEPTH levels down; the caller's object is
 * never changed). Errors become plain objects with their type, message and stack.
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value)
  if (value === null || typeof value !== 'object') return value
  if (depth >= MAX_DEPTH) return '[too deep]'
  if (value instanceof Date) return value
  if (value instanceof Error) return redactError(value, depth)
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1))
  if (ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`
  const copy: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    const name = key.toLowerCase()
    const sensitive = SENSITIVE_FIELD_NAMES.has(name) || (CODE_FIELDS.has(name) && CODE_VALUE.test(String(item)))
    copy[key] = sensitive && item !== undefined ? REDACTED : redactValue(item, depth + 1)
  }
  return copy
}

/** An error as a log line carries it: type, message, stack, code and cause, redacted. */
export function redactError(error: Error, depth = 0): Record<string, unknown> {
  const shown: Record<string, unknown> = {
    type: error.name,
    message: redactText(error.message),
  }
  if (error.stack) shown.stack = redactText(error.stack)
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' || typeof code === 'number') shown.code = code
  if (error.cause !== undefined) shown.cause = redactValue(error.cause, depth + 1)
  return shown
}

/**
 * A request's URL as a log line shows it: the path redacted by pattern, each query parameter's value
 * too, and the value of a parameter whose name says it is personal (q, phone, pan, code...) dropped.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?')
  const path = redactText(queryAt === -1 ? url : url.slice(0, queryAt))
  if (queryAt === -1) return path
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=')
      if (equals === -1) return redactText(pair)
      const name = pair.slice(0, equals)
      let decodedName = name
      try {
        decodedName = decodeURIComponent(name.replace(/\+/g, ' '))
      } catch {
        // A malformed escape: judged by its raw form.
      }
      const sensitive = SENSITIVE_PARAMETERS.has(decodedName.trim().toLowerCase())
      return `${redactText(name)}=${sensitive ? REDACTED : redactText(pair.slice(equals + 1))}`
    })
    .join('&')
  return `${path}?${query}`
}
