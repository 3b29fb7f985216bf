import { profileDetailsSchema } from '~/domain/profile'
import { apiPost, postOnly, readJsonBody, requireApiUser } from '~/server/api.server'
import { saveProfileDetails } from '~/server/profile.server'
import type { Route } from './+types/users.set-details'

export const loader = postOnly

export const action = apiPost(async ({ request }: Route.ActionArgs) => {
  const user = await requireApiUser(request)
  const details = await readJsonBody(request, profileDetailsSchema(new Date()))
  await saveProfileDetails(user.id, details)
  return Response.json({ message: 'Details saved.', data: { details } })
})
