import type { BusinessDetails } from '~/domain/business-details'
import { formatIsoDate } from '~/domain/dates'
import type { LegalDocument } from './document'
import { REGISTRATION_DISCLAIMER, SEBI_STANDARD_WARNING } from './regulatory'

/** The public half of the key that signs published research (docs/research.md). */
export type ResearchPublicKey = { publicKeyBase64: string; fingerprint: string }

/**
 * What a research analyst discloses about itself on its website. The statements of fact that only
 * the business can make (disciplinary history, use of AI, audit status) come from configuration.
 */
export function disclosure(details: BusinessDetails, researchKey?: ResearchPublicKey): LegalDocument {
  const { name, sebiRegistrationNumber, address, principalOfficer, complianceOfficer, grievanceOfficer } = details
  const audit = details.complianceAudit
  return {
    title: 'Disclosure',
    sections: [
      {
        id: 'research-analyst',
        heading: 'About the research analyst',
        blocks: [
          {
            list: [
              `Name as registered with SEBI: ${name}`,
              'Type of registration: Research Analyst, under the SEBI (Research Analysts) Regulations, 2014',
              `SEBI registration number: ${sebiRegistrationNumber}`,
              `Date of registration: ${formatIsoDate(details.sebiRegistrationDate)}`,
              'Research Analyst Administration and Supervisory Body: BSE Limited',
              `BSE enlistment number: ${details.bseEnlistmentNumber}`,
              `Registered office: ${address}`,
              `Principal Officer: ${principalOfficer.name}, ${principalOfficer.email}, ${principalOfficer.phone}`,
              `Compliance Officer: ${complianceOfficer.name}, ${complianceOfficer.email}, ${complianceOfficer.phone}`,
              `Grievance Officer: ${grievanceOfficer.name}, ${grievanceOfficer.email}, ${grievanceOfficer.phone}`,
            ],
          },
        ],
      },
      {
        id: 'business',
        heading: 'Business activities',
        blocks: [
          'We provide research services: research reports and recommendations on securities, for subscribers who pay a fee for a fixed period. We are not an investment adviser, portfolio manager or stock broker; we do not manage money, execute trades or hold securities for clients.',
        ],
      },
      {
        id: 'associates',
        heading: 'Associates',
        blocks: [details.associates],
      },
      {
        id: 'disciplinary-history',
        heading: 'Disciplinary history',
        blocks: [details.disciplinaryHistory],
      },
      {
        id: 'artificial-intelligence',
        heading: 'Use of artificial intelligence tools',
        blocks: [details.aiToolsDisclosure],
      },
      {
        id: 'compliance-audit',
        heading: 'Annual compliance audit',
        blocks: [
          {
            list: [
              `Financial year audited: ${audit.financialYear}`,
              `Audit completed on: ${formatIsoDate(audit.completedOn)}`,
              `Adverse findings and their status: ${audit.adverseFindings}`,
            ],
          },
        ],
      },
      {
        id: 'conflicts-of-interest',
        heading: 'Conflicts of interest and financial interests',
        blocks: [
          'Each of our research reports states, as the SEBI (Research Analysts) Regulations, 2014 require:',
          {
            list: [
              'whether we, our associates or our relatives have any financial interest in the company whose securities are covered;',
              'whether we or our associates own 1% or more of its securities at the end of the month before the report;',
              'any other material conflict of interest at the time of publication;',
              'whether we or our associates received any compensation from that company in the past twelve months;',
              'whether we or our associates managed or co-managed a public offering of its securities in the past twelve months;',
              'whether we have served as an officer, director or employee of that company;',
              'whether we or our associates have been engaged in market making for its securities.',
            ],
          },
          'Our research is paid for by our subscribers. We do not accept payment from a company for covering its securities.',
        ],
      },
      ...(researchKey
        ? [
            {
              id: 'research-signing-key',
              heading: 'How our research is signed',
              blocks: [
                'Every research report we publish is signed with Ed25519 when it is published, and never changes afterwards. Each report shows the fingerprint of the key that signed it; this is that key, so anyone can check a report we delivered against it.',
                {
                  list: [
                    'Algorithm: Ed25519',
                    `Fingerprint (the first 16 bytes of the SHA-256 of the key): ${researchKey.fingerprint}`,
                    `Public key (SubjectPublicKeyInfo, DER in base64): ${researchKey.publicKeyBase64}`,
                  ],
                },
              ],
            },
          ]
        : []),
      {
        id: 'terms',
        heading: 'Terms, charter and complaints',
        blocks: [
          'Before you subscribe, please read our [Terms and Conditions](/terms-and-conditions) (including the Most Important Terms and Conditions), [Investor Charter](/investor-charter), [Disclaimer](/disclaimer), [Refund Policy](/refund-policy) and [Privacy Policy](/privacy-policy). The complaints we received and resolved are published every month on the [Complaint Board](/complaint-board).',
        ],
      },
      {
        id: 'warnings',
        heading: 'Warnings',
        blocks: [SEBI_STANDARD_WARNING, REGISTRATION_DISCLAIMER],
      },
    ],
  }
}
