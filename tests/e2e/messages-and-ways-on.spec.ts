import type { Locator, Page } from '@playwright/test'
import { CHECKOUT_OUTCOME_MESSAGES } from '../../app/domain/gateway-checkout'
import { expectNoSeriousA11yViolations } from './axe'
import { E2E_BUSINESS_DETAILS } from '../fixtures/business-details'
import { expect, test } from './fixtures'
import {
  completeAgreementStep,
  completeDetailsStep,
  completePanCardStep,
  fillProfileDetails,
  useOwnClientAddress,
} from './sign-in-helpers'
import { ASHA_RAO } from '../support/sample-customer'

// The customer can tell news from a refusal, and every dead end offers a way on.

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

const PHONE = { width: 360, height: 740 }
const DESKTOP = { width: 1280, height: 800 }

/** One service in the cart, on /pay. */
async function cartOnPayPage(page: Page) {
  await page.goto('/services')
  const checkbox = page.getByRole('checkbox', { name: 'Equity Premium', exact: true })
  await checkbox.click()
  await expect(checkbox).toBeChecked()
  await page.getByRole('link', { name: 'Proceed to Pay' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Payment' })).toBeVisible()
}

/** The computed border colour of a control, as [r, g, b]. */
async function borderColour(control: Locator): Promise<number[]> {
  // Tailwind's colours are oklch(): a canvas turns one into sRGB.
  return control.evaluate((element) => {
    const context = document.createElement('canvas').getContext('2d')!
    context.fillStyle = getComputedStyle(element).borderTopColor
    context.fillRect(0, 0, 1, 1)
    return [...context.getImageData(0, 0, 1, 1).data].slice(0, 3)
  })
}

test('a closed checkout is news (a status), a failed one a refusal (an alert)', async ({
  customerWithProfile: { page },
}) => {
  await cartOnPayPage(page)
  await page.goto('/pay?outcome=dismissed')
  await expect(page.getByRole('status').filter({ hasText: CHECKOUT_OUTCOME_MESSAGES.dismissed })).toBeVisible()
  await expect(page.getByRole('alert').filter({ hasText: CHECKOUT_OUTCOME_MESSAGES.dismissed })).toHaveCount(0)
  await expectNoSeriousA11yViolations(page)

  await page.goto('/pay?outcome=failed')
  await expect(page.getByRole('alert').filter({ hasText: CHECKOUT_OUTCOME_MESSAGES.failed })).toBeVisible()
})

for (const viewport of [PHONE, DESKTOP]) {
  test(`the 404 page offers a way on (${viewport.width} px)`, async ({ page }) => {
    await page.setViewportSize(viewport)
    const response = await page.goto('/no-such-page')
    expect(response?.status()).toBe(404)
    const main = page.getByRole('main')
    await expect(main.getByRole('heading', { name: '404 Not Found' })).toBeVisible()
    await expect(main.getByRole('link', { name: 'Browse the services' })).toHaveAttribute('href', '/services')
    // A visitor has no subscriptions to go back to.
    await expect(main.getByRole('link', { name: 'My subscriptions' })).toHaveCount(0)
    await main.getByRole('link', { name: 'Browse the services' }).click()
    await expect(page).toHaveURL(/\/services$/)
  })
}

test('the 404 page offers a signed-in customer their subscriptions', async ({ customerWithProfile: { page } }) => {
  await page.goto('/no-such-page')
  const main = page.getByRole('main')
  await expect(main.getByRole('link', { name: 'My subscriptions' })).toHaveAttribute('href', '/subscriptions')
  await expect(main.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/')
  await expectNoSeriousA11yViolations(page)
})

test('a request the store cannot read gets a 400 page that says why, not "Internal Server Error"', async ({
  request,
}) => {
  const response = await request.post('/services', { data: '{}', headers: { 'content-type': 'application/json' } })
  expect(response.status()).toBe(400)
  const html = await response.text()
  const shown = html.slice(html.indexOf('<main'), html.indexOf('</main>'))
  expect(shown).toContain('400 Bad Request')
  expect(shown).toContain('This request did not carry a form.')
  expect(shown).not.toContain('Internal Server Error')
})

test('the logo takes a visitor to the services, not to the sign-in page', async ({ page }) => {
  await page.goto('/investor-charter')
  await page.getByRole('link', { name: `${E2E_BUSINESS_DETAILS.brandName} home` }).click()
  await expect(page).toHaveURL(/\/services$/)
})

test('the logo takes a signed-in customer home', async ({ customerWithProfile: { page } }) => {
  await page.goto('/investor-charter')
  await page.getByRole('link', { name: `${E2E_BUSINESS_DETAILS.brandName} home` }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('heading', { level: 1, name: /hello, asha rao/i })).toBeVisible()
})

for (const viewport of [PHONE, DESKTOP]) {
  test(`an invalid field gets a red border, and a malformed PAN one error (${viewport.width} px)`, async ({
    customer: { page },
  }) => {
    await page.setViewportSize(viewport)
    await page.goto('/details')
    await fillProfileDetails(page, { ...ASHA_RAO, pan: 'AB12' })
    const name = page.getByLabel('Name')
    const pan = page.getByLabel('PAN', { exact: true })
    const [red, green, blue] = await borderColour(name)
    // Valid: the grey border.
    expect(red).toBeLessThan(230)
    expect(Math.abs(red! - green!)).toBeLessThan(40)
    await page.getByRole('button', { name: 'Save and continue' }).click()

    await expect(page.getByText('Enter your PAN as 5 letters, 4 digits and 1 letter, like ABCPE1234F.')).toBeVisible()
    await expect(page.getByText("This is not an individual's PAN: its fourth letter must be P.")).toHaveCount(0)
    await expect(pan).toHaveAttribute('aria-invalid', 'true')
    const [panRed, panGreen, panBlue] = await borderColour(pan)
    expect(panRed).toBeGreaterThan(150)
    expect(panRed! - panGreen!).toBeGreaterThan(80)
    expect(panRed! - panBlue!).toBeGreaterThan(80)
    // The valid name keeps its grey border.
    expect(await borderColour(name)).toEqual([red, green, blue])
  })
}

test('a PAN whose fourth letter is not P gets that one error', async ({ customer: { page } }) => {
  await page.goto('/details')
  await fillProfileDetails(page, { ...ASHA_RAO, pan: 'ABCDE1234F' })
  await page.getByRole('button', { name: 'Save and continue' }).click()
  await expect(page.getByText("This is not an individual's PAN: its fourth letter must be P.")).toBeVisible()
  await expect(page.getByText('Enter your PAN as 5 letters, 4 digits and 1 letter, like ABCPE1234F.')).toHaveCount(0)
})

test('the agreement step shows no internal version string', async ({ customer: { page } }) => {
  await page.goto('/details')
  await completeDetailsStep(page, `asha${Date.now()}@example.in`)
  await completePanCardStep(page)
  await expect(page.getByRole('heading', { name: 'Most Important Terms and Conditions (MITC)' })).toBeVisible()
  await expect(page.getByText(/agreement-[0-9a-f]{12}/)).toHaveCount(0)
  // The version still goes with the acceptance.
  await completeAgreementStep(page)
  await expect(page.getByRole('heading', { level: 1, name: /hello, asha rao/i })).toBeVisible()
})
