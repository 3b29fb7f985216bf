import type { MonthKey } from '~/domain/complaint-board'
import {
  FUNNEL_WINDOWS_DAYS,
  monthsUpTo,
  type CohortRow,
  type FunnelWindow,
  type InsightFigures,
  type MoneyMonth,
  type ServiceMonthCounts,
  type ServiceName,
} from '~/domain/insights'
import { MS_PER_DAY } from '~/domain/dates'
import { prisma } from '../db.server'

// The figures of /admin/insights. Money and subscriptions come from the month tables the triggers
// keep (decision 045), each added to its change rows not folded yet; cohorts from the cohort job's
// table; the funnel from the customers who signed in for the first time in the window (an index
// range of users, and one ledger look-up each).

/** Each month's money, the months without any at 0. */
async function moneyByMonth(months: readonly MonthKey[]): Promise<MoneyMonth[]> {
  const rows = await prisma.$queryRaw<
    { month: string; collected: bigint; refunded: bigint; gst_collected: bigint; gst_refunded: bigint }[]
  >`
    SELECT to_char(month, 'YYYY-MM') AS month, sum(collected_paise) AS collected, sum(refunded_paise) AS refunded,
           sum(gst_collected_paise) AS gst_collected, sum(gst_refunded_paise) AS gst_refunded
    FROM (
      SELECT month, collected_paise, refunded_paise, gst_collected_paise, gst_refunded_paise FROM insight_money_months
      WHERE month >= ${`${months[0]}-01`}::date
      UNION ALL
      SELECT month, collected_paise, refunded_paise, gst_collected_paise, gst_refunded_paise FROM insight_money_changes
      WHERE month >= ${`${months[0]}-01`}::date
    ) kept
    GROUP BY month`
  return months.map((month) => {
    const row = rows.find((candidate) => candidate.month === month)
    return {
      month,
      collectedPaise: Number(row?.collected ?? 0),
      refundedPaise: Number(row?.refunded ?? 0),
      gstCollectedPaise: Number(row?.gst_collected ?? 0),
      gstRefundedPaise: Number(row?.gst_refunded ?? 0),
    }
  })
}

/** Every service's counts of every month up to `lastMonth` (the active count adds up from the first). */
async function serviceMonthCounts(lastMonth: MonthKey): Promise<ServiceMonthCounts[]> {
  const rows = await prisma.$queryRaw<
    { service_id: string; month: string; started: bigint; ended: bigint; renewed: bigint }[]
  >`
    SELECT service_id::text, to_char(month, 'YYYY-MM') AS month, sum(started) AS started, sum(ended) AS ended,
           sum(renewed) AS renewed
    FROM (
      SELECT service_id, month, started, ended, renewed FROM insight_service_months
      UNION ALL
      SELECT service_id, month, started, ended, renewed FROM insight_service_changes
    ) kept
    WHERE month <= ${`${lastMonth}-01`}::date
    GROUP BY service_id, month`
  return rows.map((row) => ({
    serviceId: row.service_id,
    month: row.month,
    started: Number(row.started),
    ended: Number(row.ended),
    renewed: Number(row.renewed),
  }))
}

/** The services to chart: those on sale and those with any period, in the store's order. */
async function chartedServices(counts: readonly ServiceMonthCounts[]): Promise<ServiceName[]> {
  const counted = [...new Set(counts.map((row) => row.serviceId))]
  return prisma.service.findMany({
    where: { OR: [{ active: true }, { id: { in: counted } }] },
    orderBy: [{ sortOrder: 'asc' }, { name: 'asc' }],
    select: { id: true, name: true },
  })
}

async function cohortRows(firstMonth: MonthKey): Promise<{ rows: CohortRow[]; computedAt: Date | null }> {
  const rows = await prisma.insightCohort.findMany({
    where: { month: { gte: new Date(`${firstMonth}-01T00:00:00Z`) } },
    orderBy: { month: 'asc' },
  })
  return {
    rows: rows.map((row) => ({
      month: row.month.toISOString().slice(0, 7),
      customers: row.customers,
      stillSubscribed: [row.after1Month, row.after3Months, row.after6Months, row.after12Months],
    })),
    computedAt: rows.reduce<Date | null>(
      (latest, row) => (latest && latest > row.computedAt ? latest : row.computedAt),
      null,
    ),
  }
}

/**
 * Customers whose account was made (their first sign-in) in the window, and how far each got: a
 * complete profile (the agreement accepted), a KRA answer that allows paying, a payment.
 */
async function funnelWindows(now: Date): Promise<FunnelWindow[]> {
  return Promise.all(
    FUNNEL_WINDOWS_DAYS.map(async (days) => {
      const [row] = await prisma.$queryRaw<
        { signed_in: number; profile_complete: number; kyc_allows: number; paid: number }[]
      >`
        SELECT count(*)::int AS signed_in,
               count(*) FILTER (WHERE u.agreement_accepted_at IS NOT NULL)::int AS profile_complete,
               count(*) FILTER (WHERE u.agreement_accepted_at IS NOT NULL
                                  AND u.kyc_status IN ('VALIDATED', 'REGISTERED'))::int AS kyc_allows,
               count(*) FILTER (WHERE EXISTS (
                 SELECT 1 FROM ledger_entries e WHERE e.user_id = u.id AND e.kind = 'PAYMENT'))::int AS paid
        FROM users u
        WHERE u.created_at > ${new Date(now.getTime() - days * MS_PER_DAY)} AND u.created_at <= ${now}
          AND u.role = 'CUSTOMER'`
      return {
        days,
        signedIn: row?.signed_in ?? 0,
        profileComplete: row?.profile_complete ?? 0,
        kycAllowsPayment: row?.kyc_allows ?? 0,
        paid: row?.paid ?? 0,
        failedAutomaticCharges: 0,
      }
    }),
  )
}

export async function insightFigures(now: Date): Promise<InsightFigures> {
  const months = monthsUpTo(now)
  const [money, serviceMonths, cohorts, funnel] = await Promise.all([
    moneyByMonth(months),
    serviceMonthCounts(months.at(-1)!),
    cohortRows(months[0]!),
    funnelWindows(now),
  ])
  return { months, money, services: await chartedServices(serviceMonths), serviceMonths, cohorts, funnel }
}
