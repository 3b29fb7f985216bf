import { E2E_BUSINESS_DETAILS } from '../fixtures/business-details'
import { expectNoSeriousA11yViolations } from './axe'
import { cartOfTwoOnPayPage, PREMIUM, payOnWebsiteInSandbox } from './cart-helpers'
import { expect, test } from './fixtures'
import { useOwnClientAddress } from './sign-in-helpers'

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

test('a paid payment has a tax invoice: taxable value, CGST and SGST halves, the total paid', async ({
  customerWithProfile: { page },
  javaScriptEnabled,
}) => {
  await cartOfTwoOnPayPage(page)
  await payOnWebsiteInSandbox(page, javaScriptEnabled)
  await expect(page).toHaveURL(/\/subscriptions\?from=payment$/)

  // The business is GST-registered at 18%, split into central and state halves.
  await page.getByRole('link', { name: 'Invoices and credit notes' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Invoices' })).toBeVisible()
  await expectNoSeriousA11yViolations(page)
  await page.getByRole('link', { name: /^Tax invoice INV\/\d{4}\/\d{6}$/ }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Tax invoice' })).toBeVisible()
  await expect(page.getByText(`GSTIN ${E2E_BUSINESS_DETAILS.gst!.gstin}`)).toBeVisible()
  // The supplier's state (the GSTIN's code 32), as no address of the customer is on record.
  await expect(page.getByRole('definition').filter({ hasText: /^Kerala \(32\)$/ })).toBeVisible()
  await expect(page.getByText('Tax payable on reverse charge', { exact: true })).toBeVisible()
  await expect(page.getByRole('cell', { name: `${PREMIUM}: research service for 30 days` })).toBeVisible()
  for (const [row, amount] of [
    ['Taxable value', 'Rs. 3,811.86'],
    ['CGST at 9%', 'Rs. 343.07'],
    ['SGST at 9%', 'Rs. 343.07'],
    ['Total paid (GST 18% included)', 'Rs. 4,498'],
  ]) {
    await expect(page.getByRole('row', { name: `${row} ${amount}` })).toBeVisible()
  }
  await expectNoSeriousA11yViolations(page)

  // A script can open the print dialog; without one the sentence above the invoice says how.
  const print = page.getByRole('button', { name: 'Print or save as PDF' })
  if (javaScriptEnabled) {
    await page.evaluate(() => (window.print = () => document.body.setAttribute('data-printed', 'yes')))
    await print.click()
    await expect(page.locator('body')).toHaveAttribute('data-printed', 'yes')
  } else {
    await expect(print).toHaveCount(0)
    await expect(page.getByText('use your browser\'s Print and choose "Save as PDF"')).toBeVisible()
  }
})
