import { expect, test } from '@playwright/test'
import { E2E_BUSINESS_DETAILS } from '../fixtures/business-details'
import { expectNoSeriousA11yViolations } from './axe'
import { hydrated } from './hydration'

const HEADER_LINKS = [
  ['Services', '/services'],
  ['Investor Charter', '/investor-charter'],
  ['Performance Report', '/performance-report'],
  ['Complaint Board', '/complaint-board'],
] as const

const FOOTER_LINKS = [
  ['Disclosure', '/disclosure'],
  ['Terms and Conditions', '/terms-and-conditions'],
  ['Disclaimer', '/disclaimer'],
  ['Grievance Redressal', '/grievance-redressal'],
  ['Privacy Policy', '/privacy-policy'],
  ['Refund Policy', '/refund-policy'],
] as const

const XL = { width: 1280, height: 800 }
const PHONE = { width: 390, height: 844 }

/** Tailwind's green-700 and green-400, the highlight of the current link in light and dark mode. */
const GREEN = /rgb\(21, 128, 61\)|oklch\(0\.527 0\.154 150\.069\)|oklch\(0\.792 0\.209 151\.711\)/

test.describe('header at the xl breakpoint', () => {
  test.use({ viewport: XL })

  test('shows the links in a row with the current one in green, and no hamburger', async ({ page }) => {
    await page.goto('/services')
    const nav = page.getByRole('navigation', { name: 'Main', exact: true })
    await expect(nav).toBeVisible()
    for (const [label, href] of HEADER_LINKS) {
      await expect(nav.getByRole('link', { name: label })).toHaveAttribute('href', href)
    }
    const current = nav.getByRole('link', { name: 'Services' })
    await expect(current).toHaveAttribute('aria-current', 'page')
    await expect(current).toHaveCSS('color', GREEN)
    await expect(nav.getByRole('link', { name: 'Investor Charter' })).not.toHaveAttribute('aria-current', 'page')
    await expect(nav.getByRole('link', { name: 'Investor Charter' })).not.toHaveCSS('color', GREEN)
    await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden()
  })

  test('the logo links a visitor to the services and is 56 px wide; the avatar is 40 px', async ({ page }) => {
    await page.goto('/services')
    const logo = page.getByRole('link', { name: `${E2E_BUSINESS_DETAILS.brandName} home` })
    // The logo's text: the brand, with the registered name beside it; the page's title carries the brand too.
    await expect(page.getByRole('banner').getByText(E2E_BUSINESS_DETAILS.brandName, { exact: true })).toBeVisible()
    await expect(page.getByRole('banner').getByText(E2E_BUSINESS_DETAILS.name, { exact: true })).toBeVisible()
    await expect(page).toHaveTitle(`Services | ${E2E_BUSINESS_DETAILS.brandName}`)
    // The home page is a signed-in customer's (tests/e2e/messages-and-ways-on.spec.ts); a visitor's is the catalogue.
    await expect(logo).toHaveAttribute('href', '/services')
    expect((await logo.getByRole('img').boundingBox())?.width).toBe(56)
    expect((await page.getByRole('button', { name: 'Account' }).locator('img').boundingBox())?.width).toBe(40)
  })
})

