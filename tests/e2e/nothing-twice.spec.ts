import { PREMIUM, SWING } from './cart-helpers'
import { withE2eDatabase } from './database'
import { expect, test } from './fixtures'
import { gotoHydrated } from './hydration'
import { useOwnClientAddress } from './sign-in-helpers'
import { tickService } from './cart'

// Nothing twice (issue 32, item 3): "Pay again" says that it replaces the cart, then does; a
// checkout tab closed without paying is not "being confirmed" and does not say "do not pay again".

test.use({ viewport: { width: 360, height: 740 } })
test.beforeEach(async ({ page }) => useOwnClientAddress(page))

/** A bank-transfer claim for PREMIUM that the team rejected three days ago. */
async function rejectedClaimFor(userId: string) {
  await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ id: string; name: string; price_paise: number }>(
      `SELECT id::text, name, price_paise FROM services WHERE name = $1`,
      [PREMIUM],
    )
    const service = rows[0]!
    const cart = [{ serviceId: service.id, name: service.name, pricePaise: service.price_paise, durationDays: 30 }]
    const createdAt = new Date(Date.now() - 3 * 24 * 60 * 60_000)
    await client.query(
      `INSERT INTO payments (user_id, method, status, amount_paise, currency, cart, created_at, expires_at, rejected_reason)
       VALUES ($1::uuid, 'MANUAL', 'REJECTED', $2, 'INR', $3::jsonb, $4, $5, 'No transfer reached our account.')`,
      [
        userId,
        service.price_paise,
        JSON.stringify(cart),
        createdAt,
        new Date(createdAt.getTime() + 7 * 24 * 60 * 60_000),
      ],
    )
  })
}

test('"Pay again" on a rejected claim says the cart will be replaced, then replaces it with the claim\'s services', async ({
  customerWithProfile: { page, userId },
}) => {
  await rejectedClaimFor(userId)
  await tickService(page, SWING)
  await page.goto('/subscriptions')
  const rejected = page.getByRole('region', { name: 'Rejected payment claims' })
  const payAgain = rejected.getByRole('button', { name: `Pay again for ${PREMIUM}` })
  await expect(payAgain).toHaveAccessibleDescription(`Your cart holds ${SWING}. Pay again replaces it with ${PREMIUM}.`)
  await expect(rejected.getByText(`Your cart holds ${SWING}. Pay again replaces it with ${PREMIUM}.`)).toBeVisible()

  await payAgain.click()
  await expect(page).toHaveURL(/\/pay$/)
  await expect(page.getByText('Total: Rs. 2,999')).toBeVisible()
  await expect(page.getByRole('heading', { level: 2, name: SWING })).toHaveCount(0)
})

test('a checkout tab closed without paying does not say "do not pay again": nothing was paid, and paying again is offered', async ({
  customerWithProfile: { page },
  javaScriptEnabled,
}) => {
  await tickService(page, PREMIUM)
  await gotoHydrated(page, '/pay')
  await page.getByRole('button', { name: 'Pay on Website' }).click()
  if (javaScriptEnabled) await expect(page.getByRole('dialog', { name: 'Sandbox checkout' })).toBeVisible()
  else {
    await page.getByRole('button', { name: 'Continue to payment' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Sandbox checkout' })).toBeVisible()
  }
  // The tab is closed with the checkout open: nothing tells the store.
  const later = await page.context().newPage()
  await useOwnClientAddress(later)
  await page.close()

  await later.goto('/subscriptions')
  await expect(later.getByRole('heading', { level: 1, name: 'My Subscription(s)' })).toBeVisible()
  await expect(later.getByText(/do not pay again/i)).toHaveCount(0)
  await expect(later.getByRole('region', { name: 'Payment being confirmed' })).toHaveCount(0)
  const unfinished = later.getByRole('region', { name: 'Payment not finished' })
  await expect(unfinished).toContainText(PREMIUM)
  await expect(unfinished).toContainText('Nothing was paid')
  await unfinished.getByRole('link', { name: 'Pay now' }).click()
  await expect(later).toHaveURL(/\/pay$/)
  await expect(later.getByText('Total: Rs. 2,999')).toBeVisible()
})
