import type { Page } from '@playwright/test'
import { formatIndiaDate } from '../../app/domain/dates'
import { E2E_BUSINESS_DETAILS } from '../fixtures/business-details'
import { expectNoSeriousA11yViolations } from './axe'
import { cartOfTwoOnPayPage, PREMIUM, SWING, payOnWebsiteInSandbox } from './cart-helpers'
import { withE2eDatabase } from './database'
import { expect, test } from './fixtures'
import { useOwnClientAddress } from './sign-in-helpers'

// What the customer sees after paying: the claim's instructions until it is confirmed,
// a payment being confirmed, a rejected claim, and what a confirmed payment added.

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

const DAY_MS = 24 * 60 * 60_000

async function expectNoHorizontalOverflow(page: Page) {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 })
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow, `horizontal overflow at ${width} px`).toBeLessThanOrEqual(0)
  }
}

/** A payment row no page can make, for this customer; returns its id. */
async function insertPayment(
  userId: string,
  row: { method: 'MANUAL' | 'GATEWAY'; status: string; createdAt: Date; rejectedReason?: string; orderId?: string },
): Promise<string> {
  return withE2eDatabase(async (client) => {
    const { rows: services } = await client.query<{ id: string; name: string; price_paise: number }>(
      `SELECT id::text, name, price_paise FROM services WHERE name = $1`,
      [PREMIUM],
    )
    const service = services[0]!
    const cart = [{ serviceId: service.id, name: service.name, pricePaise: service.price_paise, durationDays: 30 }]
    const expiresAt = row.method === 'MANUAL' ? new Date(row.createdAt.getTime() + 7 * DAY_MS) : null
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO payments (user_id, method, status, amount_paise, currency, cart, created_at, expires_at, rejected_reason, gateway_order_id)
       VALUES ($1::uuid, $2, $3, $4, 'INR', $5::jsonb, $6, $7, $8, $9) RETURNING id::text`,
      [
        userId,
        row.method,
        row.status,
        service.price_paise,
        JSON.stringify(cart),
        row.createdAt,
        expiresAt,
        row.rejectedReason ?? null,
        row.orderId ?? null,
      ],
    )
    return rows[0]!.id
  })
}

test('after "I\'ll Pay & Send Screenshot" the claim is recorded and its card says what to pay, to whom, by when', async ({
  customerWithProfile: { page },
}) => {
  await cartOfTwoOnPayPage(page)
  await page.getByRole('link', { name: 'Pay Manually' }).click()
  const before = new Date()
  await page.getByRole('button', { name: "I'll Pay & Send Screenshot" }).click()
  await expect(page).toHaveURL(/\/subscriptions/)

  await expect(page.getByRole('status').filter({ hasText: 'Payment claim recorded' })).toBeVisible()
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Manual Payment' }) })
  await expect(card).toContainText('Transfer Rs. 4,498')
  await expect(card).toContainText(E2E_BUSINESS_DETAILS.bankAccount.accountNumber)
  await expect(card).toContainText(E2E_BUSINESS_DETAILS.bankAccount.ifsc)
  await expect(card).toContainText(E2E_BUSINESS_DETAILS.bankAccount.accountName)
  await expect(card.getByRole('link', { name: /WhatsApp/ })).toHaveAttribute(
    'href',
    `https://wa.me/${E2E_BUSINESS_DETAILS.whatsappNumber.replace(/\D/g, '')}`,
  )
  await expect(card).toContainText(`by ${formatIndiaDate(new Date(before.getTime() + 7 * DAY_MS))}`)
  await expectNoHorizontalOverflow(page)
  await expectNoSeriousA11yViolations(page)

  // The message was for that page only; the instructions stay until the claim is decided.
  await page.reload()
  await expect(page.getByText('Payment claim recorded')).toHaveCount(0)
  await expect(card).toContainText(E2E_BUSINESS_DETAILS.bankAccount.accountNumber)
  await page.getByRole('link', { name: 'What happens now?' }).click()
  const info = page.getByRole('dialog', { name: 'Payment Verification Information' })
  await expect(info).toContainText(E2E_BUSINESS_DETAILS.bankAccount.accountNumber)
  await expect(info).toContainText(E2E_BUSINESS_DETAILS.bankAccount.ifsc)
})

