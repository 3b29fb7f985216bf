import type { Locator } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './axe'
import { cartOfTwoOnPayPage, payOnWebsiteInSandbox } from './cart-helpers'
import { expect, test } from './fixtures'
import { useOwnClientAddress } from './sign-in-helpers'

// On a 360 px phone the tables that matter show each row's amount and status without scrolling
// sideways: their rows stack, each cell led by its column's name (app/app.css, stacked-rows).

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

const PHONE = { width: 360, height: 740 }

/** The whole of `cell` lies between the viewport's left and right edges as the page loads: nothing scrolled sideways. */
async function expectWhollyInView(cell: Locator) {
  const box = (await cell.boundingBox())!
  expect(box.x, `left edge of "${await cell.textContent()}"`).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width, `right edge of "${await cell.textContent()}"`).toBeLessThanOrEqual(PHONE.width)
  expect(await cell.page().evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
}

test('invoices, "Your data" and the complaint register show amount and status at 360 px without sideways scrolling', async ({
  customerWithProfile: { page },
  otherAdmin: { page: admin },
  javaScriptEnabled,
}) => {
  // A payment through the sandbox, then two people's pages.
  test.setTimeout(240_000)
  await cartOfTwoOnPayPage(page)
  await payOnWebsiteInSandbox(page, javaScriptEnabled)
  await expect(page).toHaveURL(/\/subscriptions\?from=payment$/)
  await page.goto('/complaints/new')
  await page.getByLabel('What is it about?').selectOption({ label: 'Other' })
  await page.getByLabel('Your complaint').fill('A table I could not read on my phone.')
  await page.getByRole('button', { name: 'File complaint' }).click()
  const filed = page.getByText(/^Your complaint CMP-\d{4}-\d{6} is filed\./)
  await expect(filed).toBeVisible()
  const reference = /CMP-\d{4}-\d{6}/.exec((await filed.textContent())!)![0]

  await page.setViewportSize(PHONE)
  await page.goto('/invoices')
  const invoice = page.getByRole('region', { name: 'Invoices and credit notes' }).getByRole('row').nth(1)
  await expectWhollyInView(
    invoice
      .getByRole('cell')
      .filter({ hasText: /^Rs\. / })
      .first(),
  )
  await expectNoSeriousA11yViolations(page)

  await page.goto('/account')
  const payment = page.getByRole('region', { name: 'Payments' }).getByRole('row').nth(1)
  await expectWhollyInView(payment.getByRole('cell').nth(2))
  await expectWhollyInView(payment.getByRole('cell').nth(4))
  await expect(payment.getByRole('cell').nth(2)).toHaveText(/^(Rs\. )?[\d,]+(\.\d\d)?$/)
  await expectNoSeriousA11yViolations(page)

  await admin.setViewportSize(PHONE)
  await admin.goto('/admin/complaints')
  const row = admin.getByRole('row').filter({ hasText: reference })
  await expectWhollyInView(row.getByRole('cell').nth(3))
  await expect(row.getByRole('cell').nth(3)).toHaveText('Received')
  await expectWhollyInView(row.getByRole('cell').nth(5))
  await expectNoSeriousA11yViolations(admin)
})
