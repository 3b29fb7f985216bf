import { createHash } from 'node:crypto'
import type { BusinessDetails } from '~/domain/business-details'
import { documentText, type LegalDocument, type LegalSection } from './document'
import { consentStatement, mostImportantTermsAndConditions, termsAndConditions } from './terms'

export type AgreementDocument = {
  /** The whole Terms and Conditions, which include the MITC and the consent statement as their last sections. */
  terms: LegalDocument
  mitc: LegalSection
  consentStatement: string[]
  /** Exactly what the customer reads, as plain text. */
  text: string
  textSha256: string
  /** "agreement-" and the first 12 hex digits of the text's SHA-256: any change of wording makes a new version. */
  version: string
}

/**
 * What the agreement step of the profile wizard shows and records, from the same content as
 * /terms-and-conditions. The business details are part of the text, so changing one (the support
 * e-mail, say) is a new version too.
 */
export function agreementDocument(details: BusinessDetails): AgreementDocument {
  const terms = termsAndConditions(details)
  const text = documentText(terms)
  const textSha256 = createHash('sha256').update(text).digest('hex')
  return {
    terms,
    mitc: mostImportantTermsAndConditions(details),
    consentStatement: consentStatement(details),
    text,
    textSha256,
    version: agreementVersion(textSha256),
  }
}

export function agreementVersion(textSha256: string): string {
  return `agreement-${textSha256.slice(0, 12)}`
}

let current: AgreementDocument | undefined

/** The agreement for the configured business details (fixed for the life of the process). */
export function currentAgreement(details: BusinessDetails): AgreementDocument {
  current ??= agreementDocument(details)
  return current
}
