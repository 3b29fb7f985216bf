// `npm run db:seed:large -- --customers N --payments M [--seed S] [--until YYYY-MM-DD] [--force]`:
// a large, deterministic data set in the database DATABASE_URL names, written with PostgreSQL's bulk
// path (INSERT ... SELECT over generate_series, values from md5), in one transaction. See docs/testing.md.
import { parseArgs } from 'node:util'
import pg from 'pg'
import { CONSENT_DOCUMENT_KINDS, type ConsentDocumentKind } from '../app/domain/consent'
import { encryptPlaintextPans } from '../app/server/kyc/pan-at-rest.server'
import { panKeysFromEnv } from '../app/server/kyc/pan-keys.server'
import { migrate } from './db/migrate'
import { loadEnvironment } from './environment'
import {
  type AcceptedDocument,
  LARGE_SEED_MAX_CUSTOMERS,
  LARGE_SEED_PHONE_PREFIX,
  largeSeedSteps,
} from './seed-large.sql'

function fail(message: string): never {
  console.error(`db:seed:large: ${message}`)
  process.exit(1)
}

const { values } = parseArgs({
  options: {
    customers: { type: 'string', default: '100000' },
    payments: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '1' },
    until: { type: 'string' },
    force: { type: 'boolean', default: false },
  },
})

const count = (name: string, text: string, max: number) => {
  const value = Number(text)
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value > max)
    fail(`--${name} must be a whole number from 0 to ${max.toLocaleString('en-IN')}, got "${text}".`)
  return value
}
const customers = count('customers', values.customers, LARGE_SEED_MAX_CUSTOMERS)
const payments = count('payments', values.payments, 100_000_000)
const seed = count('seed', values.seed, 1_000_000)
const today = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00Z')
const until = values.until ? new Date(`${values.until}T00:00:00Z`) : today
if (Number.isNaN(until.getTime()) || !/^\d{4}-\d{2}-\d{2}$/.test(values.until ?? '2000-01-01'))
  fail(`--until must be a date like 2026-11-27, got "${values.until}".`)

const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl)
  fail(
    'DATABASE_URL is not set. Name the database to fill, e.g. DATABASE_URL=postgresql://postgres@127.0.0.1:5432/store_large ' +
      '(it writes up to millions of rows: never point it at a store in use).',
  )

const started = performance.now()
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`

await migrate(databaseUrl)
const environment = await loadEnvironment({ businessDetails: true })
// The documents a store started with the same settings shows: the complete customers accepted these.
const [{ currentAgreement, currentConsentDocuments }, { businessDetails }] = await Promise.all([
  import('../app/server/account/agreement-document.server'),
  import('../app/server/business.server'),
])
const consentDocuments = currentConsentDocuments(businessDetails)
const accepted = Object.fromEntries(
  CONSENT_DOCUMENT_KINDS.map((kind) => [
    kind,
    { version: consentDocuments[kind].version, textSha256: consentDocuments[kind].textSha256 },
  ]),
) as Record<ConsentDocumentKind, AcceptedDocument>
const { version, textSha256, text } = currentAgreement(businessDetails)
const terms = { version, textSha256, text }
/**
 * The research the SQL published, signed as publishing signs (signResearch over the app's canonical
 * form) with the key a store started with these settings uses, so its audit packs verify.
 */
async function signSeededResearch(): Promise<number> {
  const [{ prisma }, { researchItemSelect, researchRecordOf }, { signResearch }] = await Promise.all([
    import('../app/server/db.server'),
    import('../app/server/research/items.server'),
    import('../app/server/research/signing.server'),
  ])
  let count = 0
  for (;;) {
    const items = await prisma.researchItem.findMany({
      where: { status: 'PUBLISHED', signature: '' },
      select: researchItemSelect,
      take: 200,
    })
    if (!items.length) break
    for (const item of items)
      await prisma.researchItem.update({ where: { id: item.id }, data: signResearch(researchRecordOf(item)!) })
    count += items.length
  }
  await prisma.$disconnect()
  return count
}

const client = new pg.Client({ connectionString: databaseUrl })
await client.connect()
try {
  const { rows } = await client.query<{ others: number; ours: number }>(
    `SELECT count(*) FILTER (WHERE phone NOT LIKE $1)::int AS others, count(*) FILTER (WHERE phone LIKE $1)::int AS ours
     FROM users WHERE role = 'CUSTOMER'`,
    [`${LARGE_SEED_PHONE_PREFIX}%`],
  )
  const { others, ours } = rows[0]!
  if (ours > 0)
    fail(
      `this database already holds ${ours} large-seed customers (phones ${LARGE_SEED_PHONE_PREFIX}...): seed a fresh database.`,
    )
  if (others > 0 && !values.force)
    fail(
      `this database has ${others} customers that are not seed data: refusing to add a large set to it. ` +
        'Use a fresh database, or --force if you really mean this one.',
    )

  console.log(
    `Seeding ${customers.toLocaleString('en-IN')} customers and ${payments.toLocaleString('en-IN')} payments ` +
      `(seed ${seed}, 5 years to ${until.toISOString().slice(0, 10)}) into ${new URL(databaseUrl).pathname.slice(1)}`,
  )
  await client.query('BEGIN')
  for (const step of largeSeedSteps({ customers, payments, seed, until, accepted, terms, gst: businessDetails.gst })) {
    if (step.label === 'analyze') continue
    const at = performance.now()
    await client.query(step.sql)
    console.log(`  ${step.label.padEnd(28)} ${seconds(at)}`)
  }
  await client.query('COMMIT')
  // The SQL wrote plaintext PANs; encrypted with the key a store started from this folder uses.
  const encrypting = performance.now()
  await encryptPlaintextPans(client, panKeysFromEnv(environment))
  console.log(`  ${'encrypt PANs'.padEnd(28)} ${seconds(encrypting)}`)
  const signing = performance.now()
  const signed = await signSeededResearch()
  console.log(`  ${'sign research'.padEnd(28)} ${seconds(signing)} (${signed} items)`)
  // VACUUM as well as ANALYZE: the PAN encryption left a dead version of every customer, and a
  // million fresh inserts pass autovacuum's insert threshold, so autovacuum would otherwise start on
  // the big tables minutes later, in the middle of whatever is measured next (the bench's p95 tails).
  const at = performance.now()
  await client.query('VACUUM (ANALYZE)')
  console.log(`  ${'vacuum and analyze'.padEnd(28)} ${seconds(at)}`)
  const { rows: counts } = await client.query<{ table: string; rows: number }>(
    `SELECT 'users' AS table, count(*)::int AS rows FROM users UNION ALL SELECT 'payments', count(*)::int FROM payments
     UNION ALL SELECT 'subscriptions', count(*)::int FROM subscriptions UNION ALL SELECT 'ledger_entries', count(*)::int FROM ledger_entries
     UNION ALL SELECT 'refunds', count(*)::int FROM refunds UNION ALL SELECT 'audit_logs', count(*)::int FROM audit_logs
     UNION ALL SELECT 'acceptances', count(*)::int FROM acceptances UNION ALL SELECT 'sessions', count(*)::int FROM sessions
     UNION ALL SELECT 'otp_challenges', count(*)::int FROM otp_challenges`,
  )
  console.log(`Done in ${seconds(started)}. Rows now: ${counts.map((c) => `${c.table} ${c.rows}`).join(', ')}`)
} catch (error) {
  await client.query('ROLLBACK').catch(() => {})
  fail(`failed, nothing was written: ${error instanceof Error ? error.message : String(error)}`)
} finally {
  await client.end()
}
