import { sessionCookie } from '~/server/session.server'
import { readCookie } from './xsrf.server'

/**
 * What a page of personal data (PAN, date of birth, payments, invoices) tells caches: nothing of it
 * may be stored, by the browser's back/forward and disk caches or by a shared proxy. React Router
 * calls a route's `headers` for its document and for its `.data` requests (client navigation)
 * alike, and child routes without their own `headers` inherit these.
 */
export const PRIVATE_NO_STORE = 'private, no-store'

/** `chosen` (a route's loader or action headers, for Set-Cookie or Connection) with Cache-Control added. */
export function privatePageHeaders(chosen?: Headers): Headers {
  const headers = new Headers(chosen)
  headers.set('Cache-Control', PRIVATE_NO_STORE)
  return headers
}

/**
 * The one rule for every page (docs/architecture.md, Private pages): a request that carries a session
 * cookie is answered `private, no-store`, its document and its client navigations' `.data` alike,
 * whatever the route's own `headers` chose: each page then shows its customer's data (the header's
 * name at least). A visitor's page stays as its route made it. Resource routes set their own.
 */
export function keepPrivateWhenSignedIn(request: Request, headers: Headers): void {
  if (readCookie(request.headers.get('Cookie') ?? undefined, sessionCookie.name) !== undefined) {
    headers.set('Cache-Control', PRIVATE_NO_STORE)
  }
}
