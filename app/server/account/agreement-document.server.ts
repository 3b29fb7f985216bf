import { createHash } from 'node:crypto'
import type { BusinessDetails } from '~/domain/business-details'
import { CONSENT_DOCUMENT_KINDS, documentVersion, type ConsentDocumentKind } from '~/domain/consent'
import { documentText, type LegalDocument, type LegalSection } from '~/content/legal/document'
import { investorCharter } from '~/content/legal/investor-charter'
import { consentStatementDocument, mitcDocument } from '~/content/legal/mitc'
import { privacyPolicy } from '~/content/legal/privacy-policy'
import { consentStatement, mostImportantTermsAndConditions, termsAndConditions } from '~/content/legal/terms'
import type { OfficialTexts } from '~/domain/official-texts'
import { officialTexts } from './official-texts.server'

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
  const textSha256 = sha256(text)
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
  return documentVersion('TERMS', textSha256)
}

/** One document a customer acknowledges: its exact plain text, that text's SHA-256 and the version made of it. */
export type ConsentDocument = {
  kind: ConsentDocumentKind
  document: LegalDocument
  text: string
  textSha256: string
  version: string
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

const LEGAL_DOCUMENTS: Record<
  ConsentDocumentKind,
  (details: BusinessDetails, official: OfficialTexts) => LegalDocument
> = {
  TERMS: termsAndConditions,
  // SEBI's and the RAASB's standard texts, when the operator supplied them (OFFICIAL_TEXTS_DIR), else our summaries.
  MITC: (details, official) => mitcDocument(details, official.MITC),
  CONSENT_STATEMENT: consentStatementDocument,
  INVESTOR_CHARTER: (details, official) => investorCharter(details, official.INVESTOR_CHARTER),
  // Consent to processing is given to the Privacy Policy's text: what is processed, why, how long.
  PERSONAL_DATA: privacyPolicy,
}

/** Every document of onboarding, versioned by the hash of its text (the terms' version is the agreement's). */
export function consentDocuments(
  details: BusinessDetails,
  official: OfficialTexts = {},
): Record<ConsentDocumentKind, ConsentDocument> {
  return Object.fromEntries(
    CONSENT_DOCUMENT_KINDS.map((kind) => {
      const document = LEGAL_DOCUMENTS[kind](details, official)
      const text = documentText(document)
      const textSha256 = sha256(text)
      return [kind, { kind, document, text, textSha256, version: documentVersion(kind, textSha256) }]
    }),
  ) as Record<ConsentDocumentKind, ConsentDocument>
}

let current: AgreementDocument | undefined
let currentDocuments: Record<ConsentDocumentKind, ConsentDocument> | undefined

/** The agreement for the configured business details (fixed for the life of the process). */
export function currentAgreement(details: BusinessDetails): AgreementDocument {
  current ??= agreementDocument(details)
  return current
}

/** The onboarding documents for the configured business details (fixed for the life of the process). */
export function currentConsentDocuments(details: BusinessDetails): Record<ConsentDocumentKind, ConsentDocument> {
  currentDocuments ??= consentDocuments(details, officialTexts)
  return currentDocuments
}
