import { z } from 'zod'
import { mandateConsentVersion } from '~/domain/mandates'
import { autoRenewPath, mandateJson } from '~/server/api/mandate-json.server'
import { apiError, apiPost, postOnly, readJsonBody, requireApiCustomer } from '~/server/api/requests.server'
import { authorisationUrl, liveMandateOf } from '~/server/payments/auto-renew.server'
import { GatewayError } from '~/server/payments/gateway/razorpay.server'
import { MandateError, turnOnAutoRenew } from '~/server/payments/mandates.server'
import type { Route } from './+types/mandates.create'

const Body = z.object({
  service: z.uuid({ error: 'service is the id of a service you hold.' }),
  consentVersion: z
    .string({ error: "consentVersion is the offer's consentVersion (GET /api/v1/mandates?service=)." })
    .max(100),
  consentSha256: z
    .string({ error: "consentSha256 is the offer's consentSha256: the SHA-256 of the consent text shown." })
    .regex(/^[0-9a-f]{64}$/, 'consentSha256 is 64 lowercase hex digits.'),
})

export const loader = postOnly

/**
 * Turns automatic renewal on with the consent the app showed (docs/api.md): its version and hash
 * must be the offer's now (409 otherwise: show it again). Answers the mandate, waiting for the
 * customer's authorisation at `authorisationUrl`.
 */
export const action = apiPost(async ({ request, context }: Route.ActionArgs) => {
  const user = await requireApiCustomer(request)
  const body = await readJsonBody(request, Body)
  if (body.consentVersion !== mandateConsentVersion(body.consentSha256))
    return apiError(400, 'Some fields are not valid.', {
      errors: { consentVersion: ['consentVersion and consentSha256 are not of the same consent text.'] },
    })
  const origin = new URL(request.url).origin
  try {
    const started = await turnOnAutoRenew(user.id, body.service, {
      shownSha256: body.consentSha256,
      origin: { ip: context.clientIp, userAgent: request.headers.get('User-Agent'), channel: 'API' },
    })
    const mandate = await liveMandateOf(user.id, body.service)
    return Response.json({
      message: 'Automatic renewal is waiting for your authorisation at the payment gateway.',
      data: {
        mandate: mandate ? await mandateJson(mandate, origin) : null,
        authorisationUrl: authorisationUrl(
          { id: started.gatewaySubscriptionId, shortUrl: started.shortUrl },
          { origin, returnTo: autoRenewPath(body.service) },
        ),
      },
    })
  } catch (error) {
    if (error instanceof MandateError) return apiError(error.status, error.message)
    if (error instanceof GatewayError)
      return apiError(503, 'The payment gateway did not answer. Nothing was set up: please try again in a moment.')
    throw error
  }
})
