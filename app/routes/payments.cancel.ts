import { redirect } from 'react-router'
import { hasControlCharacter } from '~/domain/plain-text'
import { getSessionUser } from '~/server/session.server'
import { cancelGatewayPayment } from '~/server/payments/gateway.server'
import type { Route } from './+types/payments.cancel'

/**
 * The hosted checkout's cancel_url: the customer closed it or pressed back. A top-level GET, so the
 * session cookie comes along and the order is cancelled as the customer's own (a link someone else
 * sends cannot cancel another person's order). The cart is untouched.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request)
  const orderId = new URL(request.url).searchParams.get('order')
  if (user && orderId && !hasControlCharacter(orderId)) await cancelGatewayPayment(user.id, orderId)
  return redirect('/pay?outcome=dismissed', 303)
}
