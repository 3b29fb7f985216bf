import { profileStep } from '~/domain/profile'
import { apiError, apiPost, postOnly, requireApiUser } from '~/server/api/requests.server'
import { readPanCardUpload } from '~/server/kyc/pan-card-image.server'
import { PAN_CARD_LOCKED_MESSAGE, savePanCard } from '~/server/account/profile.server'
import type { Route } from './+types/users.set-pancard'

export const loader = postOnly

/**
 * Multipart field `pancard`, with the page's limits: 413 too large, 415 not an image, 400 missing.
 * A complete profile's card changes only through a correction request: 409, before the body is
 * read (so the connection is closed: decision 002).
 */
export const action = apiPost(async ({ request }: Route.ActionArgs) => {
  const user = await requireApiUser(request)
  if (profileStep(user) === 'complete')
    return apiError(409, PAN_CARD_LOCKED_MESSAGE, { headers: { Connection: 'close' } })
  const upload = await readPanCardUpload(request)
  if (!upload.ok) return apiError(upload.status, upload.message, { headers: upload.headers })
  const saved = await savePanCard(user, upload)
  if (!saved.ok) return apiError(saved.status, saved.message)
  return Response.json({ message: 'PAN card saved.', data: { pancard: '/details/pan-card' } })
})
