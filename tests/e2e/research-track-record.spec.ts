import { readFile } from 'node:fs/promises'
import { expectNoSeriousA11yViolations } from './axe'
import { withE2eDatabase } from './database'
import { expect, test } from './fixtures'
import { gotoHydrated, hydrated } from './hydration'

// The track record (docs/research.md, "Track record"): the analyst opens a service's calls with their
// outcomes and summary from /admin/research, downloads its CSV, and a call's page prints the rating
// definitions.

/** A retired service of this test alone with two published calls: a buy whose target was hit, a sell still open. */
async function serviceWithCalls(authorId: string, tag: string) {
  return withE2eDatabase(async (client) => {
    const service = await client.query<{ id: string; name: string }>(
      `INSERT INTO services (name, price_paise, duration_days, active, risk_level, delivery)
       VALUES ($1, 100000, 30, false, 'HIGH', 'e2e') RETURNING id::text, name`,
      [`Track record ${tag}`],
    )
    const serviceId = service.rows[0]!.id
    const published = `'PUBLISHED', false, false, false, 'None', false, $1, 'Research Store', 'INH000000000', '1', 'hash', 'sig', 'fp', now()`
    const calls = await client.query<{ id: string; title: string }>(
      `INSERT INTO research_items (kind, status, financial_interest, ownership_one_percent, compensation_past_year,
         other_conflict, ai_tools_used, author_id, analyst_name, sebi_registration_number, bse_enlistment_number,
         content_sha256, signature, signing_key_fingerprint, created_at, title, body, published_at, exchange, symbol,
         call_action, entry_low_paise, entry_high_paise, targets_paise, stop_loss_paise, horizon)
       VALUES ('CALL', ${published}, $2, 'Why.', now() - interval '2 hours', 'NSE', 'TCS', 'BUY', 100000, NULL,
               '{110000}', 95000, '3 months'),
              ('CALL', ${published}, $3, 'Why.', now() - interval '1 hour', 'NSE', 'WIPRO', 'SELL', 100000, 102000,
               '{90000}', 105000, '1 month')
       RETURNING id::text, title`,
      [authorId, `Buy TCS ${tag}`, `Sell Wipro ${tag}`],
    )
    const [buy, sell] = calls.rows
    for (const call of calls.rows)
      await client.query(`INSERT INTO research_item_services (item_id, service_id) VALUES ($1, $2)`, [
        call.id,
        serviceId,
      ])
    await client.query(
      `INSERT INTO research_items (kind, status, financial_interest, ownership_one_percent, compensation_past_year,
         other_conflict, ai_tools_used, author_id, analyst_name, sebi_registration_number, bse_enlistment_number,
         content_sha256, signature, signing_key_fingerprint, created_at, title, body, published_at,
         original_id, follow_up_kind, price_paise)
       VALUES ('FOLLOW_UP', ${published}, $2, 'Hit.', now() - interval '30 minutes', $3, 'TARGET_HIT', 111000)`,
      [authorId, `Target hit: Buy TCS ${tag}`, buy!.id],
    )
    await client.query(
      `INSERT INTO research_item_services (item_id, service_id) SELECT id, $2 FROM research_items WHERE original_id = $1`,
      [buy!.id, serviceId],
    )
    return { serviceName: service.rows[0]!.name, buy: buy!, sell: sell! }
  })
}

test('the analyst opens a service’s track record, downloads its CSV, and a call’s page defines its ratings', async ({
  admin: { page: admin, userId },
}, testInfo) => {
  test.slow(true, 'three pages with axe audits and a download')
  const tag = `${testInfo.project.name} ${Date.now()}`
  const { serviceName, buy, sell } = await serviceWithCalls(userId, tag)

  await gotoHydrated(admin, '/admin/research')
  await admin.getByRole('link', { name: 'Track record' }).click()
  await expect(admin.getByRole('heading', { name: 'Track record', level: 1 })).toBeVisible()
  await hydrated(admin)
  await admin.getByLabel('Service', { exact: true }).selectOption({ label: serviceName })
  await admin.getByRole('button', { name: 'Show' }).click()
  await expect(admin.getByRole('heading', { name: serviceName })).toBeVisible()
  // One call closed at its target (+11.00% from 1,000 to 1,110), one open.
  const summary = admin.getByRole('region', { name: 'Summary' })
  await expect(summary).toContainText('100.00%')
  await expect(summary).toContainText('+11.00%')
  const calls = admin.getByRole('region', { name: 'Calls', exact: true })
  await expect(calls.getByRole('row').filter({ hasText: buy.title })).toContainText('Target hit')
  await expect(calls.getByRole('row').filter({ hasText: buy.title })).toContainText('+11.00%')
  await expect(calls.getByRole('row').filter({ hasText: sell.title })).toContainText('Rs. 1,000 to Rs. 1,020')
  await expect(calls.getByRole('row').filter({ hasText: sell.title })).toContainText('Open')
  await expectNoSeriousA11yViolations(admin)

  const [download] = await Promise.all([
    admin.waitForEvent('download'),
    admin.getByRole('link', { name: 'Download the track record (CSV)' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^track-record-track-record-[a-z0-9-]+\.csv$/)
  const file = testInfo.outputPath('track-record.csv')
  await download.saveAs(file)
  const csv = await readFile(file, 'utf8')
  expect(csv.startsWith('\uFEFFCall id,')).toBe(true)
  expect(csv).toContain(`${buy.id},`)
  expect(csv).toContain(',Target hit,1,1110.00,')

  await calls.getByRole('link', { name: sell.title }).click()
  await expect(admin.getByRole('heading', { name: 'What our ratings mean' })).toBeVisible()
  await expect(admin.getByRole('term').filter({ hasText: /^Sell$/ })).toBeVisible()
  await expectNoSeriousA11yViolations(admin)
})
