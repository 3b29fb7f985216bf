import { data } from 'react-router'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { researchAuditPack } from '~/server/research/audit-pack.server'
import { auditPackResponse } from '~/server/research/audit-pack-response.server'
import type { Route } from './+types/research-item-audit-pack'

/** One published item's audit pack (a zip, docs/research.md); a draft or unknown item is 404. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const admin = await requireAdmin(request)
  const pack = /^[0-9a-f-]{36}$/i.test(params.itemId)
    ? await researchAuditPack(admin.id, { itemId: params.itemId })
    : null
  if (!pack) throw data('Not Found', { status: 404 })
  return auditPackResponse(pack)
}
