import { serializeCart } from '../payments/cart.server'
import { destroySession } from '../session.server'

/**
 * Signing out (or closing the account) ends the session and empties the cart, so the next person at
 * a shared phone or computer does not find someone else's choice of services.
 */
export async function signOutHeaders(request: Request): Promise<Headers> {
  const headers = new Headers()
  headers.append('Set-Cookie', await destroySession(request))
  headers.append('Set-Cookie', await serializeCart([]))
  return headers
}
