import { currentAgreement, currentConsentDocuments } from '~/server/account/agreement-document.server'
import { CONSENT_DOCUMENTS } from '~/domain/consent'
import { KRA_CHECK_NOTICE } from '~/domain/kra-check-notice'
import { apiGet, getOnly } from '~/server/api/requests.server'
import { businessDetails } from '~/server/business.server'

/**
 * The agreement a client shows before calling set-agreement: its version and its text, exactly
 * the plain text whose SHA-256 set-agreement records (the terms, ending with the MITC and the consent).
 * `documents` lists every onboarding document with its version, hash and page, for a client that
 * also shows the investor charter and asks for the consent to processing personal data.
 * `kraCheckNotice` is what the app shows before set-details, which sends the PAN and date of birth to the KRA.
 */
export const loader = apiGet(() => {
  const { version, text } = currentAgreement(businessDetails)
  const documents = Object.values(currentConsentDocuments(businessDetails)).map((document) => ({
    kind: document.kind,
    title: CONSENT_DOCUMENTS[document.kind].title,
    version: document.version,
    textSha256: document.textSha256,
    path: CONSENT_DOCUMENTS[document.kind].path,
  }))
  return Response.json({ data: { version, text, documents, kraCheckNotice: KRA_CHECK_NOTICE } })
})

export const action = getOnly
