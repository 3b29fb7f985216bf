import { expect, test } from './fixtures'

// Every answer to a signed-in request is Cache-Control: private, no-store (one rule, in server/app.ts:
// app/server/http/private-pages.server.ts), pages, their client navigations' .data, downloads and the
// JSON API alike; a visitor's public page is not. Issue 28 item 7 and issue 29 item 7 list these.

const CUSTOMER_PATHS = [
  '/',
  '/services',
  '/pay',
  '/subscriptions',
  '/subscriptions/00000000-0000-4000-8000-000000000000/end',
  '/complaints',
  '/complaints/new',
  '/account',
  '/account/corrections',
  '/account/email',
  '/account/research-channels',
  '/account/data.json',
  '/family-members',
  '/research',
  '/invoices',
  '/invoices/INV/2627/000001',
  '/details',
  '/details/pan-card',
  '/terms-and-conditions',
  '/_root.data',
  '/subscriptions.data',
  '/account.data',
  '/invoices.data',
  '/api/v1/users/current-user',
  '/api/v1/subscriptions/get-active-subscriptions',
]

const ADMIN_PATHS = [
  '/admin',
  '/admin/customers',
  '/admin/payments',
  '/admin/complaints',
  '/admin/complaint-board',
  '/admin/services',
  '/admin/services/new',
  '/admin/research',
  '/admin/refunds',
  '/admin/audit',
  '/admin/export',
  '/admin/customers.data',
]

test("every page and answer of a signed-in customer is private, no-store; a visitor's public page is not", async ({
  customerWithProfile: { page },
  browser,
}) => {
  for (const urlPath of CUSTOMER_PATHS) {
    const response = await page.request.get(urlPath, { maxRedirects: 0 })
    expect.soft(response.headers()['cache-control'], `${urlPath} (${response.status()})`).toBe('private, no-store')
  }
  const visitor = await browser.newContext()
  try {
    for (const urlPath of ['/', '/services', '/terms-and-conditions']) {
      const response = await visitor.request.get(urlPath)
      expect.soft(response.headers()['cache-control'] ?? '', urlPath).not.toContain('private')
    }
  } finally {
    await visitor.close()
  }
})

test('every admin page is private, no-store', async ({ admin: { page } }) => {
  for (const urlPath of ADMIN_PATHS) {
    const response = await page.request.get(urlPath, { maxRedirects: 0 })
    expect.soft(response.headers()['cache-control'], `${urlPath} (${response.status()})`).toBe('private, no-store')
  }
})
