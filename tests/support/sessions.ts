import { currentConsentDocuments } from '~/server/account/agreement-document.server'
import { CONSENT_DOCUMENTS, PAGE_ACKNOWLEDGED_KINDS, type ConsentDocumentKind } from '~/domain/consent'
import { profileDetailsSchema } from '~/domain/profile'
import type { Role } from '~/generated/prisma/client'
import { agreementSigning } from '~/server/account/agreement.server'
import { businessDetails } from '~/server/business.server'
import { prisma } from '~/server/db.server'
import { savePanCard, saveProfileDetails } from '~/server/account/profile.server'
import { receivedFileOf } from '~/server/http/received-file.server'
import { createSession } from '~/server/session.server'
import { ASHA_RAO, PNG_1X1, uniqueMobile, uniquePan } from './sample-customer'

// People signed in without the SMS outbox, through the functions the sign-in and the profile
// wizard call: for the integration tests, and for the end-to-end fixtures (tests/e2e/fixtures.ts),
// which load this module with DATABASE_URL pointed at the end-to-end server's database.

export type SignedInUser = {
  userId: string
  /** E.164, as the sign-in stores it. */
  phone: string
  /** The session cookie's `name=value` pair, for a Cookie header. */
  cookie: string
}

export type SignedInUserOptions = {
  role?: Role
  /** The three steps of the profile wizard done: details, PAN card (stored), agreement. */
  completeProfile?: boolean
  /** Step one's details; `completeProfile` uses Asha Rao's (with a PAN of its own: one account per PAN) unless given. */
  details?: typeof ASHA_RAO
  /**
   * With `completeProfile`: the TERMS version this customer accepted last, when not the current one
   * (a customer who accepted an earlier text, for the specs of a new version of the terms).
   */
  acceptedTermsVersion?: string
  /**
   * With `completeProfile`: the documents acknowledged, when not every one the page asks for (a
   * customer onboarded through the API before it asked for the charter and the data consent).
   */
  acknowledged?: readonly ConsentDocumentKind[]
  /**
   * With `completeProfile`: of the documents acknowledged, those given to an earlier text (version
   * EARLIER_VERSION_SUFFIX), for the specs of a changed Privacy Policy, Investor Charter or MITC.
   */
  acknowledgedEarlier?: readonly ConsentDocumentKind[]
}

/** The version's tail of a document acknowledged at an earlier text (acknowledgedEarlier): "privacy-0ld0ld0ld0ld". */
export const EARLIER_VERSION_SUFFIX = '0ld0ld0ld0ld'

/**
 * A user and a Session row, as a sign-in leaves them (the sign-in sets the role from ADMIN_PHONES;
 * here the caller chooses it), optionally with a complete profile.
 */
export async function signedInUser({
  role = 'CUSTOMER',
  completeProfile = false,
  details = completeProfile ? { ...ASHA_RAO, pan: uniquePan() } : undefined,
  acceptedTermsVersion,
  acknowledged = PAGE_ACKNOWLEDGED_KINDS,
  acknowledgedEarlier = [],
}: SignedInUserOptions = {}): Promise<SignedInUser> {
  const phone = `+91${uniqueMobile()}`
  const user = await prisma.user.create({ data: { phone, role }, select: { id: true, panCardKey: true } })
  // Through the wizard's schema, which stores the name and e-mail in lower case.
  if (details) {
    const saved = await saveProfileDetails(user.id, profileDetailsSchema(new Date()).parse(details))
    if (!saved.ok) throw new Error(`signedInUser: ${saved.message}`)
  }
  if (completeProfile) {
    await savePanCard(user, {
      ok: true,
      file: await receivedFileOf(PNG_1X1),
      contentType: 'image/png',
      extension: 'png',
      size: PNG_1X1.length,
      fields: new FormData(),
    })
    // Every document of the wizard's agreement step (unless told otherwise), as its page records them.
    const documents = currentConsentDocuments(businessDetails)
    await agreementSigning().sign(
      user.id,
      acknowledged.map((kind) =>
        acknowledgedEarlier.includes(kind)
          ? {
              ...documents[kind],
              version: `${CONSENT_DOCUMENTS[kind].versionPrefix}-${EARLIER_VERSION_SUFFIX}`,
              textSha256: 'an-earlier-text',
            }
          : documents[kind],
      ),
      { ip: '127.0.0.1', userAgent: 'tests/support/sessions.ts', channel: 'PAGE' },
    )
    // Recorded after, so the users columns (the latest TERMS acceptance) name this one.
    if (acceptedTermsVersion) {
      await agreementSigning().sign(
        user.id,
        [{ ...documents.TERMS, version: acceptedTermsVersion, textSha256: 'an-earlier-text' }],
        { ip: '127.0.0.1', userAgent: 'tests/support/sessions.ts', channel: 'PAGE' },
        new Date(Date.now() + 1),
      )
    }
  }
  return { userId: user.id, phone, cookie: (await createSession(user.id)).split(';')[0]! }
}
