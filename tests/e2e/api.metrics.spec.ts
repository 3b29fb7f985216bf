import { expect, test, type APIRequestContext } from '@playwright/test'
import { E2E_METRICS_TOKEN } from '../fixtures/metrics-token'
import { apiClient } from './api-client'
import { uniqueMobile } from './sign-in-helpers'

// GET /metrics (docs/operations.md, Metrics) on the end-to-end server (the built store, METRICS_TOKEN set by
// playwright.config.ts). This machine reads it; anyone else gets the store's own 404 page, as for a
// path that does not exist: a request through a proxy without the token, or with a wrong token.
// Requests are timed by route pattern, never by URL; every answer carries its request id.

const PROXIED = { 'X-Forwarded-For': '203.0.113.9' }

/** A page with its CSP nonce and the path it names taken out. */
const samePage = (html: string, path: string) =>
  html
    .replace(/nonce="[^"]*"/g, '')
    .replaceAll(encodeURIComponent(path), 'PATH')
    .replaceAll(path, 'PATH')

async function scrape(request: APIRequestContext): Promise<Map<string, number>> {
  const response = await request.get('/metrics')
  expect(response.status()).toBe(200)
  const series = new Map<string, number>()
  for (const line of (await response.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue
    const at = line.lastIndexOf(' ')
    series.set(line.slice(0, at), Number(line.slice(at + 1)))
  }
  return series
}

test('a request through a proxy without the token, or with a wrong one, gets the 404 page of a path that does not exist', async ({
  request,
}) => {
  const missing = await request.get('/no-such-page', { headers: PROXIED })
  expect(missing.status()).toBe(404)
  const notFoundPage = await missing.text()
  for (const headers of [
    PROXIED,
    { ...PROXIED, Authorization: 'Bearer not-the-token' },
    { ...PROXIED, Authorization: `Bearer ${E2E_METRICS_TOKEN}x` },
    { ...PROXIED, Authorization: `Basic ${E2E_METRICS_TOKEN}` },
    // From this machine too: a wrong token is refused wherever it comes from.
    { Authorization: 'Bearer not-the-token' },
  ]) {
    const refused = await request.get('/metrics', { headers })
    expect(refused.status(), JSON.stringify(headers)).toBe(404)
    const body = await refused.text()
    expect(body).not.toContain('research_store_')
    // The same page as any unknown path, which names its path (and has a nonce of its own).
    expect(samePage(body, '/metrics')).toBe(samePage(notFoundPage, '/no-such-page'))
  }
  const scraper = await request.get('/metrics', {
    headers: { ...PROXIED, Authorization: `Bearer ${E2E_METRICS_TOKEN}` },
  })
  expect(scraper.status()).toBe(200)
  expect(await scraper.text()).toContain('research_store_database_up 1')
})

test('requests are timed by route pattern and status class, never by their URL, and carry a request id', async ({
  request,
}) => {
  const page = await request.get('/services?utm=ABCPE1234F')
  expect(page.status()).toBe(200)
  expect(page.headers()['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  expect((await request.get('/invoices/INV/2627/000001', { maxRedirects: 0 })).status()).toBe(302)
  expect((await request.get('/no-such-page/9876543210')).status()).toBe(404)
  const series = await scrape(request)
  const labels = [...series.keys()].filter((name) => name.startsWith('http_request_duration_seconds_count'))
  expect(labels).toContain('http_request_duration_seconds_count{method="GET",route="/services",status_class="2xx"}')
  expect(labels).toContain(
    'http_request_duration_seconds_count{method="GET",route="/invoices/:series/:year/:sequence",status_class="3xx"}',
  )
  expect(labels).toContain('http_request_duration_seconds_count{method="GET",route="/*",status_class="4xx"}')
  expect(labels.join('\n')).not.toMatch(/ABCPE1234F|9876543210|no-such-page|2627/)
})

test('the messages sent move: a sign-in code by SMS', async ({ request, playwright, baseURL }) => {
  const sent = 'research_store_messages_total{channel="sms",outcome="sent"}'
  const before = (await scrape(request)).get(sent) ?? 0
  const { context: api, xsrf } = await apiClient(playwright.request, baseURL!)
  const requested = await api.post('/api/v1/otp/request', { headers: xsrf, data: { number: `+91${uniqueMobile()}` } })
  expect(requested.status()).toBe(200)
  // The SMS job runs on the server's worker within a second or so.
  await expect.poll(async () => (await scrape(request)).get(sent) ?? 0, { timeout: 15_000 }).toBeGreaterThan(before)
})
