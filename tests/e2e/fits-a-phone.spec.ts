import type { Locator, Page } from '@playwright/test'
import { apiClient, availableServices, cartTotal, checkoutBody, customerWithCart, json } from './api-client'
import { expect, signInContext, test } from './fixtures'
import { hydrated } from './hydration'
import { cartOfTwoOnPayPage } from './cart-helpers'
import { completeDetailsStep, completePanCardStep, uniqueMobile, useOwnClientAddress } from './sign-in-helpers'

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
  // Hydrating closes open menus; step 1 hydrates once its form's chunk has come, after the page's load.
  await hydrated(page)
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

// No horizontal overflow at 360 px on any page: the document no wider than the phone,
// and no element reaching past its edges unless it scrolls inside a box of its own (a table's
// region). /subscriptions' pending and rejected claims are measured in after-payment.spec.ts, the
// complaint board's admin pages in admin-complaint-board.spec.ts.

const SMALL_PHONE = { width: 360, height: 740 }

/** What sticks out of the viewport sideways on the page as loaded: the document's width, and the elements past its edges. */
async function horizontalOverflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const scrollsItself = (element: Element | null): boolean => {
      for (let box = element; box && box !== document.body; box = box.parentElement) {
        if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(box).overflowX)) return true
      }
      return false
    }
    const wide = [...document.body.querySelectorAll('*')]
      .filter((element) => {
        const box = element.getBoundingClientRect()
        if (box.width <= 1 || box.height <= 1) return false
        return (box.right > width + 0.5 || box.left < -0.5) && !scrollsItself(element.parentElement)
      })
      .map((element) => `<${element.tagName.toLowerCase()}> "${(element.textContent ?? '').trim().slice(0, 40)}"`)
    return { scrollWidth: document.documentElement.scrollWidth, width, wide: wide.slice(0, 5) }
  })
}

/** Visits each path at 360 px and returns what overflowed, path by path (empty when all fit). */
async function overflowingPages(page: Page, paths: readonly string[]) {
  await page.setViewportSize(SMALL_PHONE)
  const overflowing: Record<string, Awaited<ReturnType<typeof horizontalOverflow>>> = {}
  for (const path of paths) {
    await page.goto(path)
    const measured = await horizontalOverflow(page)
    if (measured.scrollWidth > SMALL_PHONE.width || measured.wide.length) overflowing[path] = measured
  }
  return overflowing
}

const PUBLIC_PAGES = [
  '/',
  '/services',
  '/auth',
  '/investor-charter',
  '/performance-report',
  '/complaint-board',
  '/disclosure',
  '/terms-and-conditions',
  '/disclaimer',
  '/grievance-redressal',
  '/privacy-policy',
  '/refund-policy',
  '/no/such/page',
] as const

test('every public page fits a 360 px phone, and so does the code step of sign-in', async ({ page }) => {
  expect(await overflowingPages(page, PUBLIC_PAGES)).toEqual({})
  await page.goto('/auth')
  await page.getByLabel('Mobile number').fill(uniqueMobile())
  await page.getByRole('button', { name: 'Send OTP' }).click()
  await expect(page.getByLabel('6-digit code')).toBeVisible()
  expect(await horizontalOverflow(page)).toEqual({ scrollWidth: SMALL_PHONE.width, width: SMALL_PHONE.width, wide: [] })
})

test("a signed-in customer's pages fit a 360 px phone: home, services with a cart, pay and its dialog, subscriptions", async ({
  customerWithProfile: { page },
}) => {
  await cartOfTwoOnPayPage(page)
  expect(await overflowingPages(page, ['/', '/services', '/pay', '/pay?dialog=manual', '/subscriptions'])).toEqual({})
})

test('each step of /details fits a 360 px phone', async ({ customer: { page } }) => {
  await page.setViewportSize(SMALL_PHONE)
  await page.goto('/details')
  const steps: Record<string, Awaited<ReturnType<typeof horizontalOverflow>>> = {}
  steps.details = await horizontalOverflow(page)
  await completeDetailsStep(page)
  steps['pan-card'] = await horizontalOverflow(page)
  await completePanCardStep(page)
  steps.agreement = await horizontalOverflow(page)
  const fits = { scrollWidth: SMALL_PHONE.width, width: SMALL_PHONE.width, wide: [] }
  expect(steps).toEqual({ details: fits, 'pan-card': fits, agreement: fits })
})

test('the admin pages fit a 360 px phone, with a pending claim to decide', async ({
  admin: { page },
  playwright,
  baseURL,
}) => {
  const { context: api, xsrf, phone } = await apiClient(playwright.request, baseURL!, { completeProfile: true })
  const cart = (await availableServices(api)).slice(0, 2)
  const claimed = await api.post('/api/v1/payments/manual-payment', {
    headers: xsrf,
    data: checkoutBody(cart, cartTotal(cart)),
  })
  expect(claimed.status()).toBe(200)
  await api.dispose()

  await page.setViewportSize(SMALL_PHONE)
  await page.goto('/admin/services')
  const firstService = await page.getByRole('link', { name: /^Edit/ }).first().getAttribute('href')
  const customerSearch = `/admin/customers?q=${encodeURIComponent(phone!)}`
  await page.goto(customerSearch)
  const aCustomer = await page.locator('main a[href^="/admin/customers/"]').first().getAttribute('href')
  expect(
    await overflowingPages(page, [
      '/admin',
      '/admin/payments',
      '/admin/services',
      '/admin/services/new',
      firstService!,
      '/admin/customers',
      customerSearch,
      aCustomer!,
      '/admin/export',
      '/admin/audit',
    ]),
  ).toEqual({})
})
