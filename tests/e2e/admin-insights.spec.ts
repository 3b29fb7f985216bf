import type { Page } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './axe'
import { CLAIMED_SERVICE, claimBankTransfer } from './bank-claims'
import { ASHA_RAO, uniqueMobile, uniquePan } from '../support/sample-customer'
import { createSignedInUser, expect, test } from './fixtures'
import { useOwnClientAddress } from './sign-in-helpers'

const PHONE = { width: 360, height: 740 }
const DESKTOP = { width: 1280, height: 900 }

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

const moneyTable = (page: Page) => page.getByRole('region', { name: 'Money per month: figures' })

/** The current month's "Collected" in rupees: the money table's last row. */
async function collectedThisMonth(page: Page): Promise<number> {
  const lastRow = moneyTable(page).getByRole('row').last()
  const collected = await lastRow.getByRole('cell').first().textContent()
  return Number(collected!.replace('Rs. ', '').replace(/,/g, ''))
}

test('the admin sees the month’s money grow when a bank transfer is confirmed', async ({ admin: { page: admin } }) => {
  // Two visits of a page that reads every figure, and a confirmation between them.
  test.slow()
  // The customer never opens a page here: their claim is made in the database.
  const { phone } = await createSignedInUser({
    completeProfile: true,
    details: { ...ASHA_RAO, email: `asha${uniqueMobile()}@example.in`, pan: uniquePan() },
  })
  await claimBankTransfer(phone)

  await admin.goto('/admin/insights')
  const before = await collectedThisMonth(admin)

  await admin.goto('/admin/payments')
  const card = admin.getByRole('article', { name: new RegExp(phone.replace('+', '\\+')) })
  await card.getByRole('button', { name: 'Confirm' }).click()
  const confirmStep = admin.getByRole('article', { name: new RegExp(phone.replace('+', '\\+')) })
  await confirmStep.getByRole('textbox', { name: 'UTR on the bank statement' }).fill(`UTR${Date.now()}`)
  await confirmStep.getByRole('textbox', { name: "Payer's account name on the bank statement" }).fill(ASHA_RAO.name)
  await confirmStep.getByRole('button', { name: 'Yes, confirm' }).click()
  await expect(admin.getByRole('status')).toHaveText(
    'Payment confirmed; the subscriptions are active and the customer was e-mailed.',
  )

  await admin.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Insights' }).last().click()
  await expect(admin).toHaveURL(/\/admin\/insights$/)
  // Other specs may pay at the same time: at least this payment was added.
  expect(await collectedThisMonth(admin)).toBeGreaterThanOrEqual(before + CLAIMED_SERVICE.pricePaise / 100)
})

for (const viewport of [PHONE, DESKTOP]) {
  test(`the charts, their tables and CSV files, at ${viewport.width} px`, async ({ admin: { page } }) => {
    // Five sections, each with its chart, table and link, and an axe audit of a long page.
    test.slow()
    await page.setViewportSize(viewport)
    await page.goto('/admin/insights')
    await expect(page.getByRole('heading', { level: 1, name: 'Insights' })).toBeVisible()
    for (const title of [
      'Money per month',
      'Active subscribers per service',
      'Renewal rate per service',
      'Customers still subscribed, by month of first purchase',
      'From first sign-in to payment',
    ]) {
      const section = page.getByRole('region', { name: title, exact: true })
      await expect(section.getByRole('heading', { level: 2, name: title })).toBeVisible()
      // Renewals and cohorts have no rows until a period has ended or the cohort job has run.
      await expect(section.getByRole('table', { name: title }).or(section.getByText('No figures yet.'))).toHaveCount(1)
      await expect(section.getByRole('link', { name: `${title}: download CSV` })).toBeVisible()
    }
    // Four charts drawn on the server: they are in the HTML with or without JavaScript.
    await expect(page.locator('main svg path[d^="M"]').first()).toBeAttached()
    await expect(page.locator('main svg rect')).not.toHaveCount(0)
    await expect(moneyTable(page).getByRole('row')).toHaveCount(25)
    await expect(page.getByRole('table', { name: 'From first sign-in to payment' }).getByRole('row')).toHaveCount(6)
    await expect(
      page.getByText('Automatic renewal (UPI AutoPay, card or e-mandate) does not exist yet', { exact: false }),
    ).toBeVisible()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
    await expectNoSeriousA11yViolations(page)

    const csv = await page.request.get('/admin/insights.csv?chart=money')
    expect(csv.status()).toBe(200)
    expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8')
    expect((await csv.text()).replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('Month,Collected,Refunded,Net,GST in net')
  })
}

test('a customer gets the 404 page at /admin/insights and its CSV', async ({ customer: { page } }) => {
  const response = await page.goto('/admin/insights')
  expect(response?.status()).toBe(404)
  const csv = await page.request.get('/admin/insights.csv?chart=money')
  expect(csv.status()).toBe(404)
})
