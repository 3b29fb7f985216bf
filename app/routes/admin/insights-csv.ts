import { toCsv } from '~/domain/csv'
import { INSIGHT_CHARTS, insightCsvFilename, insightTable, isInsightChart } from '~/domain/insights'
import { insightFigures } from '~/server/admin/insights.server'
import { requireAdmin } from '~/server/auth/admin-role.server'
import type { Route } from './+types/insights-csv'

/** One chart's table of /admin/insights as a CSV file: ?chart=money, subscribers, renewals, cohorts or funnel. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const chart = new URL(request.url).searchParams.get('chart')
  if (!isInsightChart(chart))
    return new Response(`Which chart? Add ?chart= with one of: ${INSIGHT_CHARTS.join(', ')}.\n`, {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' },
    })
  const now = new Date()
  const table = insightTable(chart, await insightFigures(now))
  return new Response(
    toCsv(
      table.columns,
      table.rows.map((row) => row.map((cell) => cell.csv)),
    ),
    {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${insightCsvFilename(chart, now)}"`,
        'Cache-Control': 'private, no-store',
      },
    },
  )
}
