import type { Page } from '@playwright/test'
import { withE2eDatabase } from './database'
import { expect, test } from './fixtures'
import { gotoHydrated } from './hydration'
import { useOwnClientAddress } from './sign-in-helpers'

// /pay re-reads the cart after a refused payment and says precisely
// what changed (contents or a price); while a payment is on its way, only its button shows it and
// nothing else on the page can be pressed.

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

/** Tells the server to drop its cached list of services (app/server/cache-sync.server.ts, services.server.ts). */
const FORGET_ACTIVE_SERVICES = ["SELECT pg_notify('research_store_cache', 'e2e services:active')"] as const

/** Ticks `names` on /services (each click's answer awaited) on `page`. */
async function addToCart(page: Page, names: string[]) {
  // A tick pressed while the page hydrates can be lost between the server's HTML and React's handler.
  await gotoHydrated(page, '/services')
  for (const name of names) {
    const checkbox = page.getByRole('checkbox', { name, exact: true })
    const saved = page.waitForResponse(
      (response) => response.request().method() === 'POST' && new URL(response.url()).pathname.startsWith('/services'),
    )
    await checkbox.click()
    await saved
    await expect(checkbox).toBeChecked()
  }
}

/** A second tab of the same browser (the same cart cookie), as the customer would open one. */
async function otherTab(page: Page) {
  const other = await page.context().newPage()
  await useOwnClientAddress(other)
  return other
}

test('the cart changed in another tab: Pay on Website says what was added and shows the new total', async ({
  customerWithProfile: { page },
  javaScriptEnabled,
}) => {
  await addToCart(page, ['Equity Premium'])
  await page.goto('/pay')
  await expect(page.getByText('Total: Rs. 2,999')).toBeVisible()

  await addToCart(await otherTab(page), ['Swing Trading Ideas'])

  await page.getByRole('button', { name: 'Pay on Website' }).click()
  await expect(page.getByRole('alert')).toContainText(
    'Your cart changed since this page was shown: Swing Trading Ideas was added.',
  )
  await expect(page.getByText('Total: Rs. 4,498')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Swing Trading Ideas' })).toBeVisible()

  // The retry pays the total now shown.
  await page.getByRole('button', { name: 'Pay on Website' }).click()
  if (javaScriptEnabled)
    await expect(page.getByRole('dialog', { name: 'Sandbox checkout' })).toContainText('Pay Rs. 4,498')
  else await expect(page.getByText('Rs. 4,498 will be paid through our payment gateway')).toBeVisible()
})

test('the cart changed in another tab: the manual dialog says what was removed and asks for the new total', async ({
  customerWithProfile: { page },
}) => {
  await addToCart(page, ['Equity Premium', 'Swing Trading Ideas'])
  await page.goto('/pay')
  await page.getByRole('link', { name: 'Pay Manually' }).click()
  const dialog = page.getByRole('dialog', { name: 'Manual Payment Instructions' })
  await expect(dialog).toContainText('Transfer Rs. 4,498')

  const other = await otherTab(page)
  await other.goto('/services')
  const saved = other.waitForResponse((response) => response.request().method() === 'POST')
  await other.getByRole('checkbox', { name: 'Swing Trading Ideas', exact: true }).click()
  await saved

  await dialog.getByRole('button', { name: "I'll Pay & Send Screenshot" }).click()
  await expect(dialog.getByRole('alert')).toContainText(
    'Your cart changed since this page was shown: Swing Trading Ideas was removed.',
  )
  await expect(dialog).toContainText('Transfer Rs. 2,999')
  await dialog.getByRole('button', { name: "I'll Pay & Send Screenshot" }).click()
  await expect(page).toHaveURL(/\/subscriptions\?from=payment$/)
})

test('a price changed meanwhile: the refusal names the service, its old and new price, and the new total shows', async ({
  customerWithProfile: { page },
}) => {
  const name = `Price Watch ${crypto.randomUUID().slice(0, 8)}`
  await withE2eDatabase(async (client) => {
    await client.query(
      `INSERT INTO services (name, description, price_paise, duration_days, sort_order, risk_level, delivery) VALUES ($1, '{}', 100000, 30, 1000, 'HIGH', 'Ideas on the website as published')`,
      [name],
    )
    await client.query(...FORGET_ACTIVE_SERVICES)
  })
  try {
    await addToCart(page, [name])
    await page.goto('/pay')
    await expect(page.getByText('Total: Rs. 1,000')).toBeVisible()
    await withE2eDatabase((client) => client.query('UPDATE services SET price_paise = 120000 WHERE name = $1', [name]))

    await page.getByRole('button', { name: 'Pay on Website' }).click()
    await expect(page.getByRole('alert')).toContainText(
      `Your cart changed since this page was shown: the price of ${name} is now Rs. 1,200 (was Rs. 1,000).`,
    )
    await expect(page.getByText('Total: Rs. 1,200')).toBeVisible()
  } finally {
    await withE2eDatabase(async (client) => {
      await client.query('UPDATE services SET active = false WHERE name = $1', [name])
      await client.query(...FORGET_ACTIVE_SERVICES)
    })
  }
})

/** Holds every POST to /pay until the returned function is called: the page stays busy meanwhile. */
async function holdPostsToPay(page: Page): Promise<() => void> {
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(
    (url) => url.pathname.startsWith('/pay'),
    async (route) => {
      if (route.request().method() === 'POST') await held
      await route.continue()
    },
  )
  return release
}

// Without JavaScript the browser itself shows the page loading: project no-js leaves @js-only out.
test(
  'while a payment is on its way only its button shows it, and nothing else can be pressed',
  { tag: '@js-only' },
  async ({ customerWithProfile: { page } }) => {
    await addToCart(page, ['Equity Premium'])
    await gotoHydrated(page, '/pay')

    const release = await holdPostsToPay(page)
    await page.getByRole('link', { name: 'Pay Manually' }).click()
    const dialog = page.getByRole('dialog', { name: 'Manual Payment Instructions' })
    const claim = dialog.getByRole('button', { name: "I'll Pay & Send Screenshot" })
    await claim.click()
    await expect(claim).toHaveAttribute('aria-busy', 'true')
    await expect(claim).toBeDisabled()
    release()
    await expect(page).toHaveURL(/\/subscriptions\?from=payment$/)
  },
)

// Without JavaScript the browser itself shows the page loading: project no-js leaves @js-only out.
test(
  'while Pay on Website is on its way, Pay Manually and Remove cannot be pressed',
  { tag: '@js-only' },
  async ({ customerWithProfile: { page } }) => {
    await addToCart(page, ['Equity Premium'])
    await gotoHydrated(page, '/pay')
    const release = await holdPostsToPay(page)
    const website = page.getByRole('button', { name: 'Pay on Website' })
    await website.click()
    await expect(website).toHaveAttribute('aria-busy', 'true')
    const manual = page.getByText('Pay Manually', { exact: true })
    await expect(manual).toHaveAttribute('aria-disabled', 'true')
    const box = (await manual.boundingBox())!
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
    await expect(page.getByRole('dialog', { name: 'Manual Payment Instructions' })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Remove Equity Premium' })).toBeDisabled()
    release()
    await expect(page.getByRole('dialog', { name: 'Sandbox checkout' })).toBeVisible()
  },
)
