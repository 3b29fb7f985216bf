import { PerformanceReport } from '~/content/legal/performance-report'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/performance-report'

export const meta: Route.MetaFunction = () => [{ title: 'Performance Report | Research Store' }]

export function loader() {
  return { reports: businessDetails.performanceReports }
}

export default function PerformanceReportPage({ loaderData: { reports } }: Route.ComponentProps) {
  return <PerformanceReport reports={reports} />
}
