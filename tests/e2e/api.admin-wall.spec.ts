import { expect, test, type APIRequestContext } from '@playwright/test'
import { apiClient } from './api-client'

// Every /admin URL, whatever the method, answers a visitor or a customer exactly what an unknown URL
// answers, so nothing tells an outsider that the console exists. (No browser: these are plain requests.)

const SOME_USER_ID = '00000000-0000-4000-8000-000000000000'
const ADMIN_URLS = [
  '/admin',
  '/admin/',
  '/admin/payments',
  '/admin/services/new',
  `/admin/customers/${SOME_USER_ID}`,
  '/admin/complaint-board/2026-04',
  '/admin/audit',
  '/admin/no-such-page',
  // The console's files, which are not pages.
  '/admin/export.csv?from=2026-04-01&to=2026-04-30',
  '/admin/research/track-record.csv?service=00000000-0000-4000-8000-000000000000',
  `/admin/customers/${SOME_USER_ID}/pan-card`,
  // Other spellings of the same routes.
  '/ADMIN/Payments',
  '/%61dmin/payments',
  '/admin//payments',
]
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

async function answer(request: APIRequestContext, method: (typeof METHODS)[number], url: string) {
  const response = await request.fetch(url, {
    method,
    form: method === 'GET' || method === 'HEAD' ? undefined : { intent: 'confirm', paymentId: SOME_USER_ID },
    maxRedirects: 0,
  })
  const body = method === 'HEAD' ? '' : await response.text()
  return {
    status: response.status(),
    type: response.headers()['content-type'],
    isNotFoundPage: body.includes('404 Not Found'),
    // The page's inline route data (React Router's manifest and matches) names no console route.
    namesAConsoleRoute: /routes\/admin/.test(body),
  }
}

async function expectTheUnknownPageAnswerEverywhere(request: APIRequestContext) {
  expect(await answer(request, 'GET', '/no-such-page')).toEqual({
    status: 404,
    type: 'text/html; charset=utf-8',
    isNotFoundPage: true,
    namesAConsoleRoute: false,
  })
  for (const method of METHODS) {
    const unknown = await answer(request, method, '/no-such-page')
    expect(unknown.status).toBe(404)
    for (const url of ADMIN_URLS) expect(await answer(request, method, url), `${method} ${url}`).toEqual(unknown)
  }
  // The data requests of client-side navigation say 404 too, as for an unknown page.
  expect((await request.get('/admin/payments.data')).status()).toBe(404)
  expect((await request.post('/admin/payments.data', { form: { intent: 'confirm' } })).status()).toBe(404)
}

test('a visitor gets the site 404 page for every admin URL and method', async ({ request }) => {
  await expectTheUnknownPageAnswerEverywhere(request)
})

test('a signed-in customer gets the same 404 page for every admin URL and method', async ({ playwright, baseURL }) => {
  const { context } = await apiClient(playwright.request, baseURL!, { role: 'CUSTOMER' })
  expect((await context.get('/api/v1/users/current-user')).status()).toBe(200)
  await expectTheUnknownPageAnswerEverywhere(context)
  await context.dispose()
})

// Nor does React Router's /__manifest, which a client-side navigation asks for the routes of a path it
// does not know yet.
async function expectNoConsoleRoutesInManifests(request: APIRequestContext) {
  const home = await (await request.get('/')).text()
  const version = /"version":\s*"([^"]+)"/.exec(home)?.[1]
  expect(version).toBeDefined()
  const paths = ['/admin/payments', '/admin', '/%61dmin/audit', '/services'].join(',')
  const manifest = await request.get(`/__manifest?paths=${encodeURIComponent(paths)}&version=${version}`)
  expect(manifest.status()).toBe(200)
  const text = await manifest.text()
  expect(text).not.toMatch(/routes\/admin/)
  expect(text).toMatch(/routes\/services/)
  // Nor the build's whole-app manifest file, which lazy route discovery never loads (the page
  // names it in its route data, but neither preloads nor imports it).
  expect(home).not.toMatch(new RegExp(`(href="|import\\s*")/assets/manifest-${version}`))
  for (const suffix of ['', '.br', '.gz']) {
    const file = await request.get(`/assets/manifest-${version}.js${suffix}`, {
      headers: { 'Accept-Encoding': 'br, gzip' },
    })
    expect(file.status(), suffix).toBe(404)
    expect(await file.text()).not.toMatch(/routes\/admin/)
  }
}

test('a visitor finds no console route in /__manifest', async ({ request }) => {
  await expectNoConsoleRoutesInManifests(request)
})

test('nor does a signed-in customer', async ({ playwright, baseURL }) => {
  const { context } = await apiClient(playwright.request, baseURL!, { role: 'CUSTOMER' })
  await expectNoConsoleRoutesInManifests(context)
  await context.dispose()
})
