import { data } from 'react-router'
import { AuditPackRangeSchema } from '~/domain/research-audit-pack'
import { requireAdmin } from '~/server/auth/admin-role.server'
import { researchAuditPack } from '~/server/research/audit-pack.server'
import { auditPackResponse } from '~/server/research/audit-pack-response.server'
import type { Route } from './+types/research-audit-pack'

/** The audit pack of every item published on the India dates ?from= to ?to= (both included), streamed. */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request)
  const parsed = AuditPackRangeSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams))
  if (!parsed.success) throw data(parsed.error.issues[0]!.message, { status: 400 })
  return auditPackResponse((await researchAuditPack(admin.id, parsed.data))!)
}
