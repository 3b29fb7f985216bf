import { randomInt } from 'node:crypto'
import { formatIndiaDate } from '../../app/domain/dates'
import { MANUAL_PAYMENT_EXPIRY_DAYS } from '../../app/domain/payment-status'
import { REFUND_PAYMENT_DAYS } from '../../app/domain/refund-times'
import { refundDueBy } from '../../app/domain/refunds'
import { expectNoSeriousA11yViolations } from './axe'
import { cartOfTwoOnPayPage, PREMIUM, payOnWebsiteInSandbox } from './cart-helpers'
import { withE2eDatabase } from './database'
import { expect, test } from './fixtures'
import { tickService } from './cart'
import { emailsTo, useOwnClientAddress } from './sign-in-helpers'
import type { Page } from '@playwright/test'

// One promise per fact (issue 32, item 4), on a 360 px phone with JavaScript on and off: a refund's
// state (requested, paid on a date, failed and being retried) on /subscriptions and in "Your data",
// and a bank-transfer claim answered by a "we got your claim" e-mail with its deadline.

const PHONE = { width: 360, height: 740 }
test.use({ viewport: PHONE })
test.beforeEach(async ({ page }) => useOwnClientAddress(page))

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
}

/** Puts the customer's refund in `status` (what the gateway job or the team would have done). */
async function setRefund(userId: string, status: 'PENDING' | 'PROCESSED' | 'FAILED', lastError: string | null) {
  await withE2eDatabase((client) =>
    client.query(
      `UPDATE refunds SET status = $2::"RefundStatus", last_error = $3,
         processed_at = CASE WHEN $2 = 'PROCESSED' THEN coalesce(processed_at, now()) END
       WHERE user_id = $1::uuid`,
      [userId, status, lastError],
    ),
  )
}

test("a refund's state shows on /subscriptions and in Your data: requested, paid on a date, failed and being retried", async ({
  customerWithProfile: { page, userId },
  javaScriptEnabled,
}) => {
  // A purchase through the sandbox, the ending, and three states of its refund.
  test.slow()
  await cartOfTwoOnPayPage(page)
  await payOnWebsiteInSandbox(page, javaScriptEnabled)
  await expect(page).toHaveURL(/\/subscriptions\?from=payment$/)
  await page.getByRole('link', { name: `End subscription to ${PREMIUM}` }).click()
  await page.getByRole('button', { name: 'End subscription now' }).click()
  await expect(page).toHaveURL(/\/subscriptions$/)

  const refund = page.getByRole('listitem', { name: `Refund for ${PREMIUM}` })
  const today = formatIndiaDate(new Date())
  // The gateway job may have paid it already.
  await expect(refund).toContainText(new RegExp(`(Requested|Paid) on ${today}`))
  // Wait for the job to settle it, so that nothing moves it under the test's feet.
  await expect
    .poll(() =>
      withE2eDatabase(async (client) => {
        const { rows } = await client.query<{ status: string }>(`SELECT status FROM refunds WHERE user_id = $1::uuid`, [
          userId,
        ])
        return rows[0]?.status
      }),
    )
    .toBe('PROCESSED')
  const createdAt = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ created_at: Date }>(
      `SELECT created_at FROM refunds WHERE user_id = $1::uuid`,
      [userId],
    )
    return rows[0]!.created_at
  })
  const dueBy = formatIndiaDate(refundDueBy(createdAt))

  await page.goto('/subscriptions')
  await expect(refund).toContainText(`Paid on ${today}`)
  await expect(refund).toContainText('Sent back to the card or UPI account you paid with')
  await expectNoSidewaysScroll(page)
  await expectNoSeriousA11yViolations(page)

  await setRefund(userId, 'FAILED', 'e2e: the gateway refused it')
  await page.goto('/subscriptions')
  await expect(refund).toContainText('Failed, being retried')
  await expect(refund).toContainText(`We still pay the refund within ${REFUND_PAYMENT_DAYS} days, by ${dueBy}.`)

  await setRefund(userId, 'PENDING', null)
  await page.goto('/subscriptions')
  await expect(refund).toContainText(`Requested on ${today}`)
  await expect(refund).toContainText('back to the card or UPI account you paid with, in 5 to 7 working days')
  await expectNoSidewaysScroll(page)

  await page.goto('/account')
  const refunds = page.getByRole('region', { name: 'Refunds' })
  await expect(refunds).toContainText(PREMIUM)
  await expect(refunds).toContainText(`Requested on ${today}`)
  await expectNoSidewaysScroll(page)
  const download = await page.request.get('/account/data.json')
  expect(((await download.json()) as { refunds: { state: string }[] }).refunds).toEqual([
    expect.objectContaining({ state: `Requested on ${today}` }),
  ])
})

test('a bank-transfer claim sends "we got your claim" with what happens next and its deadline (dev outbox)', async ({
  customerWithProfile: { page, userId },
  request,
}) => {
  const email = `claim-${randomInt(0, 1e9)}@example.in`
  await withE2eDatabase((client) => client.query('UPDATE users SET email = $2 WHERE id = $1', [userId, email]))
  await tickService(page, PREMIUM)
  await page.goto('/pay')
  await page.getByRole('link', { name: 'Pay Manually' }).click()
  await page
    .getByRole('dialog', { name: 'Manual Payment Instructions' })
    .getByRole('button', { name: "I'll Pay & Send Screenshot" })
    .click()
  await expect(page).toHaveURL(/\/subscriptions\?from=payment$/)
  const dismissedOn = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ expires_at: Date }>(
      `SELECT expires_at FROM payments WHERE user_id = $1::uuid AND method = 'MANUAL'`,
      [userId],
    )
    return formatIndiaDate(rows[0]!.expires_at)
  })

  const [claimed] = await emailsTo(request, email)
  expect(claimed!.subject).toBe('We got your bank transfer claim')
  await page.goto(`/dev/outbox?to=${encodeURIComponent(email)}`)
  await expect(page.getByText('We got your bank transfer claim').first()).toBeVisible()
  await expect(
    page.getByText(new RegExp(`We got your claim of a bank transfer of Rs\\. 2,999 for ${PREMIUM}`)).first(),
  ).toBeVisible()
  await expect(
    page
      .getByText(
        `A claim we cannot confirm within ${MANUAL_PAYMENT_EXPIRY_DAYS} days is dismissed: if yours is not confirmed by ${dismissedOn}, no subscription starts.`,
      )
      .first(),
  ).toBeVisible()
  await expectNoSidewaysScroll(page)
})
