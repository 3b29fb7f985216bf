import { expect, type Page } from '@playwright/test'
import { gotoHydrated } from './hydration'

/** Ticks a service on /services and waits until its POST has saved it in the cart (with or without JavaScript). */
export async function tickService(page: Page, name: string) {
  await gotoHydrated(page, '/services')
  const saved = page.waitForResponse(
    (response) => response.request().method() === 'POST' && new URL(response.url()).pathname.startsWith('/services'),
  )
  const checkbox = page.getByRole('checkbox', { name, exact: true })
  await checkbox.click()
  await saved
  await expect(checkbox).toBeChecked()
}