test.describe('header below the xl breakpoint', () => {
  test.use({ viewport: PHONE })

  test('moves the links into the hamburger menu', async ({ page }) => {
    await page.goto('/services')
    await expect(page.getByRole('navigation', { name: 'Main', exact: true })).toBeHidden()
    const menu = page.getByRole('navigation', { name: 'Main menu' })
    await expect(menu).toBeHidden()

    await page.getByRole('button', { name: 'Menu' }).click()
    await expect(menu).toBeVisible()
    for (const [label, href] of HEADER_LINKS) {
      await expect(menu.getByRole('link', { name: label })).toHaveAttribute('href', href)
    }
    await expect(menu.getByRole('link', { name: 'Services' })).toHaveAttribute('aria-current', 'page')
    expect((await page.getByRole('button', { name: 'Account' }).locator('img').boundingBox())?.width).toBe(36)
  })

  test('opening one menu closes the other, and an outside click closes it', async ({ page }) => {
    await page.goto('/services')
    const menu = page.getByRole('navigation', { name: 'Main menu' })
    const accountLink = page.getByRole('link', { name: 'Login/Sign up' })

    await page.getByRole('button', { name: 'Menu' }).click()
    await expect(menu).toBeVisible()
    await page.getByRole('button', { name: 'Account' }).click()
    await expect(accountLink).toBeVisible()
    await expect(menu).toBeHidden()

    await page.getByRole('button', { name: 'Menu' }).click()
    await expect(menu).toBeVisible()
    await expect(accountLink).toBeHidden()

    await page.mouse.click(20, PHONE.height - 200)
    await expect(menu).toBeHidden()
  })

  test('choosing a link goes there and closes the menu', async ({ page }) => {
    await page.goto('/services')
    await page.getByRole('button', { name: 'Menu' }).click()
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Services' }).click()
    await expect(page).toHaveURL(/\/services$/)
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeHidden()
  })

  test('works with the keyboard alone', async ({ page }) => {
    await page.goto('/services')
    const menuButton = page.getByRole('button', { name: 'Menu' })
    for (
      let presses = 0;
      presses < 10 && !(await menuButton.evaluate((el) => el === document.activeElement));
      presses++
    ) {
      await page.keyboard.press('Tab')
    }
    await expect(menuButton).toBeFocused()
    await page.keyboard.press('Enter')
    const menu = page.getByRole('navigation', { name: 'Main menu' })
    await expect(menu).toBeVisible()
    await page.keyboard.press('Tab')
    await expect(menu.getByRole('link', { name: 'Services' })).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(menu).toBeHidden()
  })
})

test('the account menu offers Login/Sign up to a signed-out visitor', async ({ page }) => {
  await page.goto('/services')
  await page.getByRole('button', { name: 'Account' }).click()
  const login = page.getByRole('link', { name: 'Login/Sign up' })
  await expect(login).toBeVisible()
  // Back to the page the visitor was on once signed in (tests/e2e/sign-in.spec.ts follows it).
  await expect(login).toHaveAttribute('href', '/auth?redirectTo=%2Fservices')
  await expect(page.getByRole('link', { name: 'Subscriptions' })).toHaveCount(0)
})

test('a menu opened before the page has hydrated stays open when it hydrates @js-only', async ({ page }) => {
  let releaseScripts!: () => void
  const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve))
  await page.route('**/assets/*.js', async (route) => {
    await scriptsHeld
    await route.continue()
  })
  // Not 'load': that waits for the scripts held here.
  await page.goto('/services', { waitUntil: 'domcontentloaded' })
  await page.getByRole('button', { name: 'Account' }).click()
  const login = page.getByRole('link', { name: 'Login/Sign up' })
  await expect(login).toBeVisible()
  releaseScripts()
  await hydrated(page)
  await expect(login).toBeVisible()
})

test('logo and avatar follow the system dark mode', async ({ page }) => {
  const currentSources = () =>
    page
      .locator('header picture img')
      .evaluateAll((images) => images.map((image) => (image as HTMLImageElement).currentSrc))

  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto('/services')
  await expect
    .poll(currentSources)
    .toEqual([expect.stringMatching(/logo-light/), expect.stringMatching(/avatar-light/)])

  await page.emulateMedia({ colorScheme: 'dark' })
  await page.reload()
  await expect.poll(currentSources).toEqual([expect.stringMatching(/logo-dark/), expect.stringMatching(/avatar-dark/)])
  await expect(page.locator('body')).toHaveCSS('background-color', /oklch\(0\.13|rgb\(3, 7, 18\)/)
})

test('the footer links to the six legal pages', async ({ page }) => {
  await page.goto('/services')
  const footer = page.getByRole('contentinfo')
  for (const [label, href] of FOOTER_LINKS) {
    await expect(footer.getByRole('link', { name: label })).toHaveAttribute('href', href)
  }
})

test('the demo banner says the store runs in demo mode', async ({ page }) => {
  await page.goto('/services')
  await expect(page.getByText(/^Demo mode:/)).toBeVisible()
})

test('an unknown route answers 404 naming the path', async ({ page }) => {
  const response = await page.goto('/no/such/page')
  expect(response?.status()).toBe(404)
  await expect(page.getByText('No route matches URL "/no/such/page"')).toBeVisible()
  await expect(page.getByText(/^Demo mode:/)).toBeVisible()
  await expectNoSeriousA11yViolations(page)
})

test('home page has no serious accessibility violations', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expectNoSeriousA11yViolations(page)
})
