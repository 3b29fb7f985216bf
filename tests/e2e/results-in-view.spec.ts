import type { Page, Route } from '@playwright/test'
import { PREMIUM, SWING } from './cart-helpers'
import { expect, test } from './fixtures'
import { gotoHydrated } from './hydration'
import { useOwnClientAddress } from './sign-in-helpers'
import { tickService } from './cart'

// Every result is in view (issue 32, item 2): an answer that comes back on the same page is moved
// into view and focused, at 360 px; a plain link shows that it is loading; the account menu closes
// when one of its links is followed.

test.use({ viewport: { width: 360, height: 740 } })
test.beforeEach(async ({ page }) => useOwnClientAddress(page))

/**
 * Holds the page data of `pathname` (a client-side navigation's `.data` request) until the returned
 * release is called, as a slow network would.
 */
async function holdPageData(page: Page, pathname: string) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let held!: () => void
  const requested = new Promise<void>((resolve) => (held = resolve))
  await page.route(
    (url) => url.pathname === `${pathname}.data`,
    async (route: Route) => {
      held()
      await released
      await route.continue()
    },
  )
  return { requested, release }
}

test('a refusal of "Pay on Website" is in view and focused on a phone', async ({
  customerWithProfile: { page },
  javaScriptEnabled,
}) => {
  await tickService(page, PREMIUM)
  await gotoHydrated(page, '/pay')
  await expect(page.getByText('Total: Rs. 2,999')).toBeVisible()
  // The cart changes in another tab: the payment is refused.
  const other = await page.context().newPage()
  await useOwnClientAddress(other)
  await tickService(other, SWING)
  await other.close()

  // The customer has read down to the end of the page.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
  await page.getByRole('button', { name: 'Pay on Website' }).click()
  const refusal = page.getByRole('alert').filter({ hasText: 'Your cart changed since this page was shown' })
  await expect(refusal).toBeVisible()
  await expect(refusal).toBeInViewport()
  // Without JavaScript the answer is a new page, which starts at its top, where the message is.
  if (javaScriptEnabled)
    await expect(page.locator(':focus')).toContainText('Your cart changed since this page was shown')
})

test(
  'a plain link shows that its page is loading on a slow network',
  { tag: '@js-only' },
  async ({ customerWithProfile: { page } }) => {
    await gotoHydrated(page, '/subscriptions')
    const loading = page.locator('[aria-live="polite"]').filter({ hasText: 'Loading the page' })
    await expect(loading).toHaveCount(0)
    const slow = await holdPageData(page, '/invoices')
    await page.getByRole('link', { name: 'Invoices and credit notes' }).click()
    await slow.requested
    await expect(loading).toBeAttached()
    await expect(page.locator('main')).toHaveAttribute('aria-busy', 'true')
    slow.release()
    await expect(page).toHaveURL(/\/invoices$/)
    await expect(loading).toHaveCount(0)
    await expect(page.locator('main')).not.toHaveAttribute('aria-busy', 'true')
  },
)

test(
  'the account menu closes when a link in it is followed',
  { tag: '@js-only' },
  async ({ customerWithProfile: { page } }) => {
    await gotoHydrated(page, '/subscriptions')
    await page.getByRole('button', { name: 'Account' }).click()
    const yourData = page.getByRole('link', { name: 'Your data', exact: true })
    await expect(yourData).toBeVisible()
    const slow = await holdPageData(page, '/account')
    await yourData.click()
    await slow.requested
    // Closed at once, while the page is still on its way.
    await expect(yourData).toBeHidden()
    slow.release()
    await expect(page).toHaveURL(/\/account$/)
    await expect(yourData).toBeHidden()
  },
)
