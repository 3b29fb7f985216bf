import pg from 'pg'
import { beforeAll, describe, expect, it } from 'vitest'
import { currentAgreement, currentConsentDocuments } from '~/server/account/agreement-document.server'
import { CONSENT_DOCUMENT_KINDS } from '~/domain/consent'
import { businessDetails } from '~/server/business.server'
import { RECONCILE_AFTER_MS } from '~/server/payments/reconciliation.server'
import { publishCurrentTerms, sendTermsNotices } from '~/server/account/terms-versions.server'
import { readCartSnapshot } from '~/domain/cart'
import { gstContainedPaise, gstShareOfRefundPaise } from '~/domain/gst'
import { endingRefundPaise } from '~/domain/refunds'
import { subscriptionEndsAt } from '~/domain/subscriptions'
import { documentNumber, financialYearOf, seriesOf } from '~/domain/tax-documents'
import { largeSeedSteps } from '../../scripts/seed-large.sql'

// The large data set as a store that runs its jobs would hold it: the bench's reconciliation figures
// (BENCH_ONLY=at-scale) and the page tails count on no old order being left open for the job to ask about.
const UNTIL = new Date('2026-11-27T00:00:00Z')
/** A GST-registered store, so the seed's tax invoices and their GST are checked too. */
const GST = { gstin: '27AAAPL1234C1Z5', rateBasisPoints: 1800 }

