import { isUuid } from '~/domain/uuid'
import { requireUser } from '~/server/auth/sign-in.server'
import { researchItemForCustomer } from '~/server/research/delivered.server'
import {
  notFoundAttachment,
  researchAttachmentOf,
  researchAttachmentResponse,
} from '~/server/research/attachment.server'
import type { Route } from './+types/research.item-attachment'

/**
 * An item's PDF, downloaded: only by a reader the item's page shows it to (researchItemForCustomer,
 * the one rule), anyone else the same 404 as for no item or no attachment.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const item = isUuid(params.itemId) ? await researchItemForCustomer(user.id, params.itemId) : null
  const attachment = item ? await researchAttachmentOf(item.id) : null
  return attachment ? researchAttachmentResponse(attachment) : notFoundAttachment()
}
