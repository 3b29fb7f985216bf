import { MS_PER_DAY } from '../../app/domain/dates'
import { CUSTOMER_RESEARCH_PAGE_SIZE } from '../../app/domain/research-list'
import { expectNoSeriousA11yViolations } from './axe'
import { withE2eDatabase } from './database'
import { expect, test } from './fixtures'
import { gotoHydrated } from './hydration'

// The customer's research list (docs/research.md, decision 040): a service filter that is a plain
// GET form, keyset pages as plain links, unread marks cleared by opening an item, and a malformed
// filter or cursor answered with the first page and a notice.

const ITEMS = CUSTOMER_RESEARCH_PAGE_SIZE + 2

/**
 * Two retired services of this test alone (so other specs' research stays out of its list), the
 * customer subscribed to both, and ITEMS published items alternating between them, a minute apart.
 * Straight into the database: the list reads published rows, whoever signed them.
 */
async function readerWithResearch(userId: string, tag: string) {
  return withE2eDatabase(async (client) => {
    const services = await client.query<{ id: string; name: string }>(
      `INSERT INTO services (name, price_paise, duration_days, active, risk_level, delivery)
       VALUES ($1, 100000, 30, false, 'HIGH', 'e2e'), ($2, 100000, 30, false, 'HIGH', 'e2e')
       RETURNING id::text, name`,
      [`Reader Alpha ${tag}`, `Reader Beta ${tag}`],
    )
    for (const service of services.rows)
      await client.query(
        `INSERT INTO subscriptions (user_id, service_id, starts_at, ends_at, grant_reason, granted_by)
         VALUES ($1, $2, now() - interval '1 day', $3, 'e2e: research reader', $1)`,
        [userId, service.id, new Date(Date.now() + 30 * MS_PER_DAY)],
      )
    const items = await client.query<{ id: string; title: string; n: number }>(
      `INSERT INTO research_items (status, title, body, financial_interest, ownership_one_percent,
         compensation_past_year, other_conflict, ai_tools_used, author_id, published_at, analyst_name,
         sebi_registration_number, bse_enlistment_number, content_sha256, signature, signing_key_fingerprint, created_at)
       SELECT 'PUBLISHED', 'Note ' || n || ' ' || $2, 'Text.', false, false, false, 'None', false, $1,
         now() - (n || ' minutes')::interval, 'Research Store', 'INH000000000', '1', 'hash', 'sig', 'fp', now()
       FROM generate_series(1, $3::int) n
       RETURNING id::text, title, (split_part(title, ' ', 2))::int AS n`,
      [userId, tag, ITEMS],
    )
    for (const item of items.rows)
      await client.query(`INSERT INTO research_item_services (item_id, service_id) VALUES ($1, $2)`, [
        item.id,
        services.rows[item.n % 2]!.id,
      ])
    return { services: services.rows, titles: items.rows.sort((a, b) => a.n - b.n).map((item) => item.title) }
  })
}

test('the customer filters their research by service, pages through it, and opening an item clears its unread mark', async ({
  customerWithProfile: { page, userId },
}) => {
  test.slow()
  const tag = `${Date.now()}`
  const { services, titles } = await readerWithResearch(userId, tag)
  const [alpha, beta] = [services[0]!, services[1]!]
  const entry = (title: string) =>
    page.getByRole('listitem').filter({ has: page.getByRole('link', { name: title, exact: true }) })

  await gotoHydrated(page, '/')
  await page.getByRole('link', { name: 'Your research' }).click()
  await expect(page).toHaveURL(/\/research$/)
  await expect(page.getByRole('link', { name: titles[0]!, exact: true })).toBeVisible()
  await expect(page.getByRole('link', { name: /^Note \d+ / })).toHaveCount(CUSTOMER_RESEARCH_PAGE_SIZE)
  await expect(entry(titles[0]!)).toContainText('Unread')
  await expectNoSeriousA11yViolations(page)

  await page.getByRole('link', { name: 'Next page' }).click()
  await expect(page.getByRole('link', { name: /^Note \d+ / })).toHaveCount(ITEMS - CUSTOMER_RESEARCH_PAGE_SIZE)
  await expect(page.getByRole('link', { name: titles.at(-1)!, exact: true })).toBeVisible()
  await page.getByRole('link', { name: 'Previous page' }).click()
  await expect(page.getByRole('link', { name: titles[0]!, exact: true })).toBeVisible()

  // Odd notes are Beta's (index n % 2 = 1), even notes Alpha's.
  await page.getByLabel('Service').selectOption({ label: beta.name })
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page).toHaveURL(/service=/)
  await expect(page.getByRole('link', { name: /^Note \d+ / })).toHaveCount(ITEMS / 2)
  await expect(page.getByRole('listitem').filter({ hasText: alpha.name })).toHaveCount(0)
  await expectNoSeriousA11yViolations(page)

  await page.getByRole('link', { name: titles[0]!, exact: true }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(titles[0]!)
  await page.getByRole('link', { name: 'All your research' }).click()
  await expect(entry(titles[0]!)).not.toContainText('Unread')
  await expect(entry(titles[2]!)).toContainText('Unread')
})

test('a malformed filter or page link shows the first page with a notice, not an error', async ({
  customerWithProfile: { page, userId },
}) => {
  // An axe audit on a busy machine: more than the usual 60 s.
  test.slow()
  const { titles } = await readerWithResearch(userId, `${Date.now()}`)
  const answer = await page.goto(`/research?service=%3Cscript%3Ealert(1)%3C%2Fscript%3E&after=${'9'.repeat(90)}`)
  expect(answer?.status()).toBe(200)
  await expect(page.getByText('That service is not one of yours; showing research of every service.')).toBeVisible()
  await expect(page.getByText('That page link was not valid')).toBeVisible()
  await expect(page.getByRole('link', { name: titles[0]!, exact: true })).toBeVisible()
  await expectNoSeriousA11yViolations(page)
})
