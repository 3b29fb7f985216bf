import type { Locator, Page } from '@playwright/test'
import { formatIndiaDate, MS_PER_DAY } from '../../app/domain/dates'
import { DEMO_SERVICES } from '../../prisma/seed'
import { withE2eDatabase } from './database'
import { expect, test } from './fixtures'
import { useOwnClientAddress } from './sign-in-helpers'

// /services knows what a signed-in customer holds, the whole card
// toggles with 44 px targets, the sticky bar says what the cart holds without covering a card, and
// without JavaScript a tick brings the page back at the card just ticked.

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

const PHONE = { width: 360, height: 640 }
const DESKTOP = { width: 1280, height: 800 }

const card = (page: Page, name: string) =>
  page.getByRole('article').filter({ has: page.getByRole('heading', { name, exact: true }) })

/**
 * Clicks `target` where it is on the screen, as a finger would (the checkbox's target covers the
 * card's text), and waits for the tick to arrive: with JavaScript the queued click's answer,
 * without it the page coming back.
 */
async function toggle(page: Page, target: Locator, javaScriptEnabled: boolean) {
  const saved = page.waitForResponse(
    (response) => response.request().method() === 'POST' && new URL(response.url()).pathname.startsWith('/services'),
  )
  // Without JavaScript, the load of the page that comes back (waitForLoadState would answer at once
  // for the page still showing).
  const cameBack = javaScriptEnabled ? undefined : page.waitForEvent('load')
  await target.scrollIntoViewIfNeeded()
  const box = (await target.boundingBox())!
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
  await saved
  await cameBack
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

test('a held service says "Active until DD-MM-YYYY"; the others do not', async ({
  customerWithProfile: { page, userId },
}) => {
  const endsAt = new Date(Date.now() + 12 * MS_PER_DAY)
  await withE2eDatabase((client) =>
    client.query(
      `INSERT INTO subscriptions (user_id, service_id, starts_at, ends_at, grant_reason, granted_by)
       SELECT $1, id, now(), $2, 'e2e: held service', $1 FROM services WHERE name = 'Equity Premium'`,
      [userId, endsAt],
    ),
  )
  await page.goto('/services')
  await expect(card(page, 'Equity Premium').getByText(`Active until ${formatIndiaDate(endsAt)}`)).toBeVisible()
  await expect(card(page, 'Swing Trading Ideas').getByText(/Active until/)).toHaveCount(0)
})

for (const [size, viewport] of [
  ['360 px', PHONE],
  ['1280 px', DESKTOP],
] as const) {
  test(`at ${size} the whole card toggles and each checkbox is a 44 px target`, async ({ page, javaScriptEnabled }) => {
    await page.setViewportSize(viewport)
    await page.goto('/services')
    for (const checkbox of await page.getByRole('checkbox').all()) {
      const box = (await checkbox.boundingBox())!
      expect(box.width).toBeGreaterThanOrEqual(44)
      expect(box.height).toBeGreaterThanOrEqual(44)
    }
    const swing = card(page, 'Swing Trading Ideas')
    const checkbox = page.getByRole('checkbox', { name: 'Swing Trading Ideas', exact: true })
    await toggle(page, swing.getByText('Rs. 1,499 for 30 Days'), javaScriptEnabled)
    await expect(checkbox).toBeChecked()
    await toggle(page, card(page, 'Swing Trading Ideas').getByRole('listitem').first(), javaScriptEnabled)
    await expect(checkbox).not.toBeChecked()
  })

  test(`at ${size} the sticky bar shows count and total and leaves a card scrolled into view uncovered`, async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.setViewportSize(viewport)
    await page.goto('/services')
    await toggle(page, page.getByRole('checkbox', { name: 'Equity Premium', exact: true }), javaScriptEnabled)
    await expect(page.getByText('1 service selected, total Rs. 2,999', { exact: true })).toBeVisible()
    await toggle(page, page.getByRole('checkbox', { name: 'Swing Trading Ideas', exact: true }), javaScriptEnabled)
    const summary = page.getByText('2 services selected, total Rs. 4,498', { exact: true })
    await expect(summary).toBeVisible()
    await expect(page.getByRole('link', { name: 'Proceed to Pay' })).toBeVisible()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)

    // Every card, scrolled into view at the bottom of the screen, keeps its text clear of the bar.
    const bar = page.getByRole('region', { name: 'Your cart' })
    const cards = await page.getByRole('article').all()
    for (const each of [cards[0]!, cards.at(-1)!]) {
      await each.evaluate((element) => element.scrollIntoView({ block: 'end' }))
      const barBox = (await bar.boundingBox())!
      for (const text of await each.locator('h2, li, p').all()) {
        expect(overlaps(barBox, (await text.boundingBox())!), (await text.textContent()) ?? '').toBe(false)
      }
    }
  })
}

test('a tick comes back scrolled to the card just ticked (360 px)', async ({ page, javaScriptEnabled }) => {
  await page.setViewportSize(PHONE)
  await page.goto('/services')
  // The last seeded card: other specs may add services of their own meanwhile.
  const { name } = DEMO_SERVICES.at(-1)!
  await card(page, name).scrollIntoViewIfNeeded()
  await toggle(page, page.getByRole('checkbox', { name, exact: true }), javaScriptEnabled)
  await expect(page.getByRole('checkbox', { name, exact: true })).toBeChecked()
  // The browser scrolls to the fragment once the page has laid out, which may follow its load event.
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200)
  await expect(page.getByRole('checkbox', { name, exact: true })).toBeInViewport()
  await toggle(page, page.getByRole('checkbox', { name, exact: true }), javaScriptEnabled)
  await expect(page.getByRole('checkbox', { name, exact: true })).not.toBeChecked()
  await expect(page.getByRole('checkbox', { name, exact: true })).toBeInViewport()
})
