import { currentAgreement } from '~/content/legal/agreement.server'
import { businessDetails } from './business.server'
import { env, type Env } from './env.server'
import { recordAgreementAcceptance } from './profile.server'

/** What is signed: the exact text shown (its version and SHA-256), and from where. */
export type AgreementSignature = { version: string; textSha256: string; ip: string }

/**
 * How a customer signs the agreement at the wizard's last step (and `POST /api/v1/users/set-agreement`).
 * The original store's step 3 loaded a third-party e-signature script; issue 4 makes that a configurable hook whose
 * default is a recorded click-accept. Click-accept is the only method so far: a third-party
 * e-signature would be another value of AGREEMENT_SIGNING with its own implementation here, plus
 * whatever the page must load for it.
 */
export type AgreementSigning = {
  method: Env['AGREEMENT_SIGNING']
  /** Records that the user signed this text; the profile is complete once it has. */
  sign: (userId: string, signature: AgreementSignature, now?: Date) => Promise<void>
}

/** The "Accept Terms and Continue" button: the acceptance itself is the signature. */
const clickAccept: AgreementSigning = { method: 'click-accept', sign: recordAgreementAcceptance }

export function agreementSigning(settings: Pick<Env, 'AGREEMENT_SIGNING'> = env): AgreementSigning {
  switch (settings.AGREEMENT_SIGNING) {
    case 'click-accept':
      return clickAccept
  }
}

export const AGREEMENT_CHANGED_MESSAGE =
  'The agreement was updated while you were reading it. Please read this version and accept it.'

export type AgreementAcceptance = { signed: true; version: string } | { signed: false; currentVersion: string }

/**
 * THE acceptance of the agreement, for /details and `POST /api/v1/users/set-agreement`: signs the
 * version the customer was shown, and refuses (signing nothing) when that is no longer the current
 * text. `shownVersion` undefined is the original API client, which shows no version: it accepts the
 * current text, the one `GET /api/v1/agreement` serves.
 */
export async function acceptAgreement(
  userId: string,
  { shownVersion, ip }: { shownVersion: string | undefined; ip: string },
  now = new Date(),
): Promise<AgreementAcceptance> {
  const agreement = currentAgreement(businessDetails)
  if (shownVersion !== undefined && shownVersion !== agreement.version) {
    return { signed: false, currentVersion: agreement.version }
  }
  await agreementSigning().sign(userId, { version: agreement.version, textSha256: agreement.textSha256, ip }, now)
  return { signed: true, version: agreement.version }
}
