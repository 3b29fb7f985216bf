import { z } from 'zod'
import { apiPost, postOnly, readJsonBody } from '~/server/api/requests.server'
import { serviceJson } from '~/server/api/wire-shapes.server'
import { getActiveServices } from '~/server/catalog/services.server'
import type { Route } from './+types/services.get-specific-services'

const Body = z.object({
  services: z
    .array(z.string({ error: 'Service ids are strings.' }), { error: 'Send services: a list of service ids.' })
    .max(100),
})

export const loader = postOnly

/** The active services among the ids asked for, in the order asked; unknown or retired ids are left out. */
export const action = apiPost(async ({ request }: Route.ActionArgs) => {
  const { services: ids } = await readJsonBody(request, Body)
  const byId = new Map((await getActiveServices()).map((service) => [service.id, service]))
  const found = ids.flatMap((id) => {
    const service = byId.get(id)
    return service ? [serviceJson(service)] : []
  })
  return Response.json({ data: { data: found } })
})
