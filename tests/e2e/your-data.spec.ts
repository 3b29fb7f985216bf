import { readFile } from 'node:fs/promises'
import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'

// "Your data" (issue 19 item 6): what we hold, shown with the PAN masked, and downloaded whole.

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
