import { isUuid } from '~/domain/uuid'
import { mandateJson, mandateOfferJson } from '~/server/api/mandate-json.server'
import { apiError, apiGet, getOnly, requireApiUser } from '~/server/api/requests.server'
import { consentOffer, customerMandates } from '~/server/payments/auto-renew.server'
import { MandateError } from '~/server/payments/mandates.server'
import type { Route } from './+types/mandates'

/**
 * The customer's automatic renewals (docs/api.md): live ones first, then the latest stopped. With
 * `?service=<id>`, also the consent to show before `mandates/create` (`offer`), or why it cannot be
 * turned on now (`refusal`).
 */
export const loader = apiGet(async ({ request }: Route.LoaderArgs) => {
  const user = await requireApiUser(request)
  const url = new URL(request.url)
  const serviceId = url.searchParams.get('service')
  if (serviceId !== null && !isUuid(serviceId))
    return apiError(400, 'Some fields are not valid.', { errors: { service: ['service is the id of a service.'] } })
  const mandates = await customerMandates(user.id)
  let offer: { offer: ReturnType<typeof mandateOfferJson> | null; refusal: string | null } | null = null
  if (serviceId !== null) {
    try {
      offer = { offer: mandateOfferJson(await consentOffer(user.id, serviceId)), refusal: null }
    } catch (error) {
      if (!(error instanceof MandateError)) throw error
      offer = { offer: null, refusal: error.message }
    }
  }
  return Response.json(
    {
      data: {
        data: {
          mandates: await Promise.all(mandates.map((mandate) => mandateJson(mandate, url.origin))),
          ...(offer ?? {}),
        },
      },
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
})

export const action = getOnly
