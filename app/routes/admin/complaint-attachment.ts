import { data } from 'react-router'
import { isUuid } from '~/domain/uuid'
import { requireAdmin } from '~/server/admin.server'
import { COMPLAINT_ATTACHMENT_PREFIX, complaintAttachmentKey } from '~/server/complaints.server'
import { panCardResponse } from '~/server/pan-card-image.server'
import type { Route } from './+types/complaint-attachment'

/** A complaint's attached image, for admins only; served like a PAN card (no sniffing, no scripts). */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request)
  if (!isUuid(params.complaintId)) throw data('Not Found', { status: 404 })
  const key = await complaintAttachmentKey(params.complaintId)
  return panCardResponse(key, { prefix: COMPLAINT_ATTACHMENT_PREFIX, filename: 'complaint-attachment' })
}
