import { correctionRequestSchema } from '~/domain/kyc'
import { apiError, apiPost, postOnly, readJsonBody, requireApiUser } from '~/server/api/requests.server'
import { fileCorrectionRequest } from '~/server/account/corrections.server'
import type { Route } from './+types/users.request-correction'

export const loader = postOnly

/** A complete profile's name, PAN or date of birth, by the same rules and the same request as /account/corrections. */
export const action = apiPost(async ({ request }: Route.ActionArgs) => {
  const user = await requireApiUser(request)
  const correction = await readJsonBody(request, correctionRequestSchema(new Date()))
  const outcome = await fileCorrectionRequest(user.id, correction)
  if (!outcome.ok) return apiError(outcome.status, outcome.message)
  return Response.json({ message: outcome.message, data: { status: 'PENDING' } })
})
