import { expect, test } from './fixtures'

// An error inside the console keeps the admin in the console: its navigation stays around the error
// page (the admin layout's error boundary). Someone who is not an admin sees no console at all.

const NO_SUCH_CUSTOMER = '/admin/customers/00000000-0000-4000-8000-000000000000'

for (const path of [NO_SUCH_CUSTOMER, '/admin/no-such-page']) {
  test(`a 404 at ${path} keeps the console's navigation`, async ({ admin: { page } }) => {
    const response = await page.goto(path)
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1, name: '404 Not Found' })).toBeVisible()
    const adminNav = page.getByRole('navigation', { name: 'Admin' })
    await expect(adminNav.getByRole('link', { name: 'Payments' })).toBeVisible()
    await adminNav.getByRole('link', { name: 'Customers' }).click()
    await expect(page).toHaveURL(/\/admin\/customers$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible()
  })
}

test('someone who is not an admin gets the public 404, with no console navigation', async ({ customer: { page } }) => {
  const response = await page.goto('/admin/no-such-page')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1, name: '404 Not Found' })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0)
})
