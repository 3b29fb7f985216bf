import { expect, test } from '@playwright/test'
import { newPage, signInAsAdmin } from './admin-helpers'
import { expectNoSeriousA11yViolations } from './axe'
import { signInWithCompleteProfile, useOwnClientAddress } from './sign-in-helpers'

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

test("an admin finds a customer by phone and sees their KYC status and PAN card image", async ({ page, request, browser }) => {
  const phone = await signInWithCompleteProfile(page, request)

  const admin = await newPage(browser)
  await signInAsAdmin(admin, request)
  await admin.goto('/admin/customers')
  await admin.getByLabel('Phone, name, e-mail or PAN').fill(phone.slice(3))
  await admin.getByRole('button', { name: 'Search' }).click()
  await expect(admin.getByRole('heading', { name: /1 found for/ })).toBeVisible()
  await expectNoSeriousA11yViolations(admin)
  await admin.getByRole('link', { name: 'Asha Rao' }).click()

  await expect(admin.getByRole('heading', { level: 1, name: 'asha rao' })).toBeVisible()
  await expect(admin.getByText('Complete', { exact: true })).toBeVisible()
  await expect(admin.getByText('ABCPE1234F')).toBeVisible()
  await expectNoSeriousA11yViolations(admin)
  const imageUrl = await admin.getByRole('link', { name: /View the PAN card image/ }).getAttribute('href')
  const image = await admin.request.get(imageUrl!)
  expect(image.status()).toBe(200)
  expect(image.headers()['content-type']).toBe('image/png')

  // The customer cannot open the admin's address for their own card.
  expect((await page.request.get(imageUrl!)).status()).toBe(404)
})