test('a rejected claim stays on /subscriptions with its reason and a way to pay again, for 30 days', async ({
  customerWithProfile: { page, userId },
}) => {
  await insertPayment(userId, {
    method: 'MANUAL',
    status: 'REJECTED',
    createdAt: new Date(Date.now() - 3 * DAY_MS),
    rejectedReason: 'No transfer of Rs. 2,999 reached our account.',
  })
  await insertPayment(userId, {
    method: 'MANUAL',
    status: 'REJECTED',
    createdAt: new Date(Date.now() - 31 * DAY_MS),
    rejectedReason: 'An old rejection.',
  })
  await page.goto('/subscriptions')
  const rejected = page.getByRole('region', { name: 'Rejected payment claims' })
  await expect(rejected).toContainText('No transfer of Rs. 2,999 reached our account.')
  await expect(rejected).toContainText(PREMIUM)
  await expect(rejected).not.toContainText('An old rejection.')
  await expectNoHorizontalOverflow(page)
  await expectNoSeriousA11yViolations(page)

  await rejected.getByRole('button', { name: `Pay again for ${PREMIUM}` }).click()
  await expect(page).toHaveURL(/\/pay$/)
  await expect(page.getByText('Total: Rs. 2,999')).toBeVisible()
})

test('a confirmed payment says what was paid: amount, reference and the services added', async ({
  customerWithProfile: { page },
  javaScriptEnabled,
}) => {
  await cartOfTwoOnPayPage(page)
  await payOnWebsiteInSandbox(page, javaScriptEnabled)

  await expect(page).toHaveURL(/\/subscriptions/)
  const confirmation = page.getByRole('status').filter({ hasText: 'Payment of Rs. 4,498 received' })
  await expect(confirmation).toBeVisible()
  await expect(confirmation).toContainText(/Reference pay_\w+/)
  await expect(confirmation).toContainText(new RegExp(`${PREMIUM} until \\d\\d-\\d\\d-\\d{4}`))
  await expect(confirmation).toContainText(new RegExp(`${SWING} until \\d\\d-\\d\\d-\\d{4}`))
  await expectNoHorizontalOverflow(page)
  await expectNoSeriousA11yViolations(page)
})

// The checkout's answer is sent by the page's script: project no-js leaves @js-only tests out.
test(
  'a network drop after paying at the gateway lands on /subscriptions, never a crash page',
  { tag: '@js-only' },
  async ({ customerWithProfile: { page } }) => {
    await cartOfTwoOnPayPage(page)
    // The checkout's answer never reaches the store.
    await page.route('**/pay.data*', async (route) => {
      if (route.request().method() === 'POST' && /intent=(re)?verify/.test(route.request().postData() ?? '')) {
        await route.abort('internetdisconnected')
      } else {
        await route.fallback()
      }
    })
    await page.getByRole('button', { name: 'Pay on Website' }).click()
    await page.getByRole('button', { name: 'Simulate success' }).click()

    await expect(page).toHaveURL(/\/subscriptions/)
    await expect(page.getByText('Unexpected Application Error!')).toHaveCount(0)
    // /subscriptions asks the gateway itself, and the payment is confirmed.
    await expect(page.getByRole('status').filter({ hasText: 'Payment of Rs. 4,498 received' })).toBeVisible()
    await expect(page.getByRole('heading', { level: 2, name: PREMIUM, exact: true })).toBeVisible()
  },
)

test('a gateway payment not yet confirmed to us shows "being confirmed", with a way to check again', async ({
  customerWithProfile: { page, userId },
  javaScriptEnabled,
}) => {
  await insertPayment(userId, {
    method: 'GATEWAY',
    status: 'CREATED',
    createdAt: new Date(Date.now() - 60_000),
    orderId: `order_e2e${Date.now()}${Math.random().toString(36).slice(2, 8)}`,
  })
  await page.goto('/subscriptions?from=payment')
  const confirming = page.getByRole('region', { name: 'Payment being confirmed' })
  await expect(confirming).toContainText(PREMIUM)
  await expect(confirming).toContainText('Rs. 2,999')
  await expect(confirming.getByRole('link', { name: 'Check again' })).toHaveAttribute(
    'href',
    /\/subscriptions\?check=1$/,
  )
  await expect(page.getByText('Unexpected Application Error!')).toHaveCount(0)
  await expectNoHorizontalOverflow(page)
  await expectNoSeriousA11yViolations(page)

  // With JavaScript the page checks again by itself; without it, the link does.
  if (!javaScriptEnabled) await confirming.getByRole('link', { name: 'Check again' }).click()
  await expect(page).toHaveURL(/check=1/, { timeout: 20_000 })
  await expect(page.getByRole('region', { name: 'Payment being confirmed' })).toBeVisible()
})
