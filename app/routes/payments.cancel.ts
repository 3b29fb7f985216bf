import { redirect } from 'react-router'
import { hasControlCharacter } from '~/domain/control-characters'
import { getSessionUser } from '~/server/session.server'
import { closeGatewayCheckout } from '~/server/payments/checkout.server'
import type { Route } from './+types/payments.cancel'

/**
 * The hosted checkout's cancel_url: the customer closed it or pressed back. A top-level GET, so the
 * session cookie comes along and the order is cancelled as the customer's own (a link someone else
 * sends cannot cancel another person's order). The cart is untouched.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getSessionUser(request)
  const orderId = new URL(request.url).searchParams.get('order')
  // An attempt that failed before the close stays FAILED, and /pay says the failure.
  const outcome =
    user && orderId && !hasControlCharacter(orderId) ? await closeGatewayCheckout(user.id, orderId) : 'dismissed'
  return redirect(`/pay?outcome=${outcome}`, 303)
}
