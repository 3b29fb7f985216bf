import { z } from 'zod'
import { acceptAgreement, AGREEMENT_CHANGED_MESSAGE } from '~/server/agreement-signing.server'
import { apiPost, postOnly, readJsonBody, requireApiUser } from '~/server/api.server'
import type { Route } from './+types/users.set-agreement'

const Body = z.object({ version: z.string({ error: 'version is the text of GET /api/v1/agreement.' }).optional() })

export const loader = postOnly

/**
 * Accepts the agreement version the client showed (`{ version }` from GET /api/v1/agreement): 409
 * when the text has changed since, as /details answers. Without a body, the current version.
 */
export const action = apiPost(async ({ request, context }: Route.ActionArgs) => {
  const user = await requireApiUser(request)
  const { version } = request.headers.get('Content-Type')?.includes('json') ? await readJsonBody(request, Body) : {}
  const accepted = await acceptAgreement(user.id, { shownVersion: version, ip: context.clientIp })
  if (!accepted.signed) {
    return Response.json(
      { message: AGREEMENT_CHANGED_MESSAGE, data: { version: accepted.currentVersion } },
      { status: 409 },
    )
  }
  return Response.json({ message: 'Agreement accepted.', data: { agreement: true, version: accepted.version } })
})
