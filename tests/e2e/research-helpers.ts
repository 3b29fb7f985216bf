import { MS_PER_DAY } from '../../app/domain/dates'
import { withE2eDatabase } from './database'

// Research for the reader's specs (pages and API), written straight into the e2e server's database.

/**
 * Two retired services of this test alone (so other specs' research stays out of its list), the
 * customer subscribed to both, and `count` published items alternating between them, a minute apart.
 * Straight into the database: the list reads published rows, whoever signed them.
 */
export async function readerWithResearch(userId: string, tag: string, count: number) {
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
      [userId, tag, count],
    )
    for (const item of items.rows)
      await client.query(`INSERT INTO research_item_services (item_id, service_id) VALUES ($1, $2)`, [
        item.id,
        services.rows[item.n % 2]!.id,
      ])
    const newestFirst = items.rows.sort((a, b) => a.n - b.n)
    return {
      services: services.rows,
      titles: newestFirst.map((item) => item.title),
      ids: newestFirst.map((item) => item.id),
    }
  })
}
