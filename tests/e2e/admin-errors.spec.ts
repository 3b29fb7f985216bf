import { expect, test } from './fixtures'
import { gotoHydrated } from './hydration'

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

for (const path of ['/admin/no-such-page', '/admin/payments']) {
  test(`someone who is not an admin gets the public 404 at ${path}, with no console navigation`, async ({
    customer: { page },
  }) => {
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    const response = await gotoHydrated(page, path)
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1, name: '404 Not Found' })).toBeVisible()
    await expect(page.getByText(`No route matches URL "${path}"`)).toBeVisible()
    await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0)
    // The page hydrates from the console-free route data and its links work.
    await page.getByRole('link', { name: 'Browse the services' }).click()
    await expect(page).toHaveURL(/\/services$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Services' })).toBeVisible()
    // The 404 status itself is logged by the browser; nothing else may be.
    expect(errors.filter((error) => !error.includes('404'))).toEqual([])
  })
}
