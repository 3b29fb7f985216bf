import { data } from 'react-router'
import { isUuid } from '~/domain/uuid'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { COMPLAINT_ATTACHMENT_PREFIX } from '~/server/complaints/filing.server'
import { complaintAttachmentKey } from '~/server/complaints/register.server'
import { panCardResponse } from '~/server/kyc/pan-card-image.server'
import type { Route } from './+types/complaint-attachment'

/** A complaint's attached image, for admins only; served like a PAN card (no sniffing, no scripts). */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request)
  if (!isUuid(params.complaintId)) throw data('Not Found', { status: 404 })
  const key = await complaintAttachmentKey(params.complaintId)
  return panCardResponse(key, { prefix: COMPLAINT_ATTACHMENT_PREFIX, filename: 'complaint-attachment' })
}
