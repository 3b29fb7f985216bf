// BENCH_ONLY=at-scale-research: research at scale on the database DATABASE_URL names (docs/research.md).
// The bench adds, once per database, a service with 100,000 entitled subscribers (phones +9157...)
// and a reader among them with 3,000 published items on their roll over 5 years; then it times
// publishing one item to all of them through the admin's page, the reader's /research, and the
// date-range audit pack of everything, with the store's memory sampled meanwhile. The published item is
// removed at the end, so every run starts from the same rows and times the same work.
import pg from 'pg'
import { BUDGETS, check, info, mb, ms } from './budgets'
import { BROWSER_USER_AGENT } from './browser'
import { signInThroughPages } from './verify-code'
import { awaitNoSettleRun, rssBytes, sessionCookieFor, TIMED_REQUESTS, timeRequests } from './at-scale'
import type { FakeSmtp } from './fake-smtp'

export const RESEARCH_BENCH_SUBSCRIBERS = 100_000
export const RESEARCH_BENCH_READER_ITEMS = 3_000
const SUBSCRIBER_PHONE_PREFIX = '+9157'
const READER_PHONE = `${SUBSCRIBER_PHONE_PREFIX}00000000`
const SERVICE_NAME = 'Bench: Research at scale'
const FIVE_YEARS_MS = 5 * 365 * 86_400_000
const RSS_SAMPLE_MS = 50
/** The research-deliveries job runs each minute: the first e-mail of a publication comes within this. */
const FIRST_EMAIL_WAIT_MS = 90_000
/** E-mails are counted over this long from the first (a run of the job lasts up to 50 s). */
const EMAIL_WINDOW_MS = 20_000
const POLL_MS = 200

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The item's e-mails sent a second by the store's research-deliveries job (one instance), counted in the
 * delivery log over EMAIL_WINDOW_MS from the first; null when none was sent within FIRST_EMAIL_WAIT_MS.
 */
