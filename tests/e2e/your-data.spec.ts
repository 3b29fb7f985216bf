import { readFile } from 'node:fs/promises'
import { expectNoSeriousA11yViolations } from './axe'
import { cartOfTwoOnPayPage } from './cart-helpers'
import { expect, signInContext, test } from './fixtures'
import { latestCode, useOwnClientAddress } from './sign-in-helpers'

// "Your data" (docs/regulatory.md, The customer's data): what we hold, shown with the PAN masked, and downloaded whole.

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

test('a customer finds their data from the account menu and downloads it', async ({
  customerWithProfile: { page, phone },
}) => {
  await page.goto('/subscriptions')
  await page.getByRole('button', { name: 'Account' }).click()
  await page.getByRole('link', { name: 'Your data' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Your data' })).toBeVisible()
  await expect(page.getByText(phone)).toBeVisible()
  const masked = page.getByText(/^[A-Z]{5}\*{4}[A-Z]$/)
  await expect(masked).toBeVisible()
  await expect(page.getByRole('region', { name: 'What you accepted' })).toContainText('terms')
  await expect(page.getByRole('region', { name: 'Sign-in history' })).toContainText('signed in until')
  await expect(page.getByRole('link', { name: /Ask for a correction/ })).toHaveAttribute('href', '/account/corrections')
  await expect(page.getByRole('link', { name: 'change your e-mail address' })).toHaveAttribute('href', '/account/email')
  await expect(page.getByRole('link', { name: 'Your PAN card image' })).toHaveAttribute('href', '/details/pan-card')
  await expectNoSeriousA11yViolations(page)

  const maskedPan = (await masked.textContent())!
  const downloading = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Download your data' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^research-store-data-\d{4}-\d{2}-\d{2}\.json$/)
  const json = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
    profile: { pan: string; phone: string }
  }
  expect(json.profile.phone).toBe(phone)
  expect(json.profile.pan).toMatch(/^[A-Z]{5}\d{4}[A-Z]$/)
  expect(`${json.profile.pan.slice(0, 5)}****${json.profile.pan.slice(-1)}`).toBe(maskedPan)

  const response = await page.request.get('/account/data.json')
  expect(response.headers()['cache-control']).toBe('private, no-store')
  expect(response.headers()['content-disposition']).toMatch(/^attachment;/)

  // Every page of a signed-in customer, not only those with a route rule (docs/architecture.md, PANs at rest).
  for (const urlPath of ['/', '/pay', '/subscriptions', '/complaints', '/subscriptions.data']) {
    expect((await page.request.get(urlPath)).headers()['cache-control'], urlPath).toBe('private, no-store')
  }
})

test("the admin's customer page shows who viewed the customer's data, and when", async ({
  customerWithProfile: { page, userId },
  otherAdmin,
}) => {
  await otherAdmin.page.goto(`/admin/customers/${userId}`)
  const views = otherAdmin.page.getByRole('region', { name: 'Admin views' })
  await expect(views.getByRole('row').nth(1)).toContainText(otherAdmin.phone)
  await expect(views.getByRole('row').nth(1)).toContainText("Customer's page")
  await expectNoSeriousA11yViolations(otherAdmin.page)
  // The customer's own page says nothing of it.
  await page.goto('/account')
  await expect(page.getByRole('heading', { level: 1, name: 'Your data' })).toBeVisible()
  await expect(page.getByText(otherAdmin.phone)).toHaveCount(0)
})

test('a customer closes their account with a fresh code; their old session cookie no longer works', async ({
  customerWithProfile: { page, phone },
  request,
}) => {
  await page.goto('/account')
  const closing = page.getByRole('heading', { name: 'Close your account' })
  await expect(closing).toBeVisible()
  await expect(page.getByText(/SEBI requires us to keep your KYC details/)).toBeVisible()
  const oldCookies = await page.context().cookies()

  await page.getByRole('button', { name: 'Send a code to close my account' }).click()
  await expect(page.getByText('We sent a 6-digit code to your mobile number.')).toBeVisible()
  await page.getByLabel('Code from the SMS').fill('12345')
  await page.getByRole('button', { name: 'Close my account' }).click()
  await expect(page.getByText('Enter the 6-digit code we sent you.')).toBeVisible()
  await expectNoSeriousA11yViolations(page)

  await page.getByLabel('Code from the SMS').fill(await latestCode(request, phone))
  await page.getByRole('button', { name: 'Close my account' }).click()
  await expect(page.getByText('Your account is closed and you are signed out everywhere.')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Login/Sign up', includeHidden: true })).toBeAttached()

  // The session cookie from before closing: it signs no one in.
  await page.context().addCookies(oldCookies)
  await page.goto('/account')
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Faccount/)
})

test('closing lists a payment in flight as cancelled by it, and still offers to close', async ({ page }) => {
  await signInContext(page.context(), { completeProfile: true })
  await cartOfTwoOnPayPage(page)
  await page.getByRole('link', { name: 'Pay Manually' }).click()
  await page
    .getByRole('dialog', { name: 'Manual Payment Instructions' })
    .getByRole('button', { name: "I'll Pay & Send Screenshot" })
    .click()
  await expect(page).toHaveURL(/\/subscriptions\?from=payment$/)
  await page.goto('/account')
  await expect(page.getByText('Payments still open, which closing cancels:')).toBeVisible()
  await expect(
    page.getByText(/Your bank transfer claim of Rs\. .* is cancelled: we will not confirm it\./),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: 'Send a code to close my account' })).toBeVisible()
  await expectNoSeriousA11yViolations(page)
})

test('a privacy grievance is filed from Your data with a reference and an answer-by date', async ({
  customerWithProfile: { page },
}) => {
  await page.goto('/account')
  await page.getByRole('link', { name: 'file a privacy grievance' }).click()
  await expect(page.getByLabel('What is it about?')).toHaveValue('PRIVACY')
  await page.getByLabel('Your complaint').fill('Tell me who you shared my PAN with.')
  await page.getByRole('button', { name: /File|Send|Submit/ }).click()
  await expect(
    page.getByText(/Your complaint CMP-\d{4}-\d{6} is filed\. We will resolve it by \d{2}-\d{2}-\d{4}/),
  ).toBeVisible()
  await page.goto('/privacy-policy')
  const table = page.getByRole('region', { name: 'Data, Purpose, How long, Legal basis' })
  await expect(table).toContainText('At least 5 years from the acknowledgement')
  await expectNoSeriousA11yViolations(page)
})
