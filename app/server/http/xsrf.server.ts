import { randomBytes, timingSafeEqual } from 'node:crypto'

/** The existing clients' cookie/header pair (axios' defaults): the cookie is readable by the client's script. */
export const XSRF_COOKIE = 'XSRF-TOKEN'
export const XSRF_HEADER = 'X-XSRF-TOKEN'
/** The 403 of a state-changing call without the pair (docs/api.md, "403 answers"). */
export const XSRF_REFUSAL_MESSAGE = `Send the ${XSRF_COOKIE} cookie's value in the ${XSRF_HEADER} header.`

export function newXsrfToken(): string {
  return randomBytes(24).toString('base64url')
}

/** Double submit: a state-changing call must echo the cookie's value in the header. */
export function isXsrfValid(cookieValue: string | undefined, headerValue: string | undefined): boolean {
  if (!cookieValue || !headerValue) return false
  const expected = Buffer.from(cookieValue)
  const given = Buffer.from(headerValue)
  return expected.length === given.length && timingSafeEqual(expected, given)
}

/** The cookie's value; undefined when it is missing or not valid percent-encoding (a client's mistake, not our error). */
export function readCookie(cookieHeader: string | undefined, name: string): string | undefined {
  for (const pair of (cookieHeader ?? '').split(';')) {
    const [key, ...value] = pair.trim().split('=')
    if (key !== name) continue
    try {
      return decodeURIComponent(value.join('='))
    } catch {
      return undefined
    }
  }
  return undefined
}
