import { afterEach, describe, expect, it } from 'vitest'
import { captureLogLines, loggerFor, logSettingsFrom, withRequestContext } from '~/server/operations/logger.server'
import { redactText, redactUrl } from '~/server/operations/redaction.server'

// No personal data in a log line (docs/operations.md, Logs), whether a module puts it in a field, in the message, in
// a format argument, in an error, or in a URL's query string. Each kind is logged through the real
// logger, and the JSON it writes is searched for every form of it.

const PERSONAL = {
  pan: 'ABCPE1234F',
  panLowerCase: 'abcpe1234f',
  phone: '+919876543210',
  phoneSpaced: '+91 98765 43210',
  phoneBare: '9876543210',
  phoneEncoded: '%2B919876543210',
  email: 'asha.rao@example.in',
  emailEncoded: 'asha.rao%40example.in',
  code: '482913',
  cookie: 'session=s%3Aabc123.def456; XSRF-TOKEN=xsrf0123456789abcdef',
  bearer: 'Bearer tok_abcdef0123456789',
  xsrf: 'xsrf0123456789abcdef',
}

/** What must not appear in any form: the raw values and their telling parts. */
const FORBIDDEN = [
  'ABCPE1234F',
  '9876543210',
  '98765 43210',
  'asha.rao',
  '482913',
  's%3Aabc123',
  'tok_abcdef',
  'xsrf0123456789abcdef',
]

function expectNoPersonalData(text: string) {
  for (const value of FORBIDDEN) expect(text.toLowerCase(), `the log holds ${value}`).not.toContain(value.toLowerCase())
}

let capture: ReturnType<typeof captureLogLines> | undefined
afterEach(() => capture?.stop())

describe('the logger', () => {
  it('drops personal data found by field name, at the top and nested, and in headers', () => {
    capture = captureLogLines()
    const log = loggerFor('probe')
    log.info({ pan: PERSONAL.pan, phone: PERSONAL.phone, email: PERSONAL.email, code: PERSONAL.code }, 'fields')
    log.info({ customer: { pan: PERSONAL.panLowerCase, mobile: PERSONAL.phoneBare, otp: PERSONAL.code } }, 'nested')
    log.info(
      { req: { headers: { cookie: PERSONAL.cookie, authorization: PERSONAL.bearer, 'x-xsrf-token': PERSONAL.xsrf } } },
      'headers',
    )
    log.info({ sms: { to: PERSONAL.phone, text: `Your code is ${PERSONAL.code}` } }, 'a message object')
    const text = capture.text()
    expect(capture.lines()).toHaveLength(4)
    expectNoPersonalData(text)
    expect(capture.lines()[0]).toMatchObject({ pan: '[redacted]', phone: '[redacted]', code: '[redacted]' })
  })

  it('rewrites personal data in free text by pattern: the message, its arguments, values under any name, errors', () => {
    capture = captureLogLines()
    const log = loggerFor('probe')
    log.warn(`search by PAN ${PERSONAL.pan} and ${PERSONAL.panLowerCase}`)
    log.warn(`SMS to ${PERSONAL.phone}, also ${PERSONAL.phoneSpaced} or ${PERSONAL.phoneBare}`)
    log.warn('mail to %s failed', PERSONAL.email)
    log.warn(
      `sign-in code: ${PERSONAL.code}; otp=${PERSONAL.code}; SMS: ${PERSONAL.code} is your Research Store sign-in code.`,
    )
    log.warn(
      { note: `customer ${PERSONAL.pan} wrote from ${PERSONAL.emailEncoded}`, list: [PERSONAL.phoneEncoded] },
      'x',
    )
    log.warn(`the client sent Cookie: ${PERSONAL.cookie} and Authorization: ${PERSONAL.bearer}`)
    log.error(new Error(`KRA refused ${PERSONAL.pan} for ${PERSONAL.phone}`))
    log.error({ err: new Error(`SMTP said no to ${PERSONAL.email}`, { cause: new Error(PERSONAL.phone) }) }, 'failed')
    const lines = capture.lines()
    expect(lines).toHaveLength(8)
    expectNoPersonalData(capture.text())
    expect(lines[0]!.msg).toBe('search by PAN [PAN] and [PAN]')
    expect(lines[6]!.msg).toBe('KRA refused [PAN] for [phone]')
    expect(lines[6]!.err).toMatchObject({ type: 'Error', message: 'KRA refused [PAN] for [phone]' })
  })

  it('keeps what an operator needs: level, time, module, request id, ids, amounts and error codes', () => {
    capture = captureLogLines()
    const paymentId = '0b7c3a52-9d41-4e0c-8f5e-446655440000'
    withRequestContext({ requestId: 'req-7f3a2b' }, () =>
      loggerFor('payments').info(
        { paymentId, amountPaise: 299_900, at: 1_764_000_000_000, job: 'send-email', code: 'P2002' },
        `payment ${paymentId} paid via webhook in 1234 ms on 2026-11-28`,
      ),
    )
    const [line] = capture.lines()
    expect(line).toMatchObject({
      level: 'info',
      module: 'payments',
      reqId: 'req-7f3a2b',
      paymentId,
      amountPaise: 299_900,
      at: 1_764_000_000_000,
      job: 'send-email',
      code: 'P2002',
      msg: `payment ${paymentId} paid via webhook in 1234 ms on 2026-11-28`,
    })
    expect(new Date(line!.time).toString()).not.toBe('Invalid Date')
  })
})

describe('redactUrl', () => {
  it('drops the value of a personal query parameter and rewrites the rest by pattern', () => {
    const url = redactUrl(
      `/admin/customers?q=${PERSONAL.pan}&phone=${PERSONAL.phoneEncoded}&page=2&note=${PERSONAL.emailEncoded}&code=${PERSONAL.code}`,
    )
    expect(url).toBe('/admin/customers?q=[redacted]&phone=[redacted]&page=2&note=[email]&code=[redacted]')
    expect(redactUrl('/admin/customers?q=sharma')).toBe('/admin/customers?q=[redacted]')
    expect(redactUrl(`/x/${PERSONAL.pan}?flag`)).toBe('/x/[PAN]?flag')
    expect(redactUrl('/services')).toBe('/services')
  })
})

describe('redactText', () => {
  it('leaves numbers that are not phone numbers alone', () => {
    for (const text of [
      'amount 1499900 paise',
      'took 9876 ms',
      'order_29QQoUBi66xm2f',
      'id 446655440000',
      '2026-11-28',
    ])
      expect(redactText(text)).toBe(text)
  })
})

describe('logSettingsFrom', () => {
  it('prints for a person in demo mode and writes JSON with DEMO_MODE=0; LOG_FORMAT and LOG_LEVEL choose', () => {
    expect(logSettingsFrom({})).toEqual({ format: 'pretty', level: 'info' })
    expect(logSettingsFrom({ DEMO_MODE: '0' })).toEqual({ format: 'json', level: 'info' })
    expect(logSettingsFrom({ DEMO_MODE: 'false', LOG_LEVEL: 'debug' })).toEqual({ format: 'json', level: 'debug' })
    expect(logSettingsFrom({ DEMO_MODE: '1', LOG_FORMAT: 'json' })).toEqual({ format: 'json', level: 'info' })
    expect(logSettingsFrom({ DEMO_MODE: '0', LOG_FORMAT: 'pretty' })).toEqual({ format: 'pretty', level: 'info' })
  })
})
