import { expect, test, type Locator, type Page } from '@playwright/test'
import { serviceDeliveryText } from '../../app/domain/service-delivery'
import { DEMO_SERVICES } from '../../prisma/seed'
import { expectNoSeriousA11yViolations } from './axe'

test('lists every seeded service as a card with a checkbox, bullets and the price line', async ({ page }) => {
  await page.goto('/services')
  await expect(page.getByRole('heading', { level: 1, name: 'Services' })).toBeVisible()
  const cards = page.getByRole('article')
  // Other specs add services of their own to the shared database meanwhile: look for the seeded ones by name.
  for (const { name } of DEMO_SERVICES) {
    await expect(cards.filter({ has: page.getByRole('heading', { name, exact: true }) })).toHaveCount(1)
  }

  const premium = cards.filter({ has: page.getByRole('heading', { name: 'Equity Premium', exact: true }) })
  await expect(premium.getByRole('checkbox', { name: 'Equity Premium', exact: true })).not.toBeChecked()
  await expect(premium.getByRole('listitem')).toHaveText([...DEMO_SERVICES[0].description])
  await expect(premium.getByText('Rs. 2,999 for 30 Days', { exact: true })).toBeVisible()

  for (const card of await cards.all()) {
    await expect(card.getByText(/^Rs\. [\d,]+(\.\d\d)? for \d+ Days$/)).toBeVisible()
  }
  await expect(page.getByText('Rs. 9,999 for 365 Days', { exact: true })).toBeVisible()
})

test('every seeded service states its risk level and how and how often its research is delivered', async ({ page }) => {
  await page.goto('/services')
  const labels = { LOW: 'Low', MODERATE: 'Moderate', HIGH: 'High', VERY_HIGH: 'Very high' }
  for (const { name, riskLevel, delivery } of DEMO_SERVICES) {
    const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name, exact: true }) })
    await expect(card.getByRole('term')).toHaveText(['Risk level:', 'How and how often research is delivered:'])
    await expect(card.getByRole('definition')).toHaveText([labels[riskLevel], serviceDeliveryText(delivery)])
  }
})

test('the current page is marked in the header', async ({ page }) => {
  await page.goto('/services')
  await expect(page.getByRole('link', { name: 'Services', exact: true }).first()).toHaveAttribute(
    'aria-current',
    'page',
  )
})

test('services page has no serious accessibility violations, in light and dark mode', async ({ page }) => {
  await page.goto('/services')
  await expectNoSeriousA11yViolations(page)
  await page.emulateMedia({ colorScheme: 'dark' })
  await expectNoSeriousA11yViolations(page)
})

/**
 * Clicks a cart checkbox and waits for the server's answer, whose cookie holds the new cart: a click
 * still on its way when the page reloads is lost (docs/decisions/007-cart-clicks-one-at-a-time.md).
 */
async function clickAndWaitForCart(page: Page, checkbox: Locator) {
  const saved = page.waitForResponse(
    (response) => response.request().method() === 'POST' && new URL(response.url()).pathname.startsWith('/services'),
  )
  await checkbox.click()
  await saved
}

test('checking cards fills the cart, unchecking empties it, and it survives a reload', async ({ page }) => {
  await page.goto('/services')
  const proceed = page.getByRole('link', { name: 'Proceed to Pay' })
  await expect(proceed).toHaveCount(0)

  const premium = page.getByRole('checkbox', { name: 'Equity Premium', exact: true })
  const swing = page.getByRole('checkbox', { name: 'Swing Trading Ideas', exact: true })
  await clickAndWaitForCart(page, premium)
  await expect(premium).toBeChecked()
  await clickAndWaitForCart(page, swing)
  await expect(swing).toBeChecked()
  await expect(proceed).toHaveAttribute('href', '/pay')

  await page.reload()
  await expect(premium).toBeChecked()
  await expect(swing).toBeChecked()

  await premium.click()
  await expect(premium).not.toBeChecked()
  await swing.click()
  await expect(swing).not.toBeChecked()
  await expect(proceed).toHaveCount(0)
})

test('the cart checkboxes work from the keyboard', async ({ page }) => {
  await page.goto('/services')
  const premium = page.getByRole('checkbox', { name: 'Equity Premium', exact: true })
  await premium.focus()
  await page.keyboard.press('Space')
  await expect(premium).toBeChecked()
  await expect(page.getByRole('link', { name: 'Proceed to Pay' })).toBeVisible()
})

test('quick clicks on several cards all reach the cart, and Proceed to Pay waits for them', async ({ page }) => {
  await page.goto('/services')
  const names = ['Equity Premium', 'Swing Trading Ideas', DEMO_SERVICES[3].name]
  for (const name of names) await page.getByRole('checkbox', { name, exact: true }).click()
  await page.getByRole('link', { name: 'Proceed to Pay' }).click()
  await expect(page).toHaveURL(/\/(pay|auth)/)

  await page.goto('/services')
  for (const name of names) await expect(page.getByRole('checkbox', { name, exact: true })).toBeChecked()
})
