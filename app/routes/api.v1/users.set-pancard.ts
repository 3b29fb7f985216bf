import { adultBirthDateMissingMessage, hasAdultBirthDate, profileStep } from '~/domain/profile'
import { SAVE_DETAILS_AT } from '~/server/api/wire-shapes.server'
import { apiError, apiPost, postOnly, requireApiUser } from '~/server/api/requests.server'
import { readPanCardUpload } from '~/server/kyc/pan-card-image.server'
import { discardReceivedFile } from '~/server/http/received-file.server'
import { PAN_CARD_LOCKED_MESSAGE, savePanCard } from '~/server/account/profile.server'
import type { Route } from './+types/users.set-pancard'

export const loader = postOnly

/**
 * Multipart field `pancard`, with the page's limits: 413 too large, 415 not an image, 400 missing.
 * 409 before an adult date of birth is saved, and for a complete profile, whose card changes only
 * through a correction request: the image is not read (its connection closes, decision 002).
 */
export const action = apiPost(async ({ request }: Route.ActionArgs) => {
  const user = await requireApiUser(request)
  if (profileStep(user) === 'complete')
    return apiError(409, PAN_CARD_LOCKED_MESSAGE, { headers: { Connection: 'close' } })
  if (!hasAdultBirthDate(user.dateOfBirth, new Date())) {
    return apiError(409, adultBirthDateMissingMessage(user.dateOfBirth, SAVE_DETAILS_AT), {
      headers: { Connection: 'close' },
    })
  }
  const upload = await readPanCardUpload(request)
  if (!upload.ok) return apiError(upload.status, upload.message, { headers: upload.headers })
  try {
    const saved = await savePanCard(user, upload)
    if (!saved.ok) return apiError(saved.status, saved.message)
    return Response.json({ message: 'PAN card saved.', data: { pancard: '/details/pan-card' } })
  } finally {
    // Moved into storage by now, or not to be kept (decision 058).
    await discardReceivedFile(upload.file)
  }
})
