import { expectNoSeriousA11yViolations } from './axe'
import { PREMIUM } from './cart-helpers'
import { expect, signInContext, test } from './fixtures'
import { gotoHydrated, hydrated } from './hydration'

// A customer onboarded without the Investor Charter or the consent to processing personal data
// (through the API, before it asked for them) gives them before the next payment: /pay sends them
// to /consents/accept, a plain form that works without JavaScript, and back.

// An axe audit and a payment page on a loaded machine (as tests/e2e/terms-versions.spec.ts).
test.describe.configure({ timeout: 120_000 })

test('a customer without the charter and the data consent accepts them before paying', async ({ page }) => {
  await signInContext(page.context(), {
    completeProfile: true,
    acknowledged: ['TERMS', 'MITC', 'CONSENT_STATEMENT'],
  })
  await gotoHydrated(page, '/services')
  await page.getByRole('checkbox', { name: PREMIUM, exact: true }).click()
  await expect(page.getByRole('checkbox', { name: PREMIUM, exact: true })).toBeChecked()
  await page.getByRole('link', { name: 'Proceed to Pay' }).click()

  await expect(page).toHaveURL(/\/consents\/accept\?redirectTo=%2Fpay$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Before your next payment' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Read the Investor Charter' })).toHaveAttribute(
    'href',
    '/investor-charter',
  )
  await expectNoSeriousA11yViolations(page)
  await hydrated(page)

  await page.getByRole('checkbox', { name: /I have read the Investor Charter/ }).check()
  await page.getByRole('checkbox', { name: /I consent to the processing of my personal data/ }).check()
  await page.getByRole('button', { name: 'Accept and continue' }).click()

  await expect(page).toHaveURL(/\/pay$/)
  await expect(page.getByText('Total: Rs. 2,999')).toBeVisible()
  await expect(
    page.getByText('we recorded your acknowledgement of the Investor Charter and Privacy Policy'),
  ).toBeVisible()
  // Asked once: the next visit to /pay stays there.
  await page.goto('/pay')
  await expect(page).toHaveURL(/\/pay$/)
})

// A new text of the Privacy Policy (decision 053): the customer who consented to an earlier one sees a banner with its
// date, and consents again on the same plain form, with or without JavaScript.
test('a customer who consented to an earlier Privacy Policy is told by the banner and consents again', async ({
  page,
}) => {
  await signInContext(page.context(), { completeProfile: true, acknowledgedEarlier: ['PERSONAL_DATA'] })
  await gotoHydrated(page, '/services')
  const banner = page.getByRole('complementary', { name: 'Changed documents' })
  await expect(banner).toContainText(
    /Our Privacy Policy changed on \d{1,2} [A-Z][a-z]+ \d{4} \(version privacy-[0-9a-f]{12}\)\./,
  )
  await banner.getByRole('link', { name: 'Read and acknowledge' }).click()

  await expect(page).toHaveURL(/\/consents\/accept\?redirectTo=%2Faccount$/)
  await expect(
    page.getByText(/^Our Privacy Policy changed on .+: you acknowledged an earlier version\.$/),
  ).toBeVisible()
  // Only the changed document is asked for.
  await expect(page.getByRole('checkbox')).toHaveCount(1)
  await expectNoSeriousA11yViolations(page)
  await hydrated(page)
  await page.getByRole('checkbox', { name: /I consent to the processing of my personal data/ }).check()
  await page.getByRole('button', { name: 'Accept and continue' }).click()

  await expect(page).toHaveURL(/\/account$/)
  await expect(page.getByText('we recorded your acknowledgement of the Privacy Policy')).toBeVisible()
  await expect(page.getByRole('complementary', { name: 'Changed documents' })).toHaveCount(0)
})
