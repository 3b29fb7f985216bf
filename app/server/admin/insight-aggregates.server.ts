import { monthsUpTo } from '~/domain/insights'
import { prisma } from '../db.server'

// Keeping /admin/insights' tables (decision 045). The triggers in the migration append change rows
// in the transaction that writes a ledger row or a subscription; these two jobs do the rest.

/**
 * Adds the change rows into the month tables and deletes them, in one transaction. A change row of
 * a transaction still open is not seen, so it waits for the next run; two runs at once cannot both
 * take a row (the second's DELETE finds it gone), so every change is added exactly once.
 */
export async function foldInsightChanges(): Promise<{ moneyRows: number; serviceRows: number }> {
  return prisma.$transaction(async (tx) => {
    const moneyRows = await tx.$executeRaw`
      WITH folded AS (DELETE FROM insight_money_changes RETURNING *)
      INSERT INTO insight_money_months AS kept (month, collected_paise, refunded_paise, gst_collected_paise, gst_refunded_paise)
      SELECT month, sum(collected_paise), sum(refunded_paise), sum(gst_collected_paise), sum(gst_refunded_paise)
      FROM folded GROUP BY month
      ON CONFLICT (month) DO UPDATE SET
        collected_paise = kept.collected_paise + excluded.collected_paise,
        refunded_paise = kept.refunded_paise + excluded.refunded_paise,
        gst_collected_paise = kept.gst_collected_paise + excluded.gst_collected_paise,
        gst_refunded_paise = kept.gst_refunded_paise + excluded.gst_refunded_paise`
    const serviceRows = await tx.$executeRaw`
      WITH folded AS (DELETE FROM insight_service_changes RETURNING *)
      INSERT INTO insight_service_months AS kept (service_id, month, started, ended, renewed)
      SELECT service_id, month, sum(started), sum(ended), sum(renewed)
      FROM folded GROUP BY service_id, month
      ON CONFLICT (service_id, month) DO UPDATE SET
        started = kept.started + excluded.started,
        ended = kept.ended + excluded.ended,
        renewed = kept.renewed + excluded.renewed`
    return { moneyRows, serviceRows }
  })
}

/**
 * Recomputes the cohort table for the months /admin/insights shows: each customer's first payment
 * (the ledger), and whether they had a running subscription 1, 3, 6 and 12 months after it. A
 * figure is written only once it is known for every customer of the month (the month's end plus
 * that many months has passed); until then it is null.
 */
export async function computeCohorts(now: Date): Promise<number> {
  const firstMonth = `${monthsUpTo(now)[0]}-01`
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`DELETE FROM insight_cohorts`
    return tx.$executeRaw`
      WITH firsts AS (
        SELECT user_id, min(occurred_at) AS first_paid_at FROM ledger_entries WHERE kind = 'PAYMENT'
        GROUP BY user_id
        HAVING insight_month(min(occurred_at)) >= ${firstMonth}::date
      ), followed AS (
        SELECT insight_month(f.first_paid_at) AS month, after.months, EXISTS (
                 SELECT 1 FROM subscriptions s
                 WHERE s.user_id = f.user_id AND s.starts_at <= f.first_paid_at + after.months * interval '1 month'
                   AND s.ends_at > f.first_paid_at + after.months * interval '1 month') AS subscribed
        FROM firsts f CROSS JOIN (VALUES (1), (3), (6), (12)) AS after (months)
      ), known AS (
        SELECT month, months, count(*) FILTER (WHERE subscribed)::int AS subscribed,
               ((month + (months + 1) * interval '1 month') AT TIME ZONE 'Asia/Kolkata') <= ${now} AS known
        FROM followed GROUP BY month, months
      )
      INSERT INTO insight_cohorts (month, customers, after_1_month, after_3_months, after_6_months, after_12_months, computed_at)
      SELECT f.month, f.customers,
             max(k.subscribed) FILTER (WHERE k.months = 1 AND k.known),
             max(k.subscribed) FILTER (WHERE k.months = 3 AND k.known),
             max(k.subscribed) FILTER (WHERE k.months = 6 AND k.known),
             max(k.subscribed) FILTER (WHERE k.months = 12 AND k.known),
             ${now}
      FROM (SELECT insight_month(first_paid_at) AS month, count(*)::int AS customers FROM firsts GROUP BY 1) f
      JOIN known k ON k.month = f.month
      GROUP BY f.month, f.customers`
  })
}
