import { expectNoSeriousA11yViolations } from './axe'
import { expect, signInContext, test } from './fixtures'
import { uniquePan, useOwnClientAddress } from './sign-in-helpers'
import { ASHA_RAO } from '../support/sample-customer'

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

const masked = (pan: string) => `${pan.slice(0, 5)}****${pan.slice(-1)}`

test("pages that only display a PAN show it masked; the admin's customer page shows it whole", async ({
  page,
  otherAdmin: { page: admin },
}) => {
  const pan = uniquePan()
  await signInContext(page.context(), { completeProfile: true, details: { ...ASHA_RAO, pan } })
  await page.goto('/account/corrections')
  await expect(page.getByText(masked(pan), { exact: true })).toBeVisible()
  // Not in the page, nor in the data it carries for hydration.
  expect(await page.content()).not.toContain(pan)
  await expectNoSeriousA11yViolations(page)

  // Found by the exact PAN (typed in lower case), listed masked, shown whole on the customer's page.
  await admin.goto('/admin/customers')
  await admin.getByLabel('Phone, name, e-mail or PAN').fill(pan.toLowerCase())
  await admin.getByRole('button', { name: 'Search' }).click()
  await expect(admin.getByRole('heading', { name: /1 found for/ })).toBeVisible()
  await expect(admin.getByText(`PAN ${masked(pan)}`, { exact: false })).toBeVisible()
  expect(await admin.content()).not.toContain(pan)
  await admin.getByRole('link', { name: 'Asha Rao' }).click()
  await expect(admin.getByText(pan, { exact: true })).toBeVisible()
})

const PERSONAL_PAGES = ['/account/corrections', '/account/email', '/family-members', '/invoices']

test('pages of personal data are never cached, their documents and their .data requests alike', async ({
  customerWithProfile: { page },
  request,
}) => {
  for (const path of PERSONAL_PAGES) {
    for (const url of [path, `${path}.data`]) {
      const response = await page.request.get(url, { maxRedirects: 0 })
      expect(response.status(), url).toBe(200)
      expect(response.headers()['cache-control'], url).toBe('private, no-store')
    }
  }
  // Every page a signed-in customer gets names them in its header (docs/architecture.md, "Not cached");
  // a visitor's page with nothing personal on it is not marked so.
  expect((await page.request.get('/services')).headers()['cache-control']).toBe('private, no-store')
  expect((await request.get('/services')).headers()['cache-control']).not.toBe('private, no-store')
})

test('the profile wizard and the admin pages are never cached either', async ({
  customer: { page },
  otherAdmin: { page: admin },
}) => {
  for (const url of ['/details', '/details.data']) {
    const response = await page.request.get(url, { maxRedirects: 0 })
    expect(response.status(), url).toBe(200)
    expect(response.headers()['cache-control'], url).toBe('private, no-store')
  }
  for (const url of ['/admin/customers', '/admin/customers.data', '/admin/payments', '/admin/payments.data']) {
    const response = await admin.request.get(url, { maxRedirects: 0 })
    expect(response.status(), url).toBe(200)
    expect(response.headers()['cache-control'], url).toBe('private, no-store')
  }
})
