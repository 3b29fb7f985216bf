import type { Page } from '@playwright/test'
import { formatIndiaDate } from '../../app/domain/dates'
import { subscriptionEndsAt } from '../../app/domain/subscriptions'
import { CHECKOUT_OUTCOME_MESSAGES } from '../../app/domain/gateway-checkout'
import { expectNoSeriousA11yViolations } from './axe'
import { cartOfTwoOnPayPage, PREMIUM, SWING } from './cart-helpers'
import { expect, test } from './fixtures'
import { useOwnClientAddress } from './sign-in-helpers'

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

/** Pay on Website up to the sandbox's checkout: its dialog with JavaScript, its hosted page without. */
async function openSandboxCheckout(page: Page, javaScriptEnabled: boolean) {
  await page.getByRole('button', { name: 'Pay on Website' }).click()
  if (javaScriptEnabled) {
    await expect(page.getByRole('dialog', { name: 'Sandbox checkout' })).toBeVisible()
    await expect(page.getByRole('dialog', { name: 'Sandbox checkout' })).toContainText('Pay Rs. 4,498')
  } else {
    await expect(page.getByText('Rs. 4,498 will be paid through our payment gateway')).toBeVisible()
    await expectNoSeriousA11yViolations(page)
    await page.getByRole('button', { name: 'Continue to payment' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Sandbox checkout' })).toBeVisible()
  }
}

/** Without JavaScript the sandbox's page hands back to the store by a form post, as Razorpay's does. */
async function returnToStore(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) await page.getByRole('button', { name: 'Return to the store' }).click()
}

test('pay on website: success lands on /subscriptions with both subscriptions and their end dates', async ({
  customerWithProfile: { page },
  javaScriptEnabled,
}) => {
  await cartOfTwoOnPayPage(page)
  await openSandboxCheckout(page, javaScriptEnabled)
  const before = new Date()
  await page.getByRole('button', { name: 'Simulate success' }).click()
  await returnToStore(page, javaScriptEnabled)
  const after = new Date()

  await expect(page).toHaveURL(/\/subscriptions\?from=payment$/)
  await expect(page.getByText('No active subscriptions')).toHaveCount(0)
  for (const name of [PREMIUM, SWING]) {
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name, exact: true }) })
    // Both services last 30 days; the date is read in India time, before and after the click in case midnight passed.
    const ends = new Set([before, after].map((at) => `Ends on ${formatIndiaDate(subscriptionEndsAt(at, 30))}`))
    await expect(card.getByText(/^Ends on /)).toHaveText(new RegExp(`^(${[...ends].join('|')})$`))
  }
  await expectNoSeriousA11yViolations(page)

  // The paid cart is gone.
  await page.goto('/pay')
  await expect(page).toHaveURL(/\/services$/)
})

test('a failed payment keeps the cart and says so, also after the checkout is closed', async ({
  customerWithProfile: { page },
  javaScriptEnabled,
}) => {
  await cartOfTwoOnPayPage(page)
  await openSandboxCheckout(page, javaScriptEnabled)
  await page.getByRole('button', { name: 'Simulate failure' }).click()
  await returnToStore(page, javaScriptEnabled)
  await expect(page.getByText(CHECKOUT_OUTCOME_MESSAGES.failed)).toBeVisible()

  if (javaScriptEnabled) {
    // Like Razorpay's, the checkout stays open for another attempt; closing it keeps the failure.
    await page.getByRole('button', { name: 'Close' }).click()
    await expect(page.getByRole('dialog', { name: 'Sandbox checkout' })).toHaveCount(0)
    await expect(page.getByRole('alert').filter({ hasText: CHECKOUT_OUTCOME_MESSAGES.failed })).toBeVisible()
    await expect(page.getByText(CHECKOUT_OUTCOME_MESSAGES.dismissed)).toHaveCount(0)
  }
  await expect(page.getByRole('heading', { level: 1, name: 'Payment' })).toBeVisible()
  await expect(page.getByText('Total: Rs. 4,498')).toBeVisible()
  await expectNoSeriousA11yViolations(page)
})

test('closing the checkout keeps the cart and says the payment was cancelled', async ({
  customerWithProfile: { page },
  javaScriptEnabled,
}) => {
  const checkoutScripts: string[] = []
  page.on('request', (sent) => {
    if (sent.url().includes('checkout.js')) checkoutScripts.push(sent.url())
  })
  await cartOfTwoOnPayPage(page)
  // As in the original store (docs/product.md section 2): the gateway's script loads only when "Pay on Website" is
  // used.
  expect(checkoutScripts).toEqual([])
  await openSandboxCheckout(page, javaScriptEnabled)
  expect(checkoutScripts).toHaveLength(javaScriptEnabled ? 1 : 0)
  await page.getByRole('button', { name: 'Close' }).click()
  await expect(page.getByText(CHECKOUT_OUTCOME_MESSAGES.dismissed)).toBeVisible()
  await expect(page.getByText('Total: Rs. 4,498')).toBeVisible()

  // The cart is intact: paying again works.
  await openSandboxCheckout(page, javaScriptEnabled)
  await page.getByRole('button', { name: 'Simulate success' }).click()
  await returnToStore(page, javaScriptEnabled)
  await expect(page).toHaveURL(/\/subscriptions\?from=payment$/)
  await expect(page.getByRole('heading', { name: PREMIUM, exact: true })).toBeVisible()
  // ...and is removed again on leaving /pay.
  await expect(page.locator('script[src*="checkout.js"]')).toHaveCount(0)
})

test('paid at the gateway with the browser gone: the webhook alone makes the subscriptions', async ({
  customerWithProfile: { page },
  context,
  request,
  javaScriptEnabled,
}) => {
  await cartOfTwoOnPayPage(page)
  await openSandboxCheckout(page, javaScriptEnabled)
  const orderText = javaScriptEnabled
    ? await page
        .getByRole('dialog', { name: 'Sandbox checkout' })
        .getByText(/^Order /)
        .textContent()
    : await page.locator('dd.font-mono').textContent()
  const orderId = orderText!.replace(/^Order /, '').trim()

  // The customer pays and closes the tab before coming back; only Razorpay's servers tell us:
  // the sandbox posts its webhooks to the store itself, as Razorpay does.
  await page.close()
  const paid = await request.post('/dev/sandbox/pay', { data: { orderId, deliverWebhook: true } })
  expect(paid.ok()).toBe(true)
  const { webhookDeliveries } = (await paid.json()) as { webhookDeliveries: { event: string; status: number }[] }
  expect(webhookDeliveries.map(({ event, status }) => ({ event, status }))).toEqual([
    { event: 'payment.captured', status: 200 },
    { event: 'order.paid', status: 200 },
  ])

  // The next visit, in a new tab of the same browser, shows what was paid.
  const nextVisit = await context.newPage()
  await useOwnClientAddress(nextVisit)
  await nextVisit.goto('/subscriptions')
  await expect(nextVisit.getByRole('heading', { name: PREMIUM, exact: true })).toBeVisible()
  await expect(nextVisit.getByRole('heading', { name: SWING, exact: true })).toBeVisible()
})
