import pg from 'pg'
import { beforeAll, describe, expect, it } from 'vitest'
import { currentAgreement, currentConsentDocuments } from '~/server/account/agreement-document.server'
import { CONSENT_DOCUMENT_KINDS } from '~/domain/consent'
import { businessDetails } from '~/server/business.server'
import { RECONCILE_AFTER_MS } from '~/server/payments/reconciliation.server'
import { publishCurrentTerms, sendTermsNotices } from '~/server/account/terms-versions.server'
import { largeSeedSteps } from '../../scripts/seed-large.sql'

// The large data set as a store that runs its jobs would hold it: the bench's reconciliation figures
// (BENCH_ONLY=at-scale) and the page tails count on no old order being left open for the job to ask about.
const UNTIL = new Date('2026-11-27T00:00:00Z')

beforeAll(async () => {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  try {
    await client.query('BEGIN')
    // As scripts/seed-large.ts gives them: the documents of a store with these settings.
    const documents = currentConsentDocuments(businessDetails)
    const accepted = Object.fromEntries(CONSENT_DOCUMENT_KINDS.map((kind) => [kind, documents[kind]]))
    const terms = currentAgreement(businessDetails)
    const options = { customers: 2_000, payments: 20_000, seed: 3, until: UNTIL }
    for (const step of largeSeedSteps({ ...options, accepted: accepted as typeof documents, terms })) {
      if (step.label !== 'analyze') await client.query(step.sql)
    }
    await client.query('COMMIT')
  } finally {
    await client.end()
  }
})

async function query<Row extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  try {
    return (await client.query<Row>(sql, values)).rows
  } finally {
    await client.end()
  }
}

async function scalar(sql: string, values: unknown[] = []): Promise<number> {
  return Number((await query<{ n: string }>(sql, values))[0]!.n)
}

describe('db:seed:large', () => {
  it('stores payments in the order they were made, as a store inserts them', async () => {
    // The payments export reads them in (created_at, id) order by index (app/server/admin/payments-export.server.ts):
    // with the table in that order too, the scan reads its pages one after the other.
    await query('ANALYZE payments')
    const correlation = await scalar(
      `SELECT correlation AS n FROM pg_stats WHERE schemaname = 'public' AND tablename = 'payments' AND attname = 'created_at'`,
    )
    expect(correlation).toBeGreaterThan(0.99)
  })

  it('leaves no gateway order open past the time the reconciliation job gives it up', async () => {
    const dueBefore = new Date(UNTIL.getTime() - RECONCILE_AFTER_MS)
    expect(
      await scalar(
        `SELECT count(*) AS n FROM payments WHERE method = 'GATEWAY' AND status = 'CREATED' AND created_at <= $1`,
        [dueBefore],
      ),
    ).toBe(0)
  })

  it('gives those orders up as the job does, with its reason', async () => {
    const givenUp = await scalar(
      `SELECT count(*) AS n FROM payments WHERE method = 'GATEWAY' AND status = 'CANCELLED'
       AND failure_reason = 'No payment was attempted for this order.'`,
    )
    // 2 in 20 gateway payments were left open; 7 in 10 of 20,000 payments are by gateway.
    expect(givenUp).toBeGreaterThan(1_000)
  })

  it('has its customers on the terms the store publishes, so a first start announces no new terms to them', async () => {
    expect((await publishCurrentTerms(new Date())).published).toBe(false)
    expect(await sendTermsNotices(new Date())).toBe(0)
    expect(
      await scalar(`SELECT count(*) AS n FROM users WHERE agreement_version = $1`, [
        currentAgreement(businessDetails).version,
      ]),
    ).toBeGreaterThan(1_000)
  })
})
