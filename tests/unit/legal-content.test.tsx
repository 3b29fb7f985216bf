import { renderToStaticMarkup } from 'react-dom/server'
import { MemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'
import { LegalDocumentView } from '~/components/legal-document-view'
import { disclaimer } from '~/content/legal/disclaimer'
import { disclosure } from '~/content/legal/disclosure'
import { documentText, inlineTokens, numberSections, plainText, type LegalDocument } from '~/content/legal/document'
import { investorCharter } from '~/content/legal/investor-charter'
import { privacyPolicy } from '~/content/legal/privacy-policy'
import { refundPolicy } from '~/content/legal/refund-policy'
import { termsAndConditions } from '~/content/legal/terms'
import type { BusinessDetails } from '~/domain/business-details'
import { OTHER_BUSINESS_DETAILS } from '../support/other-business-details'

const details = OTHER_BUSINESS_DETAILS

const DOCUMENTS: [string, (details: BusinessDetails) => LegalDocument][] = [
  ['terms', termsAndConditions],
  ['investor charter', investorCharter],
  ['privacy policy', privacyPolicy],
  ['refund policy', refundPolicy],
  ['disclaimer', disclaimer],
  ['disclosure', disclosure],
]

describe('legal documents', () => {
  it.each(DOCUMENTS)('%s has no placeholder or missing value left in its text', (_name, build) => {
    const text = documentText(build(details))
    expect(text).not.toMatch(/[{}]|\bundefined\b|\bnull\b|\[object|NaN/)
    expect(text).not.toMatch(/Demo |example\.in\b(?<!kavya\.example\.in)/)
  })

  it.each(DOCUMENTS)('%s gives every section a unique anchor', (_name, build) => {
    const ids: string[] = []
    const collect = (sections: ReturnType<typeof numberSections>) =>
      sections.forEach((section) => {
        ids.push(section.id)
        collect(section.sections)
      })
    collect(numberSections(build(details)))
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('puts every configured detail the terms need into them', () => {
    const text = documentText(termsAndConditions(details))
    for (const value of [
      'Kavya Iyer Research',
      'INH000098765',
      '4 Lake View Road, Kochi, Kerala 682001',
      'help@kavya.example.in',
      '+91 00000 11111',
      '+91 00000 22222',
      '987654321098',
      'TEST0004321',
      'account name Kavya Iyer',
      'the courts at Kochi have exclusive jurisdiction',
      details.workingHours,
    ]) {
      expect(text).toContain(value)
    }
  })

  it('covers every topic the original terms listed, with the SEBI sections last', () => {
    const headings = termsAndConditions(details).sections.map((section) => section.heading)
    expect(headings).toEqual([
      'Definitions',
      'Acceptance of these Terms',
      'Age and eligibility',
      'About the Platform and about us',
      'Licence to use the Platform and the research',
      'Intellectual property',
      'Your obligations',
      'Payment and fees',
      'Acceptable use',
      'Communication',
      'Affiliate marketing',
      'Privacy',
      'Assumption of risk',
      'Sale of services',
      'Reverse engineering',
      'Data loss',
      'Indemnification',
      'Spam',
      'Third-party links',
      'Modification of these Terms',
      'Entire agreement',
      'Service interruptions',
      'Termination',
      'No warranties',
      'Limitation of liability',
      'Refund policy',
      'Grievance redressal and dispute resolution',
      'Governing law and jurisdiction',
      'General provisions',
      "SEBI's minimum mandatory terms",
      'Most Important Terms and Conditions (MITC)',
      'Consent statement',
    ])
    const text = documentText(termsAndConditions(details))
    expect(text).toContain('at least 18 years old')
    expect(text).toContain('governed by the laws of India')
    expect(text).toContain('90 days after your account is closed')
    expect(text).toContain('We communicate with you in English')
    expect(text).toContain('limited to the lesser of Rs. 1,000 and the fees you paid us in the six months')
    expect(text).toContain('proportionate fee for the unexpired period')
    expect(text).not.toMatch(/non-refundable|no refunds|all sales are final|50%/i)
  })

  it('follows the 2025 investor charter: sections A to F and 21 days', () => {
    const charter = investorCharter(details)
    expect(charter.sections.map((section) => section.heading.slice(0, 2))).toEqual(['A.', 'B.', 'C.', 'D.', 'E.', 'F.'])
    const text = documentText(charter)
    expect(text).toContain('within 21 days of receiving it')
    expect(text).not.toContain('30 days')
    expect(text).toContain('help@kavya.example.in')
  })

  it('names the compliance officer as the privacy contact and lists the DPDP rights', () => {
    const text = documentText(privacyPolicy(details))
    expect(text).toContain('Arjun Nair')
    expect(text).toContain('arjun@kavya.example.in')
    expect(text).toContain('+91 00000 33333')
    expect(text).toContain('Digital Personal Data Protection Act, 2023')
    expect(text).toContain('Data Protection Board of India')
    expect(text).toContain('nominate another person')
  })

  it('shows the configured disclosures and officers on the disclosure page', () => {
    const text = documentText(disclosure(details))
    for (const value of [
      details.disciplinaryHistory,
      details.aiToolsDisclosure,
      details.associates,
      'BSE enlistment number: BSE-RA-09876',
      'Date of registration: 14-08-2019',
      'Grievance Officer: Farah Siddiqui, grievances@kavya.example.in, +91 00000 66666',
      'Financial year audited: 2025-26',
      'Audit completed on: 12-09-2026',
      'Adverse findings and their status: None.',
      'Kavya Iyer, kavya@kavya.example.in',
    ]) {
      expect(text).toContain(value)
    }
  })

  it('states the risk levels and that we are not an investment adviser', () => {
    const text = documentText(disclaimer(details))
    expect(text).toContain('We are not registered with SEBI as an investment adviser')
    for (const level of ['Low risk:', 'Moderate risk:', 'High risk:', 'Very high risk:']) expect(text).toContain(level)
  })

  it('refunds the unexpired period instead of refusing refunds', () => {
    const text = documentText(refundPolicy(details))
    expect(text).toContain('Rs. 2,999 × 12 ÷ 30 = Rs. 1,199.60')
    expect((2999 * 12) / 30).toBeCloseTo(1199.6, 10)
    expect(text).toContain('within 30 days')
    expect(text).not.toMatch(/non-refundable|no refunds|all sales are final/i)
  })
})

describe('inline links', () => {
  it('finds [label](target) links, https addresses and e-mail addresses', () => {
    expect(
      inlineTokens(
        'See our [Refund Policy](/refund-policy), SCORES at https://scores.sebi.gov.in. Or write to a.b@example.in.',
      ),
    ).toEqual([
      { text: 'See our ' },
      { text: 'Refund Policy', href: '/refund-policy' },
      { text: ', SCORES at ' },
      { text: 'https://scores.sebi.gov.in', href: 'https://scores.sebi.gov.in' },
      { text: '. Or write to ' },
      { text: 'a.b@example.in', href: 'mailto:a.b@example.in' },
      { text: '.' },
    ])
  })

  it('reads a link in plain text as its label and its address', () => {
    expect(plainText('our [Refund Policy](/refund-policy) or https://smartodr.in')).toBe(
      'our Refund Policy (/refund-policy) or https://smartodr.in',
    )
  })
})

describe('<LegalDocumentView>', () => {
  const html = renderToStaticMarkup(
    <MemoryRouter>
      <LegalDocumentView document={termsAndConditions(details)} contents />
    </MemoryRouter>,
  )

  it('renders one <h1>, numbered <h2> clauses and <h3> sub-clauses', () => {
    expect(html.match(/<h1[ >]/g)).toHaveLength(1)
    expect(html).toMatch(/<h2 id="definitions"[^>]*>1\. Definitions<\/h2>/)
    expect(html).toMatch(/<h3 id="mitc-refund"[^>]*>31\.4 Refund on early termination<\/h3>/)
  })

  it('opens other websites in a new tab with rel="noopener noreferrer" and says so', () => {
    const external = html.match(/<a [^>]*href="https:[^"]*"[^>]*>/g)!
    expect(external.length).toBeGreaterThan(2)
    for (const anchor of external) {
      expect(anchor).toContain('rel="noopener noreferrer"')
      expect(anchor).toContain('target="_blank"')
    }
    expect(html).toContain('<span class="sr-only"> (opens in a new tab)</span>')
    expect(html).toContain('href="/refund-policy"')
    expect(html).toContain('href="mailto:help@kavya.example.in"')
  })
})
