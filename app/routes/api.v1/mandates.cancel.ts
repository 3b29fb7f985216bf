import { z } from 'zod'
import { autoRenewStoppedMessage } from '~/domain/auto-renew-status'
import { apiError, apiPost, postOnly, readJsonBody, requireApiUser } from '~/server/api/requests.server'
import { stopOwnAutoRenew } from '~/server/payments/auto-renew.server'
import type { Route } from './+types/mandates.cancel'

const Body = z.object({ mandate: z.string({ error: 'Send mandate: the _id of one of your mandates.' }).max(100) })

export const loader = postOnly

/** Stops the customer's automatic renewal (docs/api.md): nothing more is charged; the paid period runs to its end. */
export const action = apiPost(async ({ request }: Route.ActionArgs) => {
  const user = await requireApiUser(request)
  const { mandate } = await readJsonBody(request, Body)
  const result = await stopOwnAutoRenew(user.id, mandate)
  if (!result) return apiError(404, 'There is no such mandate.')
  return Response.json({
    message: autoRenewStoppedMessage(result.serviceName, result.stopped),
    data: { cancelled: result.stopped },
  })
})
