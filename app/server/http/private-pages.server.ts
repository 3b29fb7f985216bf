import type { RequestHandler } from 'express'
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

/** Whether a Set-Cookie header (one or several) starts a session: the answer that signs someone in. */
function startsSession(setCookie: number | string | string[] | undefined): boolean {
  const cookies = Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [String(setCookie)]
  return cookies.some((cookie) => cookie.startsWith(`${sessionCookie.name}=`))
}

/**
 * The one rule for every answer (docs/architecture.md, Private pages): a request that carries the
 * session cookie, or an answer that sets it, is `private, no-store`, whatever the route chose:
 * pages and their client navigations' `.data`, resource routes, downloads, the JSON API, redirects
 * and errors alike, since each then shows its customer's data (a page's header, the name, at least).
 * Set just before the headers go, so no route can weaken it. A visitor's answer stays as its route made it.
 */
export function privateWhenSignedIn(): RequestHandler {
  return (req, res, next) => {
    const signedIn = readCookie(req.get('cookie'), sessionCookie.name) !== undefined
    const writeHead = res.writeHead
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
      if (signedIn || startsSession(res.getHeader('set-cookie'))) res.setHeader('Cache-Control', PRIVATE_NO_STORE)
      return writeHead.apply(this, args)
    } as typeof writeHead
    next()
  }
}
