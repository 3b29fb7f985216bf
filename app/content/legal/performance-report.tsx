import { ExternalLink } from '~/components/external-link'
import { legalLinkClass } from '~/components/legal-document-view'
import type { VerifiedPerformanceReport } from '~/domain/business-details'
import { formatIsoDate } from '~/domain/dates'
import { REGISTRATION_DISCLAIMER, SEBI_STANDARD_WARNING } from './regulatory'

/** What the page says while no PaRRVA-verified report is configured. */
export const NO_VERIFIED_PERFORMANCE =
  'No verified performance is published yet. SEBI allows a research analyst to publish past performance only once a Past Risk and Return Verification Agency (PaRRVA) has verified it, and none of ours has been verified so far.'

/**
 * /performance-report: only reports a PaRRVA has verified (SEBI's advertisement code forbids other
 * past-performance claims), each with the verification reference and date; otherwise a plain
 * statement that none is published.
 */
export function PerformanceReport({ reports }: { reports: VerifiedPerformanceReport[] }) {
  return (
    <article className="max-w-3xl">
      <h1 className="text-2xl font-semibold">Performance Report</h1>
      {reports.length === 0 ? (
        <p className="mt-3 leading-relaxed">{NO_VERIFIED_PERFORMANCE}</p>
      ) : (
        <>
          <p className="mt-3 leading-relaxed">
            These reports list the research recommendations we published and how they performed. Each was verified by a
            Past Risk and Return Verification Agency (PaRRVA) recognised by SEBI; its verification reference and date
            are shown beside it. Each report opens in a new tab.
          </p>
          <h2 className="mt-8 text-xl font-semibold">Verified reports</h2>
          <ul className="mt-3 list-disc space-y-2 pl-6">
            {reports.map((report) => (
              <li key={report.url}>
                <ExternalLink href={report.url} className={legalLinkClass}>
                  {report.label}
                </ExternalLink>{' '}
                (PaRRVA verification reference {report.parrvaReference}, verified on {formatIsoDate(report.verifiedOn)})
              </li>
            ))}
          </ul>
        </>
      )}
      <p className="mt-8 leading-relaxed">
        Past performance does not indicate or guarantee future results. {SEBI_STANDARD_WARNING}
      </p>
      <p className="mt-3 leading-relaxed">{REGISTRATION_DISCLAIMER}</p>
    </article>
  )
}
