import { MS_PER_DAY } from '../../app/domain/dates'
import { indiaDateTimeLocal } from '../../app/domain/research-desk'
import { expectNoSeriousA11yViolations } from './axe'
import { withE2eDatabase } from './database'
import { createSignedInUser, expect, test } from './fixtures'
import { gotoHydrated } from './hydration'

// The analyst's desk (docs/research.md): a draft's reach, Schedule and Cancel, publishing through
// the scheduled job, the delivery log with Retry, and the list's filters and pages.

const SERVICE = 'Equity Premium'

/** A draft for SERVICE by `authorId`, written straight into the database (the form has its own spec). */
async function draftFor(authorId: string, title: string): Promise<string> {
  return withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO research_items (title, body, financial_interest, ownership_one_percent, compensation_past_year,
                                   other_conflict, ai_tools_used, author_id)
       VALUES ($1, 'Margins held.', false, false, false, 'None', false, $2) RETURNING id`,
      [title, authorId],
    )
    await client.query(
      `INSERT INTO research_item_services (item_id, service_id) SELECT $1, id FROM services WHERE name = $2`,
      [rows[0]!.id, SERVICE],
    )
    return rows[0]!.id
  })
}

/** A customer with an e-mail address and a running subscription to SERVICE. */
async function subscriber(): Promise<string> {
  const { userId } = await createSignedInUser({ completeProfile: true })
  await withE2eDatabase((client) =>
    client.query(
      `INSERT INTO subscriptions (user_id, service_id, starts_at, ends_at, grant_reason, granted_by)
       SELECT $1, id, now() - interval '1 day', $2, 'e2e: research desk', $1 FROM services WHERE name = $3`,
      [userId, new Date(Date.now() + 30 * MS_PER_DAY), SERVICE],
    ),
  )
  return userId
}

test('the analyst schedules a draft, cancels, schedules again; the job publishes it; failed deliveries are retried', async ({
  admin: { page, userId: adminId },
}) => {
  // A job run, reloads waiting for it and two axe audits: more than the usual 60 s on a busy machine.
  test.slow()
  const reader = await subscriber()
  const title = `Autos: a scheduled look ${Date.now()}`
  const itemId = await draftFor(adminId, title)

  await gotoHydrated(page, `/admin/research/${itemId}`)
  await expect(page.getByRole('heading', { name: 'Draft: preview' })).toBeVisible()
  const reach = page.getByRole('list', { name: 'Reach by channel' })
  await expect(reach).toContainText(/On the site: \d+ customers?/)
  await expect(reach).toContainText(/E-mail: \d+ customers?/)
  await expectNoSeriousA11yViolations(page)

  // A past time is refused, with the field's message, and nothing is scheduled.
  await page.getByLabel('Publish at (India time)').fill('2020-01-01T09:00')
  await page.getByRole('button', { name: 'Schedule' }).click()
  await expect(page.getByText('That time has passed: choose a later minute, or publish now.')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Draft: preview' })).toBeVisible()

  const inAnHour = indiaDateTimeLocal(new Date(Date.now() + 60 * 60_000))
  await page.getByLabel('Publish at (India time)').fill(inAnHour)
  await page.getByRole('button', { name: 'Schedule' }).click()
  await expect(page.getByText(/^Scheduled to publish at \d{2}-\d{2}-\d{4} \d{2}:\d{2} IST\.$/)).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Scheduled: preview' })).toBeVisible()
  await page.getByRole('button', { name: 'Cancel schedule' }).click()
  await expect(page.getByText('Schedule cancelled: the item is a draft again.')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Draft: preview' })).toBeVisible()

  await page.getByLabel('Publish at (India time)').fill(inAnHour)
  await page.getByRole('button', { name: 'Schedule' }).click()
  await expect(page.getByRole('heading', { name: 'Scheduled: preview' })).toBeVisible()

  // Its minute comes: the job (every minute; run now) publishes it, taking the roll then.
  await withE2eDatabase(async (client) => {
    await client.query(`UPDATE research_items SET scheduled_at = now() - interval '1 second' WHERE id = $1`, [itemId])
    await client.query(`INSERT INTO pgboss.job (name, data) VALUES ('research-scheduled', '{}')`)
  })
  await expect(async () => {
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Published record' })).toBeVisible({ timeout: 1_000 })
  }).toPass({ timeout: 60_000 })
  await expect(page.getByText('Signature: verifies.', { exact: false })).toBeVisible()
  // The reader at least: a row below the header.
  await expect(page.getByRole('region', { name: 'Customers on the roll' }).getByRole('row').nth(1)).toBeVisible()

  // The reader's e-mail failed for good; Retry puts it back in the queue.
  await withE2eDatabase((client) =>
    client.query(
      `UPDATE research_deliveries SET status = 'FAILED', failed_at = now(), last_error = '550 mailbox <b>gone</b>'
       WHERE item_id = $1 AND user_id = $2`,
      [itemId, reader],
    ),
  )
  await page.reload()
  const failed = page.getByRole('region', { name: 'Failed deliveries', exact: true })
  await expect(failed).toContainText('550 mailbox <b>gone</b>')
  await expect(page.getByRole('region', { name: 'Deliveries by channel' })).toContainText('E-mail')
  await expectNoSeriousA11yViolations(page)
  await page.getByRole('button', { name: 'Retry failed deliveries' }).click()
  await expect(page.getByText('1 failed delivery goes back in the queue.')).toBeVisible()
  // Back in the queue with its tries counted from none; the delivery job (every minute; run now) sends it.
  const deliveryState = () =>
    withE2eDatabase(async (client) => {
      const { rows } = await client.query<{ status: string; attempts: number }>(
        `SELECT status::text, attempts FROM research_deliveries
         WHERE item_id = $1 AND user_id = $2 AND channel = 'EMAIL'`,
        [itemId, reader],
      )
      return `${rows[0]!.status} ${rows[0]!.attempts}`
    })
  expect(['QUEUED 0', 'QUEUED 1', 'SENT 1']).toContain(await deliveryState())
  await withE2eDatabase((client) =>
    client.query(`INSERT INTO pgboss.job (name, data) VALUES ('research-deliveries', '{}')`),
  )
  await expect.poll(deliveryState, { timeout: 60_000 }).toBe('SENT 1')
})

test('the research list filters by status and dates, pages by keyset, and names a malformed filter', async ({
  admin: { page, userId: adminId },
}) => {
  test.slow()
  // A year of this project's own, so the two projects' drafts never meet on one page.
  const year = test.info().project.use.javaScriptEnabled === false ? 2002 : 2001
  await withE2eDatabase(async (client) => {
    await client.query(
      `DELETE FROM research_item_services WHERE item_id IN
         (SELECT id FROM research_items WHERE created_at >= $1 AND created_at < $2)`,
      [`${year}-01-01T00:00:00+05:30`, `${year + 1}-01-01T00:00:00+05:30`],
    )
    await client.query(`DELETE FROM research_items WHERE created_at >= $1 AND created_at < $2`, [
      `${year}-01-01T00:00:00+05:30`,
      `${year + 1}-01-01T00:00:00+05:30`,
    ])
    await client.query(
      `INSERT INTO research_items (title, body, financial_interest, ownership_one_percent, compensation_past_year,
                                   other_conflict, ai_tools_used, author_id, created_at)
       SELECT 'Old draft ' || n, 'Text', false, false, false, 'None', false, $1,
              $2::timestamptz + n * interval '1 hour'
       FROM generate_series(1, 51) n`,
      [adminId, `${year}-01-01T00:00:00+05:30`],
    )
  })

  await gotoHydrated(page, '/admin/research')
  await page.getByLabel('Status').selectOption('DRAFT')
  await page.getByLabel('From (India date)').fill(`${year}-01-01`)
  await page.getByLabel('To (India date)').fill(`${year}-01-31`)
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page).toHaveURL(/status=DRAFT/)
  const table = page.getByRole('region', { name: 'Research items' })
  await expect(table.getByRole('link', { name: 'Old draft 51', exact: true })).toBeVisible()
  await expect(table.getByRole('row')).toHaveCount(51)
  await expectNoSeriousA11yViolations(page)

  await page.getByRole('link', { name: 'Next page' }).click()
  await expect(table.getByRole('link', { name: 'Old draft 1', exact: true })).toBeVisible()
  await expect(table.getByRole('row')).toHaveCount(2)
  await page.getByRole('link', { name: 'Previous page' }).click()
  await expect(table.getByRole('link', { name: 'Old draft 51', exact: true })).toBeVisible()

  await page.getByLabel('Status').selectOption('PUBLISHED')
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page.getByText('No research matches.')).toBeVisible()

  const response = await page.goto(`/admin/research?status=LOST&from=${year}-02-31&serviceId=nope`)
  expect(response?.status()).toBe(200)
  await expect(page.getByText('Not understood and left out of the filter: service, status, from date.')).toBeVisible()
})
