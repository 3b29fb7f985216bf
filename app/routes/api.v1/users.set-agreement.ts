import { currentAgreement } from '~/content/legal/agreement.server'
import { agreementSigning } from '~/server/agreement-signing.server'
import { apiPost, postOnly, requireApiUser } from '~/server/api.server'
import { businessDetails } from '~/server/business.server'
import type { Route } from './+types/users.set-agreement'

export const loader = postOnly

/** Accepts the current agreement version (GET /api/v1/agreement shows it). */
export const action = apiPost(async ({ request, context }: Route.ActionArgs) => {
  const user = await requireApiUser(request)
  const agreement = currentAgreement(businessDetails)
  await agreementSigning().sign(user.id, {
    version: agreement.version,
    textSha256: agreement.textSha256,
    ip: context.clientIp,
  })
  return Response.json({ message: 'Agreement accepted.', data: { agreement: true, version: agreement.version } })
})