async function emailsSentPerSecond(client: pg.Client, itemId: string): Promise<number | null> {
  const sent = async () =>
    (
      await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM research_deliveries WHERE item_id = $1 AND channel = 'EMAIL' AND status = 'SENT'`,
        [itemId],
      )
    ).rows[0]!.n
  const deadline = Date.now() + FIRST_EMAIL_WAIT_MS
  let first = await sent()
  while (first === 0) {
    if (Date.now() > deadline) return null
    await delay(POLL_MS)
    first = await sent()
  }
  const started = performance.now()
  await delay(EMAIL_WINDOW_MS)
  return ((await sent()) - first) / ((performance.now() - started) / 1000)
}

/** The service, its subscribers and the reader's items, unless an earlier run added them. */
async function prepare(client: pg.Client, now: Date): Promise<{ serviceId: string; authorId: string }> {
  await client.query(
    `INSERT INTO services (name, description, price_paise, duration_days, sort_order, risk_level, delivery)
     VALUES ($1, ARRAY['Bench research service'], 100000, 30, 999, 'HIGH', 'Research on the website and by e-mail')
     ON CONFLICT (name) DO NOTHING`,
    [SERVICE_NAME],
  )
  const serviceId = (await client.query<{ id: string }>('SELECT id FROM services WHERE name = $1', [SERVICE_NAME]))
    .rows[0]!.id
  const existing = await client.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM users WHERE phone LIKE $1',
    [`${SUBSCRIBER_PHONE_PREFIX}%`],
  )
  if (existing.rows[0]!.count === 0) {
    const started = performance.now()
    await client.query('BEGIN')
    await client.query(
      `INSERT INTO users (phone, name, email, kyc_status, created_at, updated_at)
       SELECT $1 || lpad(n::text, 8, '0'), 'Bench reader ' || n, 'reader' || n || '@bench.example', 'VALIDATED', $2, $2
       FROM generate_series(0, $3 - 1) n`,
      [SUBSCRIBER_PHONE_PREFIX, new Date(now.getTime() - FIVE_YEARS_MS), RESEARCH_BENCH_SUBSCRIBERS],
    )
    await client.query(
      `INSERT INTO subscriptions (user_id, service_id, starts_at, ends_at, grant_reason, granted_by)
       SELECT id, $1, $2, $3, 'bench: research at scale', id FROM users WHERE phone LIKE $4`,
      [
        serviceId,
        new Date(now.getTime() - FIVE_YEARS_MS),
        new Date(now.getTime() + 365 * 86_400_000),
        `${SUBSCRIBER_PHONE_PREFIX}%`,
      ],
    )
    // The reader's archive: published items over 5 years, each on the reader's roll with its e-mail sent.
    await client.query(
      `CREATE TEMP TABLE bench_items ON COMMIT DROP AS
       SELECT gen_random_uuid() AS id, n, $1::timestamptz - (n * ($2::bigint / $3)) * interval '1 millisecond' AS at
       FROM generate_series(1, $3) n`,
      [now, FIVE_YEARS_MS, RESEARCH_BENCH_READER_ITEMS],
    )
    const reader = (await client.query<{ id: string }>('SELECT id FROM users WHERE phone = $1', [READER_PHONE]))
      .rows[0]!
    // One statement each, values from this function: the ids are uuids the database made.
    for (const sql of [
      `INSERT INTO research_items (id, status, title, body, financial_interest, ownership_one_percent,
         compensation_past_year, other_conflict, ai_tools_used, author_id, created_at, published_at, analyst_name,
         sebi_registration_number, bse_enlistment_number, content_sha256, signature, signing_key_fingerprint, roll_size)
       SELECT id, 'PUBLISHED', 'Bench item ' || n, repeat('A paragraph of research. ', 40), false, false, false,
         'None', false, '${reader.id}', at, at, 'Bench', 'INH000000000', '0000', md5(id::text), 'bench: not signed', 'bench', 1
       FROM bench_items`,
      `INSERT INTO research_item_services (item_id, service_id) SELECT id, '${serviceId}' FROM bench_items`,
      `INSERT INTO research_roll (item_id, user_id, delivered_at) SELECT id, '${reader.id}', at FROM bench_items`,
      `INSERT INTO research_deliveries (item_id, user_id, channel, status, attempts, queued_at, next_attempt_at, sent_at,
         provider_message_id)
       SELECT id, '${reader.id}', 'EMAIL', 'SENT', 1, at, at, at, '<' || id || '@bench.example>' FROM bench_items`,
    ])
      await client.query(sql)
    await client.query('COMMIT')
    await client.query('VACUUM (ANALYZE) users, subscriptions, research_items, research_roll, research_deliveries')
    info(
      'research data set added',
      `${((performance.now() - started) / 1000).toFixed(1)} s`,
      `${RESEARCH_BENCH_SUBSCRIBERS.toLocaleString('en-IN')} subscribers, ${RESEARCH_BENCH_READER_ITEMS.toLocaleString('en-IN')} items for one reader`,
    )
  }
  // Entitled means the current terms accepted too (servable.server.ts): the newest version, which the store
  // may have recorded since an earlier run, is accepted by every subscriber still on an older one.
  const accepted = await client.query(
    `UPDATE users SET agreement_accepted_at = $1, agreement_version = newest.version
     FROM (SELECT version FROM terms_versions ORDER BY published_at DESC LIMIT 1) newest
     WHERE phone LIKE $2 AND agreement_version IS DISTINCT FROM newest.version`,
    [now, `${SUBSCRIBER_PHONE_PREFIX}%`],
  )
  // Statistics that still count them as not accepted would plan the roll for a handful of customers.
  if (accepted.rowCount) await client.query('VACUUM (ANALYZE) users')
  const author = await client.query<{ id: string }>('SELECT id FROM users WHERE phone = $1', [READER_PHONE])
  return { serviceId, authorId: author.rows[0]!.id }
}

/** `smtp`: the mail server the store was started with (SMTP_URL), so its e-mail deliveries can be timed. */
export async function measureResearchAtScale(
  server: { origin: string; pid: number },
  adminMobile: string,
  smtp: FakeSmtp,
) {
  const { origin, pid } = server
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  let itemId: string | null = null
  try {
    const now = new Date()
    const { serviceId, authorId } = await prepare(client, now)
    const admin = await signInThroughPages(origin, adminMobile)
    await awaitNoSettleRun()

    // Publishing one item to every entitled subscriber, as the admin presses Publish now.
    const draft = await client.query<{ id: string }>(
      `INSERT INTO research_items (title, body, financial_interest, ownership_one_percent, compensation_past_year,
         other_conflict, ai_tools_used, author_id)
       VALUES ($1, 'Bench body.', false, false, false, 'None', false, $2) RETURNING id`,
      [`Bench publish ${now.toISOString()}`, authorId],
    )
    itemId = draft.rows[0]!.id
    await client.query('INSERT INTO research_item_services (item_id, service_id) VALUES ($1, $2)', [itemId, serviceId])
    const publishStarted = performance.now()
    const published = await fetch(`${origin}/admin/research/${itemId}`, {
      method: 'POST',
      headers: {
        Cookie: admin.cookie,
        'User-Agent': BROWSER_USER_AGENT,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'intent=publish',
      redirect: 'manual',
    })
    await published.arrayBuffer()
    const publishMs = performance.now() - publishStarted
    // A publication that failed (its transaction ran past PUBLISH_TRANSACTION_TIMEOUT_MS) is a figure over budget.
    const publishedOk = published.status === 302 || published.status === 303
    const counts = await client.query<{ roll: number; deliveries: number }>(
      `SELECT (SELECT count(*)::int FROM research_roll WHERE item_id = $1) AS roll,
              (SELECT count(*)::int FROM research_deliveries WHERE item_id = $1) AS deliveries`,
      [itemId],
    )
    check(
      'publish to the roll (admin answer)',
      ms(publishMs),
      `< ${ms(BUDGETS.atScaleResearchPublishMs)}`,
      publishedOk && publishMs < BUDGETS.atScaleResearchPublishMs && counts.rows[0]!.roll >= RESEARCH_BENCH_SUBSCRIBERS,
      `${publishedOk ? '' : `FAILED with ${published.status}: `}roll ${counts.rows[0]!.roll.toLocaleString('en-IN')}, delivery rows ${counts.rows[0]!.deliveries.toLocaleString('en-IN')} in the transaction`,
    )

    // E-mail deliveries as the store's research-deliveries job sends them, to the bench's mail server.
    const emailsPerSecond = await emailsSentPerSecond(client, itemId)
    check(
      'research e-mails sent a second (one instance)',
      emailsPerSecond === null ? 'none' : Math.round(emailsPerSecond).toLocaleString('en-IN'),
      `>= ${BUDGETS.atScaleResearchEmailsPerSecond}`,
      emailsPerSecond !== null && emailsPerSecond >= BUDGETS.atScaleResearchEmailsPerSecond,
      `counted in the delivery log over ${EMAIL_WINDOW_MS / 1000} s from the first, ${smtp.received().toLocaleString('en-IN')} received by the mail server so far`,
    )
    // The rest marked sent, as the reader's archive is: the job would otherwise go on sending 100,000 e-mails,
    // and updating their rows, in the middle of the figures that follow.
    await client.query(
      `UPDATE research_deliveries SET status = 'SENT', attempts = 1, sent_at = queued_at
       WHERE item_id = $1 AND status = 'QUEUED'`,
      [itemId],
    )

    // The admin's page of the item: counts by channel and state, the roll's first page, the failed ones.
    const itemPage = await timeRequests(`${origin}/admin/research/${itemId}`, admin.cookie)
    check(
      `admin item page, roll of ${RESEARCH_BENCH_SUBSCRIBERS.toLocaleString('en-IN')} p95`,
      ms(itemPage.p95),
      `< ${BUDGETS.atScaleRequestP95Ms} ms`,
      itemPage.p95 < BUDGETS.atScaleRequestP95Ms,
      `p50 ${itemPage.p50.toFixed(1)} ms, ${TIMED_REQUESTS} requests`,
    )

    // The reader's /research with 3,000 items on their roll.
    const reader = await sessionCookieFor(READER_PHONE)
    const research = await timeRequests(`${origin}/research`, reader)
    check(
      `/research, ${RESEARCH_BENCH_READER_ITEMS.toLocaleString('en-IN')} items p95`,
      ms(research.p95),
      `< ${BUDGETS.atScaleRequestP95Ms} ms`,
      research.p95 < BUDGETS.atScaleRequestP95Ms,
      `p50 ${research.p50.toFixed(1)} ms, ${TIMED_REQUESTS} requests`,
    )

    // The date-range audit pack of everything, downloaded as fast as it comes.
    const deliveryRows = (
      await client.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM research_deliveries d JOIN research_items i ON i.id = d.item_id
         WHERE i.signature IS NOT NULL`,
      )
    ).rows[0]!.count
    const idle = rssBytes(pid)
    let peak = idle
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), RSS_SAMPLE_MS)
    const started = performance.now()
    let bytes = 0
    try {
      const to = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10)
      const response = await fetch(`${origin}/admin/research/audit-pack?from=2000-01-01&to=${to}`, {
        headers: { Cookie: admin.cookie, 'User-Agent': BROWSER_USER_AGENT },
      })
      if (response.status !== 200 || !response.body) throw new Error(`the audit pack answered ${response.status}`)
      const reader = response.body.getReader()
      for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.length
    } finally {
      clearInterval(sampler)
    }
    const seconds = (performance.now() - started) / 1000
    const rowsPerSecond = deliveryRows / seconds
    info(
      'date-range audit pack',
      `${deliveryRows.toLocaleString('en-IN')} rows`,
      `delivery rows (and as many roll rows), each as JSON and CSV: ${mb(bytes)} zipped in ${seconds.toFixed(1)} s`,
    )
    check(
      'audit pack delivery rows per second',
      Math.round(rowsPerSecond).toLocaleString('en-IN'),
      `>= ${BUDGETS.atScaleAuditPackRowsPerSecond.toLocaleString('en-IN')}`,
      rowsPerSecond >= BUDGETS.atScaleAuditPackRowsPerSecond,
    )
    check(
      'audit pack store RSS peak above idle',
      mb(peak - idle),
      `< ${mb(BUDGETS.atScaleAuditPackRssGrowthBytes)}`,
      peak - idle < BUDGETS.atScaleAuditPackRssGrowthBytes,
      `idle ${mb(idle)}`,
    )
  } finally {
    if (itemId) await removeBenchItem(client, itemId)
    await client.end()
  }
}

/** The run's item, its roll and its deliveries gone again, their space vacuumed for the next run. */
async function removeBenchItem(client: pg.Client, itemId: string) {
  await client.query('BEGIN')
  for (const table of ['research_deliveries', 'research_roll', 'research_item_services', 'research_reads'])
    await client.query(`DELETE FROM ${table} WHERE item_id = $1`, [itemId])
  await client.query('DELETE FROM research_items WHERE id = $1', [itemId])
  await client.query('COMMIT')
  await client.query('VACUUM (ANALYZE) research_items, research_roll, research_deliveries')
}
