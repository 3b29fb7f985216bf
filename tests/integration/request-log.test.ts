import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { captureLogLines, loggerFor } from '~/server/operations/logger.server'
import { metrics } from '~/server/operations/metrics.server'
import { REQUEST_ID_HEADER, ROUTE_PATTERN_LOCAL } from '~/server/operations/request-log.server'
import { serveHttpStackDuringTests } from '../support/app-server'

// The request log (docs/operations.md, Logs) of the Express stack `npm start` serves (server/http.ts): one JSON line
// per request with its id (also sent back as X-Request-Id and written on every line logged while the
// request is served), its route pattern, status and duration, and no personal data from its URL or
// headers. A stand-in app plays the server bundle, which names the route pattern as server/app.ts does.

const standIn = express()
standIn.get('/stand-in/:pan', (req, res) => {
  res.locals[ROUTE_PATTERN_LOCAL] = '/stand-in/:pan'
  loggerFor('stand-in').info('serving the stand-in page')
  res.status(200).send('ok')
})
standIn.get('/fails', (_req, res) => {
  res.locals[ROUTE_PATTERN_LOCAL] = '/fails'
  res.status(500).send('no')
})

const served = serveHttpStackDuringTests(standIn)

let capture: ReturnType<typeof captureLogLines> | undefined
afterEach(() => capture?.stop())

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

async function histogramCount(route: string, statusClass: string): Promise<number> {
  const { values } = await metrics.httpRequestDuration.get()
  return (
    values.find(
      (value) =>
        value.metricName === 'http_request_duration_seconds_count' &&
        value.labels.route === route &&
        value.labels.status_class === statusClass,
    )?.value ?? 0
  )
}

describe('the request log', () => {
  it('writes one line per request with its id, route pattern, status and duration, and no personal data', async () => {
    capture = captureLogLines()
    const before = await histogramCount('/stand-in/:pan', '2xx')
    const response = await fetch(
      `${served.baseUrl}/stand-in/ABCPE1234F?phone=%2B919876543210&q=sharma&page=2&mail=asha%40example.in`,
      {
        headers: {
          Cookie: '__Host-session=s%3Asecret.value; XSRF-TOKEN=xsrf0123456789',
          Authorization: 'Bearer tok_0123456789abcdef',
          'X-XSRF-TOKEN': 'xsrf0123456789',
        },
      },
    )
    expect(response.status).toBe(200)
    const requestId = response.headers.get(REQUEST_ID_HEADER)
    expect(requestId).toMatch(UUID)

    await expect.poll(() => capture!.lines().filter((line) => line.module === 'http')).toHaveLength(1)
    const lines = capture.lines()
    const appLine = lines.find((line) => line.module === 'stand-in')
    const requestLine = lines.find((line) => line.module === 'http')
    expect(appLine).toMatchObject({ level: 'info', reqId: requestId, msg: 'serving the stand-in page' })
    expect(requestLine).toMatchObject({
      level: 'info',
      reqId: requestId,
      method: 'GET',
      route: '/stand-in/:pan',
      url: '/stand-in/[PAN]?phone=[redacted]&q=[redacted]&page=2&mail=[email]',
      status: 200,
    })
    expect(requestLine!.durationMs).toEqual(expect.any(Number))
    const text = capture.text()
    for (const personal of ['ABCPE1234F', '919876543210', 'sharma', 'asha', 'secret.value', 'tok_0123', 'xsrf0123'])
      expect(text).not.toContain(personal)
    // Counted by its pattern, never by its URL.
    expect(await histogramCount('/stand-in/:pan', '2xx')).toBe(before + 1)
    const { values } = await metrics.httpRequestDuration.get()
    expect(values.some((value) => String(value.labels.route).includes('ABCPE'))).toBe(false)
  })

  it("keeps a proxy's request id that looks like one, and replaces one that does not", async () => {
    capture = captureLogLines()
    const kept = await fetch(`${served.baseUrl}/stand-in/x`, { headers: { [REQUEST_ID_HEADER]: 'lb-7f3a2b9c1d' } })
    expect(kept.headers.get(REQUEST_ID_HEADER)).toBe('lb-7f3a2b9c1d')
    const replaced = await fetch(`${served.baseUrl}/stand-in/x`, {
      headers: { [REQUEST_ID_HEADER]: 'a forged id\twith "quotes" and a newline' },
    })
    expect(replaced.headers.get(REQUEST_ID_HEADER)).toMatch(UUID)
    await expect.poll(() => capture!.lines().filter((line) => line.module === 'http')).toHaveLength(2)
    expect(capture.lines().map((line) => line.reqId)).toContain('lb-7f3a2b9c1d')
    expect(capture.text()).not.toContain('forged')
  })

  it('logs a 5xx answer as an error and counts it in the 5xx class; a path no route knows as (none)', async () => {
    capture = captureLogLines()
    const before = await histogramCount('(none)', '4xx')
    expect((await fetch(`${served.baseUrl}/fails`)).status).toBe(500)
    expect((await fetch(`${served.baseUrl}/no-such-page/9876543210`)).status).toBe(404)
    await expect.poll(() => capture!.lines().filter((line) => line.module === 'http')).toHaveLength(2)
    const [failed, missing] = capture.lines().filter((line) => line.module === 'http')
    expect(failed).toMatchObject({ level: 'error', route: '/fails', status: 500 })
    expect(missing).toMatchObject({ level: 'info', route: '(none)', url: '/no-such-page/[phone]', status: 404 })
    expect(await histogramCount('/fails', '5xx')).toBeGreaterThanOrEqual(1)
    expect(await histogramCount('(none)', '4xx')).toBe(before + 1)
  })
})
