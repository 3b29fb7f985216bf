import type { Locator, Page } from '@playwright/test'
import { checkoutBody, customerWithCart, json } from './api-client'
import { expect, signInContext, test } from './fixtures'
import { completeDetailsStep, completePanCardStep, useOwnClientAddress } from './sign-in-helpers'

const PHONE = { width: 360, height: 800 }
const DESKTOP = { width: 1280, height: 800 }
/** How far apart two edges may be and still read as aligned. */
const ALIGNMENT_TOLERANCE_PX = 8

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

/** Blank page below the footer: the document's height minus where the footer ends. */
async function blankBelowFooter(page: Page): Promise<number> {
  return page.evaluate(() => {
    const footer = document.querySelector('footer')!
    return document.documentElement.scrollHeight - (footer.getBoundingClientRect().bottom + window.scrollY)
  })
}

test('the agreement step of /details ends at its footer, on a phone and a desktop', async ({ customer: { page } }) => {
  await page.setViewportSize(PHONE)
  await page.goto('/details')
  await completeDetailsStep(page)
  await completePanCardStep(page)
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport)
    expect(await blankBelowFooter(page), `blank px below the footer at ${viewport.width} px`).toBeLessThanOrEqual(
      ALIGNMENT_TOLERANCE_PX,
    )
  }
})

/** Opens the popover `menu` with `button` and checks it hangs just below the button, right edges aligned. */
async function expectMenuUnderItsButton(page: Page, button: Locator, menu: Locator, label: string) {
  await button.click()
  await expect(menu).toBeVisible()
  const buttonBox = (await button.boundingBox())!
  const menuBox = (await menu.boundingBox())!
  const rightGap = Math.abs(menuBox.x + menuBox.width - (buttonBox.x + buttonBox.width))
  expect(rightGap, `${label}: right edge of the menu to its button's`).toBeLessThanOrEqual(ALIGNMENT_TOLERANCE_PX)
  expect(menuBox.y, `${label}: the menu's top is below its button`).toBeGreaterThanOrEqual(
    buttonBox.y + buttonBox.height,
  )
  expect(menuBox.y - (buttonBox.y + buttonBox.height), `${label}: and just below it`).toBeLessThanOrEqual(
    3 * ALIGNMENT_TOLERANCE_PX,
  )
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
}

test('the site menu opens under its button on a phone', async ({ page }) => {
  await page.setViewportSize(PHONE)
  await page.goto('/services')
  await expectMenuUnderItsButton(
    page,
    page.getByRole('button', { name: 'Menu' }),
    page.getByRole('navigation', { name: 'Main menu' }),
    'site menu at 360 px',
  )
})

test('the account menu opens under the avatar, signed out and signed in, on a phone and a desktop', async ({
  page,
}) => {
  const account = page.getByRole('button', { name: 'Account' })
  const menu = page.locator('#account-menu')
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport)
    await page.goto('/services')
    await expectMenuUnderItsButton(page, account, menu, `signed out at ${viewport.width} px`)
  }
  await signInContext(page.context())
  await page.goto('/details')
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport)
    await expectMenuUnderItsButton(page, account, menu, `signed in at ${viewport.width} px`)
  }
})

test('a 500-character unbroken failure reason wraps on /admin/payments at 360 px', async ({
  admin: { page },
  playwright,
  baseURL,
}) => {
  const { api, xsrf, cart, total } = await customerWithCart(playwright.request, baseURL!)
  const created = await json(
    await api.post('/api/v1/payments/create-order', { headers: xsrf, data: checkoutBody(cart, total) }),
  )
  const orderId = created.data.data.order.id as string
  const reason = 'x'.repeat(500)
  const failed = await api.post('/api/v1/payments/failed-payment', {
    headers: xsrf,
    data: { response: { error: { description: reason, metadata: { order_id: orderId } } } },
  })
  expect(failed.status()).toBe(200)
  await api.dispose()

  await page.setViewportSize(PHONE)
  await page.goto('/admin/payments?method=GATEWAY&status=FAILED')
  await expect(page.getByRole('article', { name: `Gateway payment ${orderId}` }).getByText(reason)).toBeVisible()
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }))
  expect(scrollWidth, 'page width at 360 px').toBeLessThanOrEqual(clientWidth)
})
