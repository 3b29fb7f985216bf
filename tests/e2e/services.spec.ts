import { expect, test } from '@playwright/test'
import { DEMO_SERVICES } from '../../prisma/seed'
import { expectNoSeriousA11yViolations } from './axe'

test('lists every seeded service as a card with a checkbox, bullets and the price line', async ({ page }) => {
  await page.goto('/services')
  await expect(page.getByRole('heading', { level: 1, name: 'Services' })).toBeVisible()
  const cards = page.getByRole('article')
  await expect(cards).toHaveCount(DEMO_SERVICES.length)

  const premium = cards.filter({ has: page.getByRole('heading', { name: 'Equity Premium', exact: true }) })
  await expect(premium.getByRole('checkbox', { name: 'Equity Premium', exact: true })).not.toBeChecked()
  await expect(premium.getByRole('listitem')).toHaveText([...DEMO_SERVICES[0].description])
  await expect(premium.getByText('Rs. 2,999 for 30 Days', { exact: true })).toBeVisible()

  for (const card of await cards.all()) {
    await expect(card.getByText(/^Rs\. [\d,]+(\.\d\d)? for \d+ Days$/)).toBeVisible()
  }
  await expect(page.getByText('Rs. 9,999 for 365 Days', { exact: true })).toBeVisible()
})

test('the current page is marked in the header', async ({ page }) => {
  await page.goto('/services')
  await expect(page.getByRole('link', { name: 'Services', exact: true }).first()).toHaveAttribute('aria-current', 'page')
})

test('services page has no serious accessibility violations, in light and dark mode', async ({ page }) => {
  await page.goto('/services')
  await expectNoSeriousA11yViolations(page)
  await page.emulateMedia({ colorScheme: 'dark' })
  await expectNoSeriousA11yViolations(page)
})
