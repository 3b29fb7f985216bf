import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'
import { hydrated } from './hydration'

// The privacy policy promises a nominee for one's data rights (DPDP Act, section 14): /account names,
// changes and removes one, with JavaScript and without.

test('a customer names a nominee for their data rights, sees them on /account, and removes them', async ({
  customerWithProfile: { page },
}) => {
  // A sign-in, four pages, three posts and an accessibility audit: longer than one page's journey.
  test.slow()
  await page.goto('/account')
  const section = page.locator('section#nominee')
  await expect(section.getByText('You have not named a nominee.')).toBeVisible()
  await section.getByRole('link', { name: 'Name a nominee' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Nominee for your data rights' })).toBeVisible()
  await hydrated(page)

  await page.getByLabel("Nominee's name").fill('Meera Rao')
  await page.getByLabel('Relationship to you').fill('Spouse')
  await page.getByRole('button', { name: 'Name this nominee' }).click()
  // No way to reach her: said on the mobile number field, what was typed kept.
  const mobile = page.getByLabel("Nominee's mobile number")
  await expect(mobile).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText('Give a mobile number or an e-mail address, so we can reach your nominee.')).toBeVisible()
  await expect(page.getByLabel("Nominee's name")).toHaveValue('Meera Rao')
  await expectNoSeriousA11yViolations(page)

  await mobile.fill('98765 43210')
  await page.getByRole('button', { name: 'Name this nominee' }).click()
  await expect(page).toHaveURL(/\/account#nominee$/)
  await expect(page.getByText('Meera Rao is your nominee for your data rights.')).toBeVisible()
  await expect(section.getByText('+919876543210')).toBeVisible()
  await expect(section.getByText('Spouse')).toBeVisible()

  await section.getByRole('link', { name: 'Change or remove your nominee' }).click()
  await expect(page.getByLabel("Nominee's name")).toHaveValue('Meera Rao')
  await hydrated(page)
  await page.getByRole('button', { name: 'Remove my nominee' }).click()
  await expect(page.getByText('Your nominee is removed.')).toBeVisible()
  await expect(section.getByText('You have not named a nominee.')).toBeVisible()
})
