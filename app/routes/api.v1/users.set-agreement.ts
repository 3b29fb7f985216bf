import { z } from 'zod'
import {
  API_ACKNOWLEDGED_KINDS,
  apiAcknowledgementMessage,
  CONSENT_DOCUMENT_KINDS,
  type ConsentDocumentKind,
} from '~/domain/consent'
import { adultBirthDateMissingMessage, hasAdultBirthDate } from '~/domain/profile'
import { SAVE_DETAILS_AT } from '~/server/api/wire-shapes.server'
import { acceptAgreement } from '~/server/account/agreement.server'
import { apiError, apiPost, postOnly, readJsonBody, requireApiUser } from '~/server/api/requests.server'
import type { Route } from './+types/users.set-agreement'

const Body = z.object({
  version: z.string({ error: 'version is the terms version of GET /api/v1/agreement.' }).max(100).optional(),
  documents: z
    .partialRecord(
      z.enum(CONSENT_DOCUMENT_KINDS, {
        error: `documents names each of ${CONSENT_DOCUMENT_KINDS.join(', ')} by its version.`,
      }),
      z.string({ error: 'Each document in documents is given by its version.' }).max(100),
    )
    .optional(),
})

export const loader = postOnly

/**
 * The wizard's agreement step through the API (docs/api.md): `documents` names every onboarding
 * document by the version the client showed (GET /api/v1/agreement), as the page's five boxes do,
 * and each is recorded as its own acceptance with channel API, the page's way (acceptAgreement).
 * A document left out, or one not at its current version, is 409 naming every document with its
 * current version, and nothing is recorded; so is the original clients' body-less call. `version`,
 * the terms' version the original clients could send, stands for `documents.TERMS`. Refused (409)
 * until an adult date of birth is saved.
 */
export const action = apiPost(async ({ request, context }: Route.ActionArgs) => {
  const user = await requireApiUser(request)
  if (!hasAdultBirthDate(user.dateOfBirth, new Date()))
    return apiError(409, adultBirthDateMissingMessage(user.dateOfBirth, SAVE_DETAILS_AT))
  const body = request.headers.get('Content-Type')?.includes('json') ? await readJsonBody(request, Body) : {}
  const shown: Partial<Record<ConsentDocumentKind, string>> = { ...body.documents }
  if (body.version !== undefined) {
    if (shown.TERMS !== undefined && shown.TERMS !== body.version) {
      return apiError(400, 'Some fields are not valid.', {
        errors: { version: ['version and documents.TERMS name different versions of the terms.'] },
      })
    }
    shown.TERMS = body.version
  }
  const accepted = await acceptAgreement(user.id, {
    shown,
    required: API_ACKNOWLEDGED_KINDS,
    origin: { ip: context.clientIp, userAgent: request.headers.get('User-Agent'), channel: 'API' },
  })
  if (!accepted.signed) {
    const current = accepted.currentVersions
    return Response.json(
      {
        message: apiAcknowledgementMessage(accepted.check, current),
        data: {
          version: current.TERMS,
          documents: current,
          [accepted.check.reason]: accepted.check.kinds,
        },
      },
      { status: 409 },
    )
  }
  return Response.json({
    message: 'Agreement accepted.',
    data: { agreement: true, version: accepted.versions.TERMS, documents: accepted.versions },
  })
})
