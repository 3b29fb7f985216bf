import { monthLabel, previousMonth, type MonthKey } from './complaint-board'
import type { CsvCell } from './csv'
import { indiaIsoDate } from './dates'
import { formatRupees, PAISE_PER_RUPEE } from './money'

// What the analyst sees at /admin/insights (docs/admin.md, "Insights"): the figures as the server
// reads them, and the one table per chart that the page shows and its CSV file holds.

export const INSIGHT_MONTHS = 24
/** A period counts as renewed when the customer bought the service again within this many days of its end. */
export const RENEWAL_WINDOW_DAYS = 30
export const COHORT_MONTHS_AFTER = [1, 3, 6, 12] as const
export const FUNNEL_WINDOWS_DAYS = [30, 90] as const

export const INSIGHT_CHARTS = ['money', 'subscribers', 'renewals', 'cohorts', 'funnel'] as const
export type InsightChart = (typeof INSIGHT_CHARTS)[number]
export const isInsightChart = (text: string | null): text is InsightChart =>
  (INSIGHT_CHARTS as readonly (string | null)[]).includes(text)

export const INSIGHT_TITLES: Record<InsightChart, string> = {
  money: 'Money per month',
  subscribers: 'Active subscribers per service',
  renewals: 'Renewal rate per service',
  cohorts: 'Customers still subscribed, by month of first purchase',
  funnel: 'From first sign-in to payment',
}

/** The last `count` months in India time, oldest first, ending with the current one. */
export function monthsUpTo(now: Date, count = INSIGHT_MONTHS): MonthKey[] {
  const months = [indiaIsoDate(now).slice(0, 7)]
  while (months.length < count) months.unshift(previousMonth(months[0]!))
  return months
}

/** "2026-11" -> "Nov 2026", short enough for a chart's axis. */
export function shortMonthLabel(month: MonthKey): string {
  const [name, year] = monthLabel(month).split(' ')
  return `${name!.slice(0, 3)} ${year}`
}

export type MoneyMonth = {
  month: MonthKey
  collectedPaise: number
  refundedPaise: number
  gstCollectedPaise: number
  gstRefundedPaise: number
}

export const netPaise = (month: MoneyMonth) => month.collectedPaise - month.refundedPaise
/** The GST in the month's net: invoiced less what credit notes gave back. */
export const netGstPaise = (month: MoneyMonth) => month.gstCollectedPaise - month.gstRefundedPaise

/** Started, ended and renewed periods of one service in one month (insight_service_months). */
export type ServiceMonthCounts = { serviceId: string; month: MonthKey; started: number; ended: number; renewed: number }
export type ServiceName = { id: string; name: string }

/**
 * Subscribers of a service at the end of each month: the periods started up to then less those
 * ended. A customer's periods of one service follow each other (a renewal starts at the current
 * end), so each running period is one subscriber.
 */
export function activeAtMonthEnds(
  counts: readonly ServiceMonthCounts[],
  serviceId: string,
  months: readonly MonthKey[],
) {
  const own = counts.filter((row) => row.serviceId === serviceId)
  return months.map((month) =>
    own.filter((row) => row.month <= month).reduce((sum, row) => sum + row.started - row.ended, 0),
  )
}

export type RenewalMonth = { month: MonthKey; ended: number; renewed: number }

export function renewalsByMonth(
  counts: readonly ServiceMonthCounts[],
  serviceId: string,
  months: readonly MonthKey[],
): RenewalMonth[] {
  return months.map((month) => {
    const row = counts.find((candidate) => candidate.serviceId === serviceId && candidate.month === month)
    return { month, ended: row?.ended ?? 0, renewed: row?.renewed ?? 0 }
  })
}

/** Renewed periods as a percentage of those that ended, null when none ended. */
export const renewalRatePercent = ({ ended, renewed }: RenewalMonth): number | null =>
  ended === 0 ? null : (100 * renewed) / ended

export type CohortRow = {
  month: MonthKey
  customers: number
  /** Per COHORT_MONTHS_AFTER: customers with a running subscription that long after their first payment; null: not known yet. */
  stillSubscribed: (number | null)[]
}

export type FunnelWindow = {
  days: number
  signedIn: number
  profileComplete: number
  kycAllowsPayment: number
  paid: number
  /** Auto-renew does not exist yet: always 0. */
  failedAutomaticCharges: number
}

/** Figures the page and the CSV files show; money in paise. */
export type InsightFigures = {
  months: MonthKey[]
  money: MoneyMonth[]
  services: ServiceName[]
  serviceMonths: ServiceMonthCounts[]
  cohorts: { rows: CohortRow[]; computedAt: Date | null }
  funnel: FunnelWindow[]
}

/** A cell as the page shows it and as the CSV file holds it (rupees as numbers, shares as percentages). */
export type FigureCell = { text: string; csv: CsvCell }
export type FigureTable = { columns: string[]; rows: FigureCell[][] }

