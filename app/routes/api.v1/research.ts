import { UNKNOWN_SERVICE_FILTER_MESSAGE } from '~/domain/research-list'
import { INVALID_CURSOR_MESSAGE } from '~/components/pager'
import { apiError, apiGet, getOnly, requireApiUser } from '~/server/api/requests.server'
import { researchEntryJson } from '~/server/api/research-json.server'
import { researchListFor } from '~/server/research/delivered.server'
import type { Route } from './+types/research'

/** One page of the caller's research, newest first; ?service= and the cursors as on /research, a bad one 400. */
export const loader = apiGet(async ({ request }: Route.LoaderArgs) => {
  const user = await requireApiUser(request)
  const list = await researchListFor(user.id, new URL(request.url).searchParams)
  if (list.invalidService || list.invalidCursor)
    return apiError(400, list.invalidService ? UNKNOWN_SERVICE_FILTER_MESSAGE : INVALID_CURSOR_MESSAGE, {
      errors: {
        ...(list.invalidService ? { service: [UNKNOWN_SERVICE_FILTER_MESSAGE] } : {}),
        ...(list.invalidCursor ? { cursor: [INVALID_CURSOR_MESSAGE] } : {}),
      },
    })
  return Response.json(
    {
      data: {
        data: {
          research: list.rows.map(researchEntryJson),
          services: list.services.map((service) => ({ _id: service.id, name: service.name })),
          next: list.next,
          previous: list.previous,
        },
      },
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
})

export const action = getOnly
