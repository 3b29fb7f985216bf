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