const rupees = (paise: number): FigureCell => ({
  text: `Rs. ${paise < 0 ? '-' : ''}${formatRupees(Math.abs(paise))}`,
  csv: (paise / PAISE_PER_RUPEE).toFixed(2),
})
const count = (value: number): FigureCell => ({ text: value.toLocaleString('en-IN'), csv: value })
const text = (value: string): FigureCell => ({ text: value, csv: value })
const percent = (value: number | null): FigureCell =>
  value === null ? { text: 'None ended', csv: null } : { text: `${value.toFixed(1)}%`, csv: Number(value.toFixed(1)) }
const share = (part: number | null, whole: number): FigureCell =>
  part === null
    ? { text: 'Not yet', csv: null }
    : whole === 0
      ? { text: '-', csv: null }
      : { text: `${((100 * part) / whole).toFixed(1)}% (${part})`, csv: Number(((100 * part) / whole).toFixed(1)) }

const AFTER_LABELS = COHORT_MONTHS_AFTER.map((months) => `After ${months} month${months === 1 ? '' : 's'}`)

export const FUNNEL_STEPS = [
  { key: 'signedIn', label: 'Signed in for the first time' },
  { key: 'profileComplete', label: 'Profile complete' },
  { key: 'kycAllowsPayment', label: 'KYC allows payment' },
  { key: 'paid', label: 'Paid' },
] as const

export function insightTable(chart: InsightChart, figures: InsightFigures): FigureTable {
  switch (chart) {
    case 'money':
      return {
        columns: ['Month', 'Collected', 'Refunded', 'Net', 'GST in net'],
        rows: figures.money.map((month) => [
          text(monthLabel(month.month)),
          rupees(month.collectedPaise),
          rupees(month.refundedPaise),
          rupees(netPaise(month)),
          rupees(netGstPaise(month)),
        ]),
      }
    case 'subscribers': {
      const columns = figures.services.map((service) =>
        activeAtMonthEnds(figures.serviceMonths, service.id, figures.months),
      )
      return {
        columns: ['Month', ...figures.services.map((service) => service.name)],
        rows: figures.months.map((month, index) => [
          text(monthLabel(month)),
          ...columns.map((values) => count(values[index]!)),
        ]),
      }
    }
    case 'renewals':
      return {
        columns: [
          'Month',
          'Service',
          'Periods ended',
          `Renewed within ${RENEWAL_WINDOW_DAYS} days`,
          'Renewal rate',
          'Renew automatically',
        ],
        rows: figures.months.flatMap((month) =>
          figures.services.flatMap((service) => {
            const [row] = renewalsByMonth(figures.serviceMonths, service.id, [month])
            if (!row || row.ended === 0) return []
            return [
              [
                text(monthLabel(month)),
                text(service.name),
                count(row.ended),
                count(row.renewed),
                percent(renewalRatePercent(row)),
                count(0),
              ],
            ]
          }),
        ),
      }
    case 'cohorts':
      return {
        columns: ['Month of first purchase', 'Customers', ...AFTER_LABELS],
        rows: figures.cohorts.rows.map((row) => [
          text(monthLabel(row.month)),
          count(row.customers),
          ...row.stillSubscribed.map((part) => share(part, row.customers)),
        ]),
      }
    case 'funnel':
      return {
        columns: ['Step', ...figures.funnel.map((window) => `Last ${window.days} days`)],
        rows: [
          ...FUNNEL_STEPS.map((step) => [text(step.label), ...figures.funnel.map((window) => count(window[step.key]))]),
          [text('Failed automatic charges'), ...figures.funnel.map((window) => count(window.failedAutomaticCharges))],
        ],
      }
  }
}

/** "insights-money-2026-11.csv": the chart and the India month it was read in. */
export const insightCsvFilename = (chart: InsightChart, now: Date) =>
  `insights-${chart}-${indiaIsoDate(now).slice(0, 10)}.csv`

/** A series' line, and its points (a lone month between gaps is a point with no line). */
export type LineSeriesShape = { name: string; path: string; points: { x: number; y: number }[]; style: number }
export type AxisTick = { at: number; label: string }
/** A chart drawn on the server (app/server/admin/insight-charts.server.ts): coordinates in its viewBox. */
export type LineChartShape = {
  kind: 'lines'
  width: number
  height: number
  plot: { left: number; top: number; right: number; bottom: number }
  series: LineSeriesShape[]
  xTicks: AxisTick[]
  yTicks: AxisTick[]
}
export type BarShape = { x: number; y: number; width: number; height: number; style: number; label: string }
export type BarChartShape = {
  kind: 'bars'
  width: number
  height: number
  plot: { left: number; top: number; right: number; bottom: number }
  bars: BarShape[]
  legend: { name: string; style: number }[]
  categoryTicks: AxisTick[]
  valueTicks: AxisTick[]
}
export type ChartShape = LineChartShape | BarChartShape
