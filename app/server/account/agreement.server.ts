import { currentConsentDocuments, type ConsentDocument } from '~/server/account/agreement-document.server'
import { checkAcknowledgements, type AcknowledgementCheck, type ConsentDocumentKind } from '~/domain/consent'
import { businessDetails } from '../business.server'
import {
  recordAcceptances,
  sendOnboardingCopy,
  type AcceptanceOrigin,
  type RecordedAcceptances,
} from './acceptances.server'
import { env, type Env } from '../env.server'

/**
 * How a customer signs the agreement at the wizard's last step (and `POST /api/v1/users/set-agreement`). The original
 * store's step 3 loaded a third-party e-signature script (docs/product.md section 2); here that is a configurable hook
 * whose default is a recorded click-accept. Click-accept is the only method so far: a third-party e-signature would be
 * another value of AGREEMENT_SIGNING with its own implementation here, plus whatever the page must load for it.
 */
export type AgreementSigning = {
  method: Env['AGREEMENT_SIGNING']
  /** Records that the user acknowledged these documents (one record each); the profile is complete once the terms are among them. */
  sign: (
    userId: string,
    documents: readonly ConsentDocument[],
    origin: AcceptanceOrigin,
    now?: Date,
  ) => Promise<RecordedAcceptances>
}

/** The "Accept Terms and Continue" button: the acceptance itself is the signature. */
const clickAccept: AgreementSigning = { method: 'click-accept', sign: recordAcceptances }

export function agreementSigning(settings: Pick<Env, 'AGREEMENT_SIGNING'> = env): AgreementSigning {
  switch (settings.AGREEMENT_SIGNING) {
    case 'click-accept':
      return clickAccept
  }
}

export const AGREEMENT_CHANGED_MESSAGE =
  'The agreement was updated while you were reading it. Please read this version and accept it.'

export type AgreementAcceptance =
  | { signed: true; versions: Partial<Record<ConsentDocumentKind, string>>; completedProfile: boolean }
  | {
      signed: false
      check: Extract<AcknowledgementCheck, { ok: false }>
      /** The current version of every document, to show instead. */
      currentVersions: Record<ConsentDocumentKind, string>
    }

/** The current version of each onboarding document. */
export function currentVersions(): Record<ConsentDocumentKind, string> {
  const documents = currentConsentDocuments(businessDetails)
  return Object.fromEntries(Object.values(documents).map((document) => [document.kind, document.version])) as Record<
    ConsentDocumentKind,
    string
  >
}

/**
 * THE acceptance of the onboarding documents, for /details and `POST /api/v1/users/set-agreement`:
 * records each document acknowledged at the version the customer was shown, and refuses (recording
 * nothing) when a required one is missing or any is no longer the current text. The acceptance
 * that completes the profile e-mails the customer a copy of what they acknowledged.
 */
export async function acceptAgreement(
  userId: string,
  {
    shown,
    required,
    origin,
  }: {
    shown: Partial<Record<ConsentDocumentKind, string>>
    required: readonly ConsentDocumentKind[]
    origin: AcceptanceOrigin
  },
  now = new Date(),
): Promise<AgreementAcceptance> {
  const versions = currentVersions()
  const check = checkAcknowledgements(versions, shown, required)
  if (!check.ok) return { signed: false, check, currentVersions: versions }
  const all = currentConsentDocuments(businessDetails)
  const documents = check.kinds.map((kind) => all[kind])
  const recorded = await agreementSigning().sign(userId, documents, origin, now)
  // Once, after the commit, for the acceptance that completed the profile (of two racing, one).
  if (recorded.completedProfile) await sendOnboardingCopy(userId, documents, now)
  return {
    signed: true,
    versions: Object.fromEntries(check.kinds.map((kind) => [kind, versions[kind]])),
    completedProfile: recorded.completedProfile,
  }
}
