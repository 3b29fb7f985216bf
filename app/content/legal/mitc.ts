import type { BusinessDetails } from '~/domain/business-details'
import type { LegalDocument } from './document'
import { officialDocument } from './investor-charter'
import { consentStatement, mostImportantTermsAndConditions } from './terms'

/**
 * The MITC as a document of its own (/mitc): the same section the Terms and Conditions end with,
 * which the customer acknowledges separately at onboarding.
 */
export function mitcDocument(details: BusinessDetails, officialText?: string): LegalDocument {
  if (officialText)
    return officialDocument(
      'Most Important Terms and Conditions (MITC)',
      officialText,
      'SEBI and the RAASB prescribe for research services',
    )
  const mitc = mostImportantTermsAndConditions(details)
  return {
    title: mitc.heading,
    intro: [
      ...mitc.blocks,
      'They are also part of our [Terms and Conditions](/terms-and-conditions), and you acknowledge them on their own when you complete your profile.',
      'This page is our summary of the standard MITC; until we publish here the text SEBI and the RAASB issued, that text prevails where they differ.',
    ],
    sections: mitc.sections ?? [],
  }
}

/** The standard consent statement as a document of its own, as the customer gives it at onboarding. */
export function consentStatementDocument(details: BusinessDetails): LegalDocument {
  return {
    title: 'Consent statement',
    intro: consentStatement(details),
    sections: [],
  }
}
