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
