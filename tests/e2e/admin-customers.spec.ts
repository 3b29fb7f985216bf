import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'
import { useOwnClientAddress } from './sign-in-helpers'

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

test('an admin finds a customer by phone, sees their KYC status and PAN card image, and grants them a subscription', async ({
  customerWithProfile: { page, phone },
  otherAdmin: { page: admin },
}) => {
  await admin.goto('/admin/customers')
  await admin.getByLabel('Phone, name, e-mail or PAN').fill(phone.slice(3))
  await admin.getByRole('button', { name: 'Search' }).click()
  await expect(admin.getByRole('heading', { name: /1 found for/ })).toBeVisible()
  await expectNoSeriousA11yViolations(admin)
  await admin.getByRole('link', { name: 'Asha Rao' }).click()

  await expect(admin.getByRole('heading', { level: 1, name: 'asha rao' })).toBeVisible()
  await expect(admin.getByText('Complete', { exact: true })).toBeVisible()
  // Each customer has a PAN of their own (one account per PAN).
  await expect(admin.getByText(/^[A-Z]{3}P[A-Z]\d{4}[A-Z]$/)).toBeVisible()
  await expectNoSeriousA11yViolations(admin)
  const imageUrl = await admin.getByRole('link', { name: /View the PAN card image/ }).getAttribute('href')
  const image = await admin.request.get(imageUrl!)
  expect(image.status()).toBe(200)
  expect(image.headers()['content-type']).toBe('image/png')

  // The customer cannot open the admin's address for their own card.
  expect((await page.request.get(imageUrl!)).status()).toBe(404)

  // A complimentary subscription needs a reason, then shows on the customer's page.
  await admin.getByLabel('Service').selectOption({ label: 'Commodity Insights' })
  await admin.getByLabel('Days').fill('7')
  await admin.getByRole('button', { name: 'Grant subscription' }).click()
  await expect(admin.getByText('Give the reason for this grant.')).toBeVisible()
  await admin.getByLabel('Reason').fill('Welcome offer')
  await admin.getByRole('button', { name: 'Grant subscription' }).click()
  await expect(admin.getByText(/^Granted 7 days of Commodity Insights, ending on \d\d-\d\d-\d{4}\.$/)).toBeVisible()
  await expect(admin.getByText('Granted: Welcome offer')).toBeVisible()

  await page.goto('/subscriptions')
  await expect(page.getByRole('heading', { level: 2, name: 'Commodity Insights' })).toBeVisible()
})
