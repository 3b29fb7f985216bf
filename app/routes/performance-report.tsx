import { siteTitle } from '~/domain/business-details'
import { PerformanceReport } from '~/content/legal/performance-report'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/performance-report'

export const meta: Route.MetaFunction = ({ matches }) => [{ title: siteTitle(matches, 'Performance Report') }]

export function loader() {
  return { reports: businessDetails.performanceReports }
}

export default function PerformanceReportPage({ loaderData: { reports } }: Route.ComponentProps) {
  return <PerformanceReport reports={reports} />
}
