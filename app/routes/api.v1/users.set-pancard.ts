import { apiError, apiPost, postOnly, requireApiUser } from '~/server/api/requests.server'
import { readPanCardUpload } from '~/server/kyc/pan-card-image.server'
import { savePanCard } from '~/server/account/profile.server'
import type { Route } from './+types/users.set-pancard'

export const loader = postOnly

/** Multipart field `pancard`, with the page's limits: 413 too large, 415 not an image, 400 missing. */
export const action = apiPost(async ({ request }: Route.ActionArgs) => {
  const user = await requireApiUser(request)
  const upload = await readPanCardUpload(request)
  if (!upload.ok) return apiError(upload.status, upload.message, { headers: upload.headers })
  await savePanCard(user, upload)
  return Response.json({ message: 'PAN card saved.', data: { pancard: '/details/pan-card' } })
})
