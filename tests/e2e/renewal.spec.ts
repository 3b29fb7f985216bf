import { randomInt } from 'node:crypto'
import { formatIndiaDate } from '../../app/domain/dates'
import { expectNoSeriousA11yViolations } from './axe'
import { PREMIUM } from './cart-helpers'
import { withE2eDatabase } from './database'
import { expect, test } from './fixtures'
import { emailsTo, useOwnClientAddress } from './sign-in-helpers'

// Renewals (docs/payments.md, "Renewals"): a subscription a day from its end is reminded by e-mail
// (the dev outbox), whose link renews it in one tap: the service in the cart and /pay stating the
// new period from the current end. JavaScript on and off.

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

const DAY_MS = 24 * 60 * 60_000
/** Equity Premium's length in the seed. */
const PREMIUM_DAYS = 30

test('a reminder in the dev outbox links to /renew, which lands on /pay with the new period', async ({
  customerWithProfile: { page, userId },
  request,
}) => {
  const email = `renew-${randomInt(0, 1e9)}@example.in`
  const endsAt = new Date(Date.now() + DAY_MS / 2)
  // Equity Premium ending in 12 hours: its "1 day before" reminder is due.
  await withE2eDatabase(async (client) => {
    await client.query('UPDATE users SET email = $2 WHERE id = $1', [userId, email])
    await client.query(
      `INSERT INTO subscriptions (user_id, service_id, starts_at, ends_at, grant_reason, granted_by)
       SELECT $1, id, $2, $3, 'e2e: ends tomorrow', $1 FROM services WHERE name = $4`,
      [userId, new Date(endsAt.getTime() - PREMIUM_DAYS * DAY_MS), endsAt, PREMIUM],
    )
    await client.query(`SELECT pg_notify('research_store_cache', $1)`, [`e2e subscriptions:${userId}`])
    // The store's schedule runs the job every 15 minutes; this runs it now.
    await client.query(`INSERT INTO pgboss.job (name, data) VALUES ('renewal-reminders', '{}')`)
  })

  const [reminder] = await emailsTo(request, email)
  expect(reminder!.subject).toBe(`Your ${PREMIUM} subscription ends tomorrow, ${formatIndiaDate(endsAt)}`)
  const renewPath = /\/renew\/[0-9a-f-]{36}/.exec(reminder!.body)?.[0]
  expect(renewPath).toBeDefined()

  await page.goto(`/dev/outbox?to=${encodeURIComponent(email)}`)
  await expect(page.getByText(renewPath!).first()).toBeVisible()

  await page.goto(renewPath!)
  await expect(page).toHaveURL(/\/pay$/)
  await expect(page.getByRole('heading', { level: 2, name: PREMIUM })).toBeVisible()
  const newEnd = new Date(endsAt.getTime() + PREMIUM_DAYS * DAY_MS)
  await expect(
    page.getByText(`Renewal: ${formatIndiaDate(endsAt)} (when your current period ends) to ${formatIndiaDate(newEnd)}`),
  ).toBeVisible()
  await expectNoSeriousA11yViolations(page)

  // /subscriptions offers the same renewal.
  await page.goto('/subscriptions')
  await expect(page.getByRole('link', { name: `Renew ${PREMIUM}` })).toHaveAttribute('href', renewPath!)
})

test('a renewal link of a service taken off sale says so', async ({ customerWithProfile: { page } }) => {
  const name = `Retired ${randomInt(0, 1e9)}`
  const serviceId = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO services (name, price_paise, duration_days, active, risk_level, delivery)
       VALUES ($1, 99900, 30, false, 'HIGH', 'Ideas on the website as published') RETURNING id`,
      [name],
    )
    return rows[0]!.id
  })

  await page.goto(`/renew/${serviceId}`)
  await expect(page.getByRole('heading', { level: 1, name: `${name} is no longer on sale` })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Services on sale' })).toBeVisible()
  await expectNoSeriousA11yViolations(page)
})
