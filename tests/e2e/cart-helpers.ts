import { expect, type Page } from '@playwright/test'
import { gotoHydrated, hydrated } from './hydration'

/** Two of the demo's services, Rs. 4,498 together. */
export const PREMIUM = 'Equity Premium'
export const SWING = 'Swing Trading Ideas'

/** For a signed-in customer with a complete profile: both services in the cart, on /pay. */
export async function cartOfTwoOnPayPage(page: Page) {
  await gotoHydrated(page, '/services')
  for (const name of [PREMIUM, SWING]) {
    await page.getByRole('checkbox', { name, exact: true }).click()
    await expect(page.getByRole('checkbox', { name, exact: true })).toBeChecked()
  }
  await page.getByRole('link', { name: 'Proceed to Pay' }).click()
  await expect(page.getByText('Total: Rs. 4,498')).toBeVisible()
  await hydrated(page)
}

/** From /pay, pays the cart in the sandbox's checkout (its dialog with JavaScript, its hosted page without) and lands on /subscriptions. */
export async function payOnWebsiteInSandbox(page: Page, javaScriptEnabled: boolean) {
  await page.getByRole('button', { name: 'Pay on Website' }).click()
  if (!javaScriptEnabled) await page.getByRole('button', { name: 'Continue to payment' }).click()
  await page.getByRole('button', { name: 'Simulate success' }).click()
  if (!javaScriptEnabled) await page.getByRole('button', { name: 'Return to the store' }).click()
}
