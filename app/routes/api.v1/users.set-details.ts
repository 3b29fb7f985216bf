import { profileDetailsSchema } from '~/domain/profile'
import { apiError, apiPost, postOnly, readJsonBody, requireApiUser } from '~/server/api/requests.server'
import { saveProfileDetails } from '~/server/account/profile.server'
import type { Route } from './+types/users.set-details'

export const loader = postOnly

export const action = apiPost(async ({ request }: Route.ActionArgs) => {
  const user = await requireApiUser(request)
  const details = await readJsonBody(request, profileDetailsSchema(new Date()))
  const saved = await saveProfileDetails(user.id, details)
  if (!saved.ok) {
    if (saved.field === null) return apiError(saved.status, saved.message)
    return apiError(409, saved.message, { errors: { [saved.field]: [saved.message] } })
  }
  return Response.json({
    message: 'Details saved.',
    data: { details, kyc: { status: saved.kyc.status, reference: saved.kyc.reference } },
  })
})
