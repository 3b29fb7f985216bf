import { createHash } from 'node:crypto'

/**
 * What a customer accepts in step 3 of the profile wizard: the key terms, SEBI's standard Most
 * Important Terms and Conditions (MITC, February 2025) and the standard consent statement
 * (January 2025). The version is derived from the text, so any edit makes a new version.
 */
export type AgreementSection = { heading: string; paragraphs: string[] }

export const AGREEMENT_SECTIONS: AgreementSection[] = [
  {
    heading: 'Terms of service',
    paragraphs: [
      'You are subscribing to research services of a Research Analyst registered with the Securities and Exchange Board of India (SEBI). The registered name and SEBI registration number are shown at the foot of every page of this website. The full Terms and Conditions are at /terms-and-conditions.',
      'You must be 18 or older and a resident of India. You will complete KYC (name, date of birth, PAN and a copy of your PAN card) before any service is given.',
      'A subscription gives you the research service you chose for the number of days stated with its price, starting when your payment is confirmed.',
    ],
  },
  {
    heading: 'Most Important Terms and Conditions (MITC)',
    paragraphs: [
      '1. The Research Analyst only provides research services. It does not execute or manage trades, and does not hold or manage your money or securities.',
      '2. Fees are subject to the maximum set by SEBI and its Research Analyst Administration and Supervisory Body for individual and HUF clients, currently Rs. 1,51,000 a year per family, excluding statutory charges. This limit does not apply to non-individual clients or accredited investors.',
      '3. Fees may be charged in advance for at most the period allowed by SEBI, currently one year.',
      '4. If the service is ended early by either you or the Research Analyst, you get a proportionate refund of the fee for the unexpired period.',
      '5. Fees are paid only by banking channels such as online bank transfer, UPI, cards or the payment gateway on this website, never in cash.',
      '6. The Research Analyst discloses any conflict of interest in its research.',
      '7. Any scheme promising assured or guaranteed returns is illegal. There is no guarantee of returns or of the accuracy of any research.',
      '8. Investment in securities market are subject to market risks. Read all the related documents carefully before investing.',
      "9. SEBI registration, enlistment with the supervisory body and NISM certification do not guarantee the Research Analyst's performance or any returns to investors.",
      '10. For grievances, contact us first; if not resolved, use SEBI SCORES (https://scores.sebi.gov.in), and then the SMART ODR portal (https://smartodr.in).',
      '11. Never share your login details or one-time codes with anyone, including our team.',
    ],
  },
  {
    heading: 'Consent',
    paragraphs: [
      'I have read and understood the terms and conditions of the research services, including the fee structure, and the Most Important Terms and Conditions above.',
      'I am subscribing to the research services for my own benefit and consumption, and any reliance placed on the research report provided by the Research Analyst shall be as per my own judgement and assessment.',
      'I understand that any investment made based on the recommendations in the research report is subject to market risk, that recommendations do not provide any assurance of returns, and that there is no recourse to claim any losses incurred on investments made based on the recommendations.',
    ],
  },
]

export type AgreementDocument = { version: string; text: string; textSha256: string; sections: AgreementSection[] }

const text = AGREEMENT_SECTIONS.map((section) => [section.heading, ...section.paragraphs].join('\n\n')).join('\n\n')
const textSha256 = createHash('sha256').update(text).digest('hex')

/** The agreement as shown, with the SHA-256 recorded on acceptance and a version taken from it. */
export const AGREEMENT: AgreementDocument = { version: `agreement-${textSha256.slice(0, 12)}`, text, textSha256, sections: AGREEMENT_SECTIONS }
