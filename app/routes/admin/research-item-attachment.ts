import { isUuid } from '~/domain/uuid'
import { requireAdmin } from '~/server/auth/admin-role.server'
import {
  notFoundAttachment,
  researchAttachmentOf,
  researchAttachmentResponse,
} from '~/server/research/attachment.server'
import type { Route } from './+types/research-item-attachment'

/** An item's PDF (a draft's too, for the preview), to admins only; anyone else gets 404. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request)
  const attachment = isUuid(params.itemId) ? await researchAttachmentOf(params.itemId) : null
  return attachment ? researchAttachmentResponse(attachment) : notFoundAttachment()
}
