import { formatIndiaDate } from '../../app/domain/dates'
import { advanceRefusalMessage, advanceRefusals, renewableFromLabel } from '../../app/domain/purchase-limits'
import { expectNoSeriousA11yViolations } from './axe'
import { PREMIUM } from './cart-helpers'
import { withE2eDatabase } from './database'
import { expect, test } from './fixtures'
import { useOwnClientAddress } from './sign-in-helpers'
import { tickService } from './cart'

// The one-year advance limit (docs/payments.md): SEBI allows fees at most one year in advance. A renewal that would put
// the paid-up end more than 365 days ahead is refused on /pay (both ways to pay), and /services and /pay say from when
// it can be bought.

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

const DAY_MS = 24 * 60 * 60_000
/** Equity Premium is 30 days: paid up 340 days ahead, one more month would end 370 days from now. */
const PAID_UP_DAYS = 340

/** The customer's Equity Premium runs to `endsAt` (granted straight in the database), and the app forgets its cached copy. */
async function paidUpTo(userId: string, endsAt: Date) {
  await withE2eDatabase(async (client) => {
    await client.query(
      `INSERT INTO subscriptions (user_id, service_id, starts_at, ends_at, grant_reason, granted_by)
       SELECT $1, id, now(), $2, 'e2e: paid up well ahead', $1 FROM services WHERE name = $3`,
      [userId, endsAt, PREMIUM],
    )
    await client.query(`SELECT pg_notify('research_store_cache', $1)`, [`e2e subscriptions:${userId}`])
  })
}

test('a renewal beyond one year in advance: /pay refuses both ways to pay with the message, /services says from when', async ({
  customerWithProfile: { page, userId },
}) => {
  await tickService(page, PREMIUM)
  const endsAt = new Date(Date.now() + PAID_UP_DAYS * DAY_MS)
  await paidUpTo(userId, endsAt)
  const [refusal] = advanceRefusals(new Date(), new Map([['premium', endsAt]]), [
    { serviceId: 'premium', name: PREMIUM, durationDays: 30 },
  ])
  const message = advanceRefusalMessage([refusal!])
  const renewableFrom = renewableFromLabel(refusal!.renewableFrom!)
  expect(message).toContain(`${PREMIUM} is paid up to ${formatIndiaDate(endsAt)}.`)

  await page.goto('/pay')
  await expect(page.getByText(renewableFrom)).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: message })).toBeVisible()
  await expectNoSeriousA11yViolations(page)

  await page.getByRole('button', { name: 'Pay on Website' }).click()
  await expect(page.getByRole('alert')).toHaveText(message)

  await page.getByRole('link', { name: 'Pay Manually' }).click()
  const dialog = page.getByRole('dialog', { name: 'Manual Payment Instructions' })
  await dialog.getByRole('button', { name: "I'll Pay & Send Screenshot" }).click()
  await expect(dialog.getByRole('alert')).toContainText(message)
  expect(
    await withE2eDatabase(
      async (client) => (await client.query('SELECT 1 FROM payments WHERE user_id = $1', [userId])).rowCount,
    ),
  ).toBe(0)

  // On /services the card says from when; in the cart it can be unticked, and then not ticked again.
  await page.goto('/services')
  const checkbox = page.getByRole('checkbox', { name: PREMIUM, exact: true })
  await expect(page.getByText(renewableFrom)).toBeVisible()
  await expect(checkbox).toBeChecked()
  await checkbox.click()
  await expect(checkbox).not.toBeChecked()
  await expect(checkbox).toBeDisabled()
  await expect(checkbox).toHaveAccessibleDescription(`${renewableFrom}: fees can be paid at most one year in advance.`)
  await expect(page.getByRole('checkbox', { name: 'Swing Trading Ideas', exact: true })).toBeEnabled()
  await expectNoSeriousA11yViolations(page)
})
