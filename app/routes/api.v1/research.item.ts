import { isUuid } from '~/domain/uuid'
import { apiError, apiGet, getOnly, requireApiUser } from '~/server/api/requests.server'
import { researchItemJson } from '~/server/api/research-json.server'
import { markResearchRead, researchItemForCustomer } from '~/server/research/delivered.server'
import type { Route } from './+types/research.item'

/** One item the caller may read (as /research/:id); 404 for any other id, the same as for none. */
export const loader = apiGet(async ({ request, params }: Route.LoaderArgs) => {
  const user = await requireApiUser(request)
  const item = isUuid(params.itemId) ? await researchItemForCustomer(user.id, params.itemId) : null
  if (!item) return apiError(404, 'There is no such research item.')
  await markResearchRead(user.id, item.id)
  return Response.json(
    { data: { data: { research: researchItemJson(item) } } },
    {
      headers: { 'Cache-Control': 'private, no-store' },
    },
  )
})

export const action = getOnly
