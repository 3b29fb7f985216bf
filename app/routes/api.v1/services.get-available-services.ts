import { apiGet, getOnly } from '~/server/api/requests.server'
import { serviceEntryJson } from '~/server/api/wire-shapes.server'
import { getActiveServices } from '~/server/catalog/services.server'

/** The existing clients' list of `{ _id, service: { _id, name, description, price, duration } }`, at `data.data`. */
export const loader = apiGet(async () => {
  const services = await getActiveServices()
  return Response.json({ data: { data: services.map(serviceEntryJson) } })
})

export const action = getOnly
