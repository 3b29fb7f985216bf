import { expectNoSeriousA11yViolations } from './axe'
import { cartOfTwoOnPayPage, PREMIUM, payOnWebsiteInSandbox } from './cart-helpers'
import { expect, test } from './fixtures'
import { useOwnClientAddress } from './sign-in-helpers'

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

test('a customer ends a subscription: the refund is shown before confirming, the flash after, and the admin sees it', async ({
  customerWithProfile: { page },
  otherAdmin: { page: admin },
  javaScriptEnabled,
}) => {
  // A purchase through the sandbox, the ending and two pages' axe audits (three without JavaScript).
  test.slow()
  await cartOfTwoOnPayPage(page)
  await payOnWebsiteInSandbox(page, javaScriptEnabled)
  await expect(page).toHaveURL(/\/subscriptions\?from=payment$/)

  await page.getByRole('link', { name: `End subscription to ${PREMIUM}` }).click()
  await expect(page.getByRole('heading', { level: 1, name: `End your subscription to ${PREMIUM}?` })).toBeVisible()
  // Bought a moment ago: 29 whole days of 30 are left.
  await expect(page.getByText(/back to the card or UPI account you paid with/)).toBeVisible()
  const refund = (await page
    .getByText(/^Rs\. [\d,]+(\.\d\d)?$/)
    .first()
    .textContent())!.trim()
  await expectNoSeriousA11yViolations(page)

  await page.getByRole('button', { name: 'End subscription now' }).click()
  await expect(page).toHaveURL(/\/subscriptions$/)
  await expect(page.getByText(`Your subscription to ${PREMIUM} has ended. We are refunding ${refund}.`)).toBeVisible()
  await expect(page.getByRole('heading', { level: 2, name: PREMIUM, exact: true })).toHaveCount(0)

  await admin.goto('/admin/refunds')
  await expect(admin.getByRole('heading', { level: 1, name: 'Refunds' })).toBeVisible()
  await expect(
    admin.getByText(new RegExp(`^${refund.replace('.', '\\.')} to asha rao for ${PREMIUM}`, 'i')).first(),
  ).toBeVisible()
  await expectNoSeriousA11yViolations(admin)
})

test('stop all services asks for a review step before it stops anything', async ({ admin: { page } }) => {
  await page.goto('/admin/stop-services')
  await expectNoSeriousA11yViolations(page)
  // Far in the future, so that no other test's subscription is still running then.
  await page.getByLabel('Effective from').fill('2099-01-01')
  await page.getByLabel('Reason').fill('Registration cancelled')
  await page.getByRole('button', { name: 'Review' }).click()
  await expect(
    page.getByText(/0 subscriptions of 0 customers will end on 2099-01-01, with refunds of Rs\. 0/),
  ).toBeVisible()
  await expectNoSeriousA11yViolations(page)
  await page.getByRole('button', { name: 'Stop all services' }).click()
  await expect(page).toHaveURL(/\/admin\/refunds$/)
  await expect(page.getByText(/^Stopped 0 subscriptions; Rs\. 0(\.00)? is being refunded\.$/)).toBeVisible()
})
