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
