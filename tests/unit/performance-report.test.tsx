import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { NO_VERIFIED_PERFORMANCE, PerformanceReport } from '~/content/legal/performance-report'
import { REGISTRATION_DISCLAIMER, SEBI_STANDARD_WARNING } from '~/content/legal/regulatory'

const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'")

describe('/performance-report', () => {
  it('says plainly that no verified performance is published when no report carries a PaRRVA verification', () => {
    const page = text(renderToStaticMarkup(<PerformanceReport reports={[]} />))
    expect(page).toContain(NO_VERIFIED_PERFORMANCE)
    expect(page).not.toContain('Verified reports')
    expect(page).toContain(SEBI_STANDARD_WARNING)
  })

  it('shows each verified report with its PaRRVA reference and date, and the disclaimers', () => {
    const page = text(
      renderToStaticMarkup(
        <PerformanceReport
          reports={[
            {
              label: 'Options research performance',
              url: 'https://reports.example.in/options.pdf',
              parrvaReference: 'PRV/2026/0042',
              verifiedOn: '2026-06-15',
            },
          ]}
        />,
      ),
    )
    expect(page).not.toContain(NO_VERIFIED_PERFORMANCE)
    expect(page).toContain('Options research performance')
    expect(page).toContain('(PaRRVA verification reference PRV/2026/0042, verified on 15-06-2026)')
    expect(page).toContain('Past performance does not indicate or guarantee future results.')
    expect(page).toContain(SEBI_STANDARD_WARNING)
    expect(page).toContain(REGISTRATION_DISCLAIMER)
  })
})
