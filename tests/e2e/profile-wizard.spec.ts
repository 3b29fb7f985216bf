import { expect, test, type Page } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './axe'
import { expectNoPlaceholders } from './page-text'
import {
  completeAgreementStep,
  completeDetailsStep,
  completePanCardStep,
  PNG_1X1,
  signIn,
  useOwnClientAddress,
} from './sign-in-helpers'

// Every test here signs in through /auth, its code sent by the job queue to the dev outbox.
test.describe.configure({ timeout: 120_000 })
test.beforeEach(async ({ page }) => useOwnClientAddress(page))

async function reachPanCardStep(page: Page, request: Parameters<typeof signIn>[1]) {
  await signIn(page, request)
  await completeDetailsStep(page)
}

test('the PAN card step takes an image and shows it back only to its owner', async ({ page, request, browser }) => {
  await reachPanCardStep(page, request)
  await expectNoSeriousA11yViolations(page)
  await page
    .getByLabel('Upload Pan Card under 10MB')
    .setInputFiles({ name: 'pan.png', mimeType: 'image/png', buffer: PNG_1X1 })
  await page.getByRole('button', { name: 'Upload and continue' }).click()
  await expect(page.getByRole('heading', { name: 'Step 3 of 3: Terms and Agreement' })).toBeVisible()

  const own = await page.request.get('/details/pan-card')
  expect(own.status()).toBe(200)
  expect(own.headers()['content-type']).toBe('image/png')
  expect(own.headers()['x-content-type-options']).toMatch(/^nosniff(, nosniff)?$/)
  expect(Buffer.from(await own.body()).equals(PNG_1X1)).toBe(true)

  const stranger = await browser.newContext()
  const response = await stranger.request.get(new URL('/details/pan-card', page.url()).toString(), { maxRedirects: 0 })
  expect(response.status()).toBe(302)
  expect(response.headers().location).toMatch(/^\/auth/)
  await stranger.close()
})

test('a PDF renamed to .jpg is refused with a clear message, and the step stays', async ({ page, request }) => {
  await reachPanCardStep(page, request)
  const pdf = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n')
  await page
    .getByLabel('Upload Pan Card under 10MB')
    .setInputFiles({ name: 'pan.jpg', mimeType: 'image/jpeg', buffer: pdf })
  await page.getByRole('button', { name: 'Upload and continue' }).click()
  await expect(page.getByRole('alert')).toHaveText(
    'Upload a JPEG, PNG or WebP image of your PAN card. PDFs and other files are not accepted.',
  )
  await expect(page.getByRole('heading', { name: 'Step 2 of 3: PAN card' })).toBeVisible()
})

test('a file over 10 MB is refused with a clear message', async ({ page, request }) => {
  await reachPanCardStep(page, request)
  const elevenMegabytes = Buffer.concat([PNG_1X1, Buffer.alloc(11 * 1024 * 1024)])
  await page
    .getByLabel('Upload Pan Card under 10MB')
    .setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: elevenMegabytes })
  await page.getByRole('button', { name: 'Upload and continue' }).click()
  await expect(page.getByRole('alert')).toContainText('larger than 10 MB')
  await expect(page.getByRole('heading', { name: 'Step 2 of 3: PAN card' })).toBeVisible()
})

test('a visitor who opens a protected page signs in, completes the wizard and lands on that page', async ({
  page,
  request,
}) => {
  await page.goto('/subscriptions')
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fsubscriptions$/)
  await signIn(page, request)
  await expect(page).toHaveURL(/\/details\?redirectTo=%2Fsubscriptions$/)
  await completeDetailsStep(page)
  await completePanCardStep(page)

  // Leaving at the last step and coming back resumes there.
  await page.goto('/services')
  await page.goto('/details?redirectTo=%2Fsubscriptions')
  await expect(page.getByRole('heading', { name: 'Step 3 of 3: Terms and Agreement' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Most Important Terms and Conditions (MITC)' })).toBeVisible()
  await expect(
    page.locator('blockquote').getByText(/I have read and understood the terms and conditions/),
  ).toBeVisible()
  await expect(page.getByText(/agreement-[0-9a-f]{12}/)).toHaveCount(0)
  await expectNoPlaceholders(page.getByRole('main'))
  await expectNoSeriousA11yViolations(page)
  await completeAgreementStep(page)

  await expect(page).toHaveURL(/\/subscriptions$/)
  await expect(page.getByRole('heading', { level: 1, name: 'My Subscription(s)' })).toBeVisible()
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: /hello, asha rao/i })).toBeVisible()
  await page.goto('/details')
  await expect(page).toHaveURL(/\/$/)
})

test('with nowhere remembered, the completed wizard lands on the home page', async ({ page, request }) => {
  await reachPanCardStep(page, request)
  await completePanCardStep(page)
  await completeAgreementStep(page)
  await expect(page.getByRole('heading', { level: 1, name: /hello, asha rao/i })).toBeVisible()
  await page.getByRole('button', { name: 'Account' }).click()
  await expect(page.getByRole('link', { name: 'Subscriptions', exact: true })).toBeVisible()
})
