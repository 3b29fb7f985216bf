import { expectNoSeriousA11yViolations } from './axe'
import { expect, signInContext, test } from './fixtures'
import { uniquePan, useOwnClientAddress } from './sign-in-helpers'
import { ASHA_RAO } from '../support/sample-customer'

// Consent first (issue 28 item 2): step 1 of the profile sends the PAN and date of birth to the KRA
// when it is saved, so it says so, and on what basis, above its fields; the Privacy Policy it links
// to says the same. At a phone's width, with JavaScript and without.

test.beforeEach(async ({ page }) => {
  await useOwnClientAddress(page)
  await page.setViewportSize({ width: 360, height: 740 })
})

test('step 1 says, before its fields, that saving sends the PAN and date of birth to the KRA and why', async ({
  page,
}) => {
  await signInContext(page.context())
  await page.goto('/details')
  await expect(page.getByRole('heading', { name: 'Step 1 of 3: Your details' })).toBeVisible()

  const notice = page.getByRole('complementary', { name: 'Before you save: your KYC check' })
  await expect(notice).toContainText(
    'When you save this step, we send your PAN and date of birth to a KYC Registration Agency (KRA)',
  )
  await expect(notice).toContainText('as a legal duty, not on your consent')
  await expect(notice).toContainText('asked at step 3')
  // Read before the fields it is about, not after the button.
  const noticeBox = await notice.boundingBox()
  const panBox = await page.getByLabel('PAN', { exact: true }).boundingBox()
  expect(noticeBox!.y + noticeBox!.height).toBeLessThanOrEqual(panBox!.y)
  await expectNoSeriousA11yViolations(page)

  await notice.getByRole('link', { name: 'Privacy Policy: consent and legal duties' }).click()
  await expect(page).toHaveURL(/\/privacy-policy#consent-and-legal-duties$/)
  await expect(
    page.getByText(
      'it is made when you save step 1 of your profile (your name, e-mail address, date of birth and PAN)',
    ),
  ).toBeVisible()
})

test('steps 2 and 3 do not repeat it: the check has been made', async ({ page }) => {
  await signInContext(page.context(), { details: { ...ASHA_RAO, pan: uniquePan() } })
  await page.goto('/details')
  await expect(page.getByRole('heading', { name: 'Step 2 of 3: PAN card' })).toBeVisible()
  await expect(page.getByRole('complementary', { name: 'Before you save: your KYC check' })).toHaveCount(0)
})
