import { data } from 'react-router'
import { getSessionUser, type SessionUser } from './session.server'

/**
 * The admin console's guard. Anyone who is not an ADMIN, signed in or not, gets the same 404 as an
 * unknown URL: the console does not reveal that it exists (no redirect to sign in).
 */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request)
  if (user?.role !== 'ADMIN') throw data('Not Found', { status: 404 })
  return user
}
