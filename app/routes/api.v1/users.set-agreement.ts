import { z } from 'zod'
import { API_CONTAINED_KINDS, CONSENT_DOCUMENT_KINDS, type ConsentDocumentKind } from '~/domain/consent'
import { acceptAgreement, AGREEMENT_CHANGED_MESSAGE, currentVersions } from '~/server/account/agreement.server'
import { apiPost, postOnly, readJsonBody, requireApiUser } from '~/server/api/requests.server'
import type { Route } from './+types/users.set-agreement'

const Body = z.object({
  version: z.string({ error: 'version is the text of GET /api/v1/agreement.' }).max(100).optional(),
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
 * Accepts the agreement version the client showed (`{ version }` from GET /api/v1/agreement): 409
 * when the text has changed since, as /details answers. Without a body, the current version. The
 * acceptance records the terms, the MITC and the consent statement (all three are in that text),
 * each as its own record with channel API; the investor charter and the consent to processing
 * personal data are recorded too when `documents` names their versions (docs/api.md).
 */
export const action = apiPost(async ({ request, context }: Route.ActionArgs) => {
  const user = await requireApiUser(request)
  const body = request.headers.get('Content-Type')?.includes('json') ? await readJsonBody(request, Body) : {}
  const current = currentVersions()
  const termsVersion = body.version ?? current.TERMS
  const shown: Partial<Record<ConsentDocumentKind, string>> = { ...body.documents }
  // The MITC and the consent statement are read as part of the terms' text, so at its version.
  for (const kind of API_CONTAINED_KINDS) shown[kind] ??= termsVersion === current.TERMS ? current[kind] : termsVersion
  shown.TERMS = termsVersion
  const accepted = await acceptAgreement(user.id, {
    shown,
    required: API_CONTAINED_KINDS,
    origin: { ip: context.clientIp, userAgent: request.headers.get('User-Agent'), channel: 'API' },
  })
  if (!accepted.signed) {
    return Response.json(
      {
        message: accepted.check.kinds.includes('TERMS')
          ? AGREEMENT_CHANGED_MESSAGE
          : `${AGREEMENT_CHANGED_MESSAGE} (${accepted.check.kinds.join(', ')})`,
        data: { version: accepted.currentVersions.TERMS, documents: accepted.currentVersions },
      },
      { status: 409 },
    )
  }
  return Response.json({
    message: 'Agreement accepted.',
    data: { agreement: true, version: current.TERMS, documents: accepted.versions },
  })
})
