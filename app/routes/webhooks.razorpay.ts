import { postOnly } from '~/server/api/requests.server'
import { handleWebhook } from '~/server/payments/webhooks.server'
import type { Route } from './+types/webhooks.razorpay'

export const loader = postOnly

/**
 * Razorpay's webhooks (configure https://<host>/webhooks/razorpay). Outside /api/v1, so no XSRF
 * pair: the signature over the raw bytes is the check, and Razorpay's servers send no Origin.
 */
export async function action({ request }: Route.ActionArgs) {
  const rawBody = new Uint8Array(await request.arrayBuffer())
  const result = await handleWebhook(rawBody, request.headers.get('x-razorpay-signature'))
  return Response.json({ outcome: result.outcome }, { status: result.status })
}
