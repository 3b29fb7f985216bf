// Requests for calling route modules' loaders and actions directly, as React Router would.

const ORIGIN = 'http://localhost'

/** The `name=value` pair of a Set-Cookie header, to send back in a Cookie header. */
export const cookieOf = (setCookie: string): string => setCookie.split(';')[0]!

function headersWith(cookie: Cookies | undefined, contentType?: string, headers?: HeadersInit): Headers {
  const result = new Headers(headers)
  const cookies = typeof cookie === 'string' ? [cookie] : (cookie ?? [])
  if (cookies.length > 0) result.set('Cookie', cookies.map(cookieOf).join('; '))
  if (contentType) result.set('Content-Type', contentType)
  return result
}

/** A `name=value` pair or a whole Set-Cookie header (its pair is sent), or several of them; none for a visitor. */
type Cookies = string | string[]

/** A GET of `path` (with its query) on the app. */
export function getRequest(path: string, cookie?: Cookies, headers?: HeadersInit): Request {
  return new Request(`${ORIGIN}${path}`, { headers: headersWith(cookie, undefined, headers) })
}

/** A form post, as a page's <form method="post"> sends it. */
export function formRequest(path: string, fields: Record<string, string>, cookie?: Cookies): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: headersWith(cookie, 'application/x-www-form-urlencoded'),
    body: new URLSearchParams(fields),
  })
}

/** A JSON post, as the API's clients send one. */
export function jsonRequest(path: string, body: unknown, cookie?: Cookies): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: headersWith(cookie, 'application/json'),
    body: JSON.stringify(body),
  })
}

/** The load context server/app.ts gives every request. */
export const TEST_LOAD_CONTEXT = { clientIp: '127.0.0.1', cspNonce: '' }

/** A loader's or action's arguments; typed loosely, as each route module types its own. */
export function routeArgs(
  request: Request,
  params: Record<string, string> = {},
  context: object = TEST_LOAD_CONTEXT,
): never {
  return { request, params, context } as never
}
