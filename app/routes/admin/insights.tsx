import { siteTitle } from '~/domain/business-details'
import { ColumnHeaders, ScrollableTable } from '~/components/data-table'
import { InsightChart } from '~/components/insight-chart'
import { formatIndiaDateTime } from '~/domain/dates'
import {
  FUNNEL_WINDOWS_DAYS,
  INSIGHT_CHARTS,
  INSIGHT_TITLES,
  insightTable,
  type ChartShape,
  type InsightChart as Chart,
} from '~/domain/insights'
import { insightFigures } from '~/server/admin/insights.server'
import { funnelChart, moneyChart, renewalsChart, subscribersChart } from '~/server/admin/insight-charts.server'
import { requireAdmin } from '~/server/auth/admin-role.server'
import type { Route } from './+types/insights'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Insights | Admin') }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const figures = await insightFigures(new Date())
  const shapes: Record<Chart, ChartShape | null> = {
    money: moneyChart(figures),
    subscribers: subscribersChart(figures),
    renewals: renewalsChart(figures),
    cohorts: null,
    funnel: funnelChart(figures),
  }
  return {
    sections: INSIGHT_CHARTS.map((chart) => {
      const table = insightTable(chart, figures)
      return {
        chart,
        title: INSIGHT_TITLES[chart],
        shape: shapes[chart],
        columns: table.columns,
        rows: table.rows.map((row) => row.map((cell) => cell.text)),
      }
    }),
    cohortsComputedAt: figures.cohorts.computedAt ? formatIndiaDateTime(figures.cohorts.computedAt) : null,
  }
}

export default function AdminInsights({ loaderData }: Route.ComponentProps) {
  const { sections, cohortsComputedAt } = loaderData
  return (
    <>
      <h1 className="text-2xl font-semibold">Insights</h1>
      <p className="mt-2 max-w-3xl">
        The last 24 months in India time, the current month so far. Each chart&apos;s figures are in the table under it
        and in its CSV file (amounts in rupees).
      </p>
      {sections.map((section) => {
        const headingId = `insights-${section.chart}`
        return (
          <section key={section.chart} aria-labelledby={headingId} className="mt-10">
            <h2 id={headingId} className="text-xl font-semibold">
              {section.title}
            </h2>
            <div className="mt-2 max-w-3xl space-y-2 text-sm text-gray-700 dark:text-gray-300">
              <SectionNotes chart={section.chart} cohortsComputedAt={cohortsComputedAt} />
            </div>
            {section.shape ? (
              <div className="mt-4">
                <InsightChart chart={section.shape} />
              </div>
            ) : null}
            {section.rows.length === 0 ? (
              <p className="mt-4">No figures yet.</p>
            ) : (
              <ScrollableTable label={`${section.title}: figures`} minWidthClass="min-w-[32rem]">
                <caption className="sr-only">{section.title}</caption>
                <ColumnHeaders columns={section.columns} />
                <tbody>
                  {section.rows.map((row, rowIndex) => (
                    <tr key={rowIndex}>
                      {row.map((cell, cellIndex) =>
                        cellIndex === 0 ? (
                          <th
                            key={cellIndex}
                            scope="row"
                            className="border border-gray-300 px-3 py-2 text-left font-normal dark:border-gray-700"
                          >
                            {cell}
                          </th>
                        ) : (
                          <td
                            key={cellIndex}
                            className="border border-gray-300 px-3 py-2 text-right tabular-nums dark:border-gray-700"
                          >
                            {cell}
                          </td>
                        ),
                      )}
                    </tr>
                  ))}
                </tbody>
              </ScrollableTable>
            )}
            <p className="mt-2">
              {/* A file, not a page: the browser fetches it itself. */}
              <a href={`/admin/insights.csv?chart=${section.chart}`} className="underline" download>
                {section.title}: download CSV
              </a>
            </p>
          </section>
        )
      })}
    </>
  )
}

function SectionNotes({ chart, cohortsComputedAt }: { chart: Chart; cohortsComputedAt: string | null }) {
  switch (chart) {
    case 'money':
      return (
        <p>
          Collected: the payments received in the month. Refunded: the refunds made in the month, whichever month the
          payment was in. Net: collected less refunded. GST in net: the GST invoiced less the GST given back by credit
          notes, as in the ledger.
        </p>
      )
    case 'subscribers':
      return (
        <p>
          Subscriptions running at the end of each month, per service; for the current month, as paid so far (a period
          paid in advance counts once it starts).
        </p>
      )
    case 'renewals':
      return (
        <>
          <p>
            Of the periods that ended in a month, the share the customer bought again for the same service within 30
            days of the end. The latest two months can still rise.
          </p>
          <p>
            Automatic renewal (UPI AutoPay, card or e-mandate) does not exist yet: no subscription renews automatically,
            so that column is 0.
          </p>
        </>
      )
    case 'cohorts':
      return (
        <p>
          Customers by the month of their first payment, and the share of them with a running subscription 1, 3, 6 and
          12 months after it; &ldquo;Not yet&rdquo; until that time has passed for the whole month.{' '}
          {cohortsComputedAt
            ? `Computed ${cohortsComputedAt}; recomputed every hour.`
            : 'The cohort job fills this table every hour, once there are payments.'}
        </p>
      )
    case 'funnel':
      return (
        <p>
          Customers who signed in for the first time in the last {FUNNEL_WINDOWS_DAYS.join(' and ')} days, and how many
          of them completed their profile, hold a KYC that allows payment, and paid. Failed automatic charges: none, as
          automatic renewal does not exist yet.
        </p>
      )
  }
}
