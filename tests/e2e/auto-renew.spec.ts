import { randomInt } from 'node:crypto'
import { formatIndiaDate } from '../../app/domain/dates'
import { expectNoSeriousA11yViolations } from './axe'
import { PREMIUM } from './cart-helpers'
import { withE2eDatabase } from './database'
import { expect, test } from './fixtures'
import { useOwnClientAddress } from './sign-in-helpers'

// Automatic renewal (docs/payments.md, "Renewals and mandates"): the customer turns it on with its
// own consent, authorises it at the (sandbox) gateway, is told of the charge in advance (the dev
// outbox), the gateway charges a new period with its invoice, and the customer stops it.
// JavaScript on and off.

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

const DAY_MS = 24 * 60 * 60_000

type OutboxMessage = { subject: string; body: string }

test('turn on with consent, authorise, the pre-debit notice, a charge with its invoice, stop', async ({
  customerWithProfile: { page, userId },
  otherAdmin: { page: admin },
  request,
}) => {
  const email = `autopay-${randomInt(0, 1e9)}@example.in`
  const endsAt = new Date(Date.now() + DAY_MS)
  const serviceId = await withE2eDatabase(async (client) => {
    await client.query('UPDATE users SET email = $2 WHERE id = $1', [userId, email])
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO subscriptions (user_id, service_id, starts_at, ends_at, grant_reason, granted_by)
       SELECT $1, id, $2, $3, 'e2e: ends tomorrow', $1 FROM services WHERE name = $4 RETURNING service_id AS id`,
      [userId, new Date(endsAt.getTime() - 30 * DAY_MS), endsAt, PREMIUM],
    )
    await client.query(`SELECT pg_notify('research_store_cache', $1)`, [`e2e subscriptions:${userId}`])
    return rows[0]!.id
  })

  await page.goto('/subscriptions')
  await page.getByRole('link', { name: `Renew automatically: ${PREMIUM}` }).click()
  await expect(page.getByRole('heading', { level: 1, name: `Renew ${PREMIUM} automatically` })).toBeVisible()
  await expect(page.getByText('The most any one charge can take is Rs. 2,999.')).toBeVisible()
  await expect(page.getByText(/^Amount: Rs\. 2,999 \(GST included\), charged every 30 days/)).toBeVisible()
  await expectNoSeriousA11yViolations(page)

  // The separate consent: refused without its box, or with a text other than the one shown.
  const turnOn = (form: Record<string, string>) =>
    page.request.post(`/subscriptions/${serviceId}/auto-renew`, {
      form: { intent: 'turn-on', ...form },
      maxRedirects: 0,
    })
  const unticked = await turnOn({ consentSha256: 'a'.repeat(64) })
  expect(unticked.status()).toBe(400)
  expect(await unticked.text()).toContain('Tick the box to give your consent')
  const otherText = await turnOn({ consent: 'authorised', consentSha256: 'a'.repeat(64) })
  expect(otherText.status()).toBe(409)
  expect(await otherText.text()).toContain('The terms of automatic renewal have changed.')
  const consent = page.getByLabel('I have read the terms above and authorise these automatic charges.')
  await consent.check()
  await page.getByRole('button', { name: 'Turn on automatic renewal' }).click()

  // The sandbox's stand-in for the gateway's authorisation page.
  await expect(page.getByRole('heading', { level: 1, name: 'Sandbox mandate' })).toBeVisible()
  await page.getByRole('button', { name: 'Authorise the mandate' }).click()
  await expect(page).toHaveURL(new RegExp(`/subscriptions/${serviceId}/auto-renew$`))
  await expect(page.getByTestId('auto-renew-status')).toHaveText(
    /^Renews automatically: Rs\. 2,999 every 30 days; next charge on \d{2}-\d{2}-\d{4}/,
  )
  await expectNoSeriousA11yViolations(page)

  // The pre-debit notice (the job runs every 15 minutes; this runs it now).
  const { subscriptionId, chargeAt } = await withE2eDatabase(async (client) => {
    await client.query(`INSERT INTO pgboss.job (name, data) VALUES ('pre-debit-notices', '{}')`)
    const { rows } = await client.query<{ gateway_subscription_id: string; next_charge_at: Date }>(
      `SELECT gateway_subscription_id, next_charge_at FROM mandates WHERE user_id = $1 AND state = 'ACTIVE'`,
      [userId],
    )
    return { subscriptionId: rows[0]!.gateway_subscription_id, chargeAt: rows[0]!.next_charge_at }
  })
  const subject = `Automatic renewal: Rs. 2,999 will be charged on ${formatIndiaDate(chargeAt)} for ${PREMIUM}`
  let notice: OutboxMessage | undefined
  await expect
    .poll(
      async () => {
        const response = await request.get(`/dev/outbox.json?to=${encodeURIComponent(email)}`)
        notice = ((await response.json()) as { messages: OutboxMessage[] }).messages.find(
          (message) => message.subject === subject,
        )
        return notice !== undefined
      },
      { timeout: 15_000, message: 'the pre-debit notice in the dev outbox' },
    )
    .toBe(true)
  expect(notice!.body).toContain('Stop automatic renewal')
  expect(notice!.body).toContain('/subscriptions')

  // The gateway charges: a new period from the current end, paid with its invoice.
  const returnTo = '/subscriptions'
  await page.goto(
    `/dev/sandbox/authorise?${new URLSearchParams({ subscription_id: subscriptionId, return_to: returnTo })}`,
  )
  await page.getByRole('button', { name: 'Simulate the next charge' }).click()
  await expect(page).toHaveURL(/\/subscriptions$/)
  await expect(page.getByText(`Ends on ${formatIndiaDate(new Date(endsAt.getTime() + 30 * DAY_MS))}`)).toBeVisible()
  await page.goto('/invoices')
  await expect(page.getByRole('link', { name: /^Tax invoice INV\/\d{4}\/\d{6}$/ })).toHaveCount(1)

  // The admin's customer page lists it, with its Stop.
  await admin.goto(`/admin/customers/${userId}`)
  const adminMandates = admin.getByRole('region', { name: 'Automatic renewals' })
  await expect(adminMandates.getByText(`${PREMIUM}: Renews automatically: Rs. 2,999 every 30 days;`)).toBeVisible()
  await expect(adminMandates.getByRole('button', { name: 'Stop automatic renewal' })).toBeVisible()

  // Stopped from /subscriptions: nothing more is charged; the paid period stays.
  await page.goto('/subscriptions')
  await page.getByRole('button', { name: `Stop automatic renewal of ${PREMIUM}` }).click()
  await expect(
    page.getByText(`Automatic renewal of ${PREMIUM} is stopped: nothing more will be charged.`),
  ).toBeVisible()
  await expect(page.getByRole('link', { name: `Renew automatically: ${PREMIUM}` })).toBeVisible()
  const state = await withE2eDatabase(
    async (client) =>
      (await client.query<{ state: string }>('SELECT state FROM mandates WHERE user_id = $1', [userId])).rows[0]!.state,
  )
  expect(state).toBe('CANCELLED')
  await admin.reload()
  await expect(adminMandates.getByText(/stopped .* \(Stopped by the customer\)/)).toBeVisible()
  await expect(adminMandates.getByRole('button', { name: 'Stop automatic renewal' })).toHaveCount(0)
})
