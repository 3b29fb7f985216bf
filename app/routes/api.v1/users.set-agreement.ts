import { AGREEMENT } from '~/content/agreement.server'
import { postOnly, requireApiUser } from '~/server/api.server'
import { recordAgreementAcceptance } from '~/server/profile.server'
import type { Route } from './+types/users.set-agreement'

export const loader = postOnly

/** Accepts the current agreement version (GET /api/v1/agreement shows it). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireApiUser(request)
  await recordAgreementAcceptance(user.id, { version: AGREEMENT.version, textSha256: AGREEMENT.textSha256, ip: context.clientIp })
  return Response.json({ message: 'Agreement accepted.', data: { agreement: true, version: AGREEMENT.version } })
}