beforeAll(async () => {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  try {
    await client.query('BEGIN')
    // As scripts/seed-large.ts gives them: the documents of a store with these settings.
    const documents = currentConsentDocuments(businessDetails)
    const accepted = Object.fromEntries(CONSENT_DOCUMENT_KINDS.map((kind) => [kind, documents[kind]]))
    const terms = currentAgreement(businessDetails)
    const options = { customers: 2_000, payments: 20_000, seed: 3, until: UNTIL, gst: GST }
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

// The SQL re-implements the store's money rules: each is checked here against the TypeScript function
// the store itself runs, on every seeded row, so the two cannot drift apart unnoticed.
describe('db:seed:large keeps the rules of app/domain', () => {
  type PeriodRow = {
    service_id: string
    starts_at: Date
    ends_at: Date
    original_ends_at: Date | null
    ended_at: Date | null
    cart: unknown
  }
  const lineOf = (row: { service_id: string; cart: unknown }) =>
    readCartSnapshot(row.cart).find((item) => item.serviceId === row.service_id)!

  it('gives every paid period the length subscriptionEndsAt gives it', async () => {
    const periods = await query<PeriodRow>(
      `SELECT s.service_id, s.starts_at, s.ends_at, s.original_ends_at, s.ended_at, p.cart
       FROM subscriptions s JOIN payments p ON p.id = s.payment_id`,
    )
    expect(periods.length).toBeGreaterThan(10_000)
    for (const period of periods)
      expect(period.original_ends_at ?? period.ends_at).toEqual(
        subscriptionEndsAt(period.starts_at, lineOf(period).durationDays),
      )
  })

  it('refunds an ended period what endingRefundPaise gives at its end', async () => {
    const refunds = await query<PeriodRow & { amount_paise: number; created_at: Date }>(
      `SELECT r.amount_paise, r.created_at, s.service_id, s.starts_at, s.ends_at, s.original_ends_at, s.ended_at, p.cart
       FROM refunds r JOIN subscriptions s ON s.id = r.subscription_id JOIN payments p ON p.id = r.payment_id`,
    )
    expect(refunds.length).toBeGreaterThan(50)
    for (const refund of refunds) {
      const line = lineOf(refund)
      expect(refund.ended_at).toEqual(refund.created_at)
      expect(refund.ends_at).toEqual(refund.created_at)
      expect(refund.amount_paise).toBe(
        endingRefundPaise(
          {
            startsAt: refund.starts_at,
            endsAt: refund.original_ends_at!,
            feePaise: line.pricePaise,
            daysBought: line.durationDays,
          },
          refund.created_at,
        ),
      )
    }
  })

  it('numbers its documents as documentNumber does, in time order and without a gap, and counts them', async () => {
    const entries = await query<{ document_number: string; occurred_at: Date; kind: string }>(
      `SELECT document_number, occurred_at, kind FROM ledger_entries ORDER BY occurred_at, document_number`,
    )
    const counted = new Map<string, number>()
    for (const entry of entries) {
      const series = seriesOf(entry.document_number)!
      expect(series).toBe(entry.kind === 'PAYMENT' ? 'INV' : 'CN')
      const year = financialYearOf(entry.occurred_at)
      const sequence = (counted.get(`${series} ${year.label}`) ?? 0) + 1
      counted.set(`${series} ${year.label}`, sequence)
      expect(entry.document_number).toBe(documentNumber(series, year, sequence))
    }
    const sequences = await query<{ series: string; financial_year: string; last_number: number }>(
      `SELECT series, financial_year, last_number FROM document_sequences WHERE series IN ('INV', 'CN')`,
    )
    expect(new Map(sequences.map((row) => [`${row.series} ${row.financial_year}`, row.last_number]))).toEqual(counted)
  })

  it('splits out the GST as gstContainedPaise and gstShareOfRefundPaise do, with one credit note per refund', async () => {
    const entries = await query<{
      kind: string
      amount_paise: number
      gst_paise: number
      gst_rate_basis_points: number
      seller_gstin: string
      payment_amount: number
      payment_gst: number
    }>(
      `SELECT e.kind, e.amount_paise, e.gst_paise, e.gst_rate_basis_points, e.seller_gstin,
              paid.amount_paise AS payment_amount, paid.gst_paise AS payment_gst
       FROM ledger_entries e JOIN ledger_entries paid ON paid.payment_id = e.payment_id AND paid.kind = 'PAYMENT'`,
    )
    for (const entry of entries) {
      expect(entry).toMatchObject({ gst_rate_basis_points: GST.rateBasisPoints, seller_gstin: GST.gstin })
      const expected =
        entry.kind === 'PAYMENT'
          ? gstContainedPaise(entry.amount_paise, GST.rateBasisPoints)
          : -gstShareOfRefundPaise(-entry.amount_paise, {
              amountPaise: entry.payment_amount,
              gstPaise: entry.payment_gst,
              gstAlreadyRefundedPaise: 0,
            })
      expect(entry.gst_paise).toBe(expected)
    }
    expect(
      await scalar(
        `SELECT count(*) AS n FROM refunds r
         WHERE (SELECT count(*) FROM ledger_entries e WHERE e.refund_id = r.id AND e.occurred_at = r.created_at) <> 1`,
      ),
    ).toBe(0)
  })

  it('publishes a report a month for each 30-day service, to the customers subscribed then, each e-mail sent', async () => {
    const items = await scalar(`SELECT count(*) AS n FROM research_items WHERE status = 'PUBLISHED'`)
    expect(items).toBeGreaterThan(100)
    // The roll is exactly who held a running subscription to the item's service at its publication.
    expect(
      await scalar(
        `SELECT count(*) AS n FROM (
           SELECT DISTINCT i.item_id, s.user_id FROM research_item_services i
           JOIN research_items r ON r.id = i.item_id
           JOIN subscriptions s ON s.service_id = i.service_id AND s.starts_at <= r.published_at AND s.ends_at > r.published_at
         ) entitled FULL JOIN research_roll roll USING (item_id, user_id)
         WHERE entitled.item_id IS NULL OR roll.item_id IS NULL`,
      ),
    ).toBe(0)
    expect(await scalar('SELECT count(*) AS n FROM research_roll')).toBeGreaterThan(1_000)
    expect(
      await scalar(
        `SELECT count(*) AS n FROM research_roll r JOIN users u ON u.id = r.user_id
         LEFT JOIN research_deliveries d ON d.item_id = r.item_id AND d.user_id = r.user_id AND d.status = 'SENT'
         WHERE u.email IS NOT NULL AND d.id IS NULL`,
      ),
    ).toBe(0)
  })
})
