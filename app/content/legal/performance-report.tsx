import { ExternalLink } from '~/components/external-link'
import { legalLinkClass } from '~/components/legal-document-view'
import type { PerformanceReportLink } from '~/domain/business-details'
import { SEBI_STANDARD_WARNING } from './regulatory'

/** /performance-report: the configured reports, each opening safely in a new tab. */
export function PerformanceReport({ reports }: { reports: PerformanceReportLink[] }) {
  return (
    <article className="max-w-3xl">
      <h1 className="text-2xl font-semibold">Performance Report</h1>
      <p className="mt-3 leading-relaxed">
        These reports list the research recommendations we published and how they performed. Each report opens in a new
        tab.
      </p>
      <h2 className="mt-8 text-xl font-semibold">Reports</h2>
      <ul className="mt-3 list-disc space-y-2 pl-6">
        {reports.map((report) => (
          <li key={report.url}>
            <ExternalLink href={report.url} className={legalLinkClass}>
              {report.label}
            </ExternalLink>
          </li>
        ))}
      </ul>
      <p className="mt-8 leading-relaxed">
        Past performance does not indicate or guarantee future results. {SEBI_STANDARD_WARNING}
      </p>
    </article>
  )
}
