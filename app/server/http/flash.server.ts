import { createCookie, redirect } from 'react-router'
import { boundedFlash, FlashSchema, type Flash } from '~/domain/flash'
import { env } from '../env.server'
import { serverSecret } from '../secrets.server'

// One message that survives the redirect after an action: the action sets it in a signed cookie,
// the root loader reads and clears it, and the layout shows it once (docs/architecture.md, Flash messages).

/** Long enough for a slow redirect to arrive; short enough that a message never turns up much later. */
export const FLASH_COOKIE_MAX_AGE_SECONDS = 60

const flashCookie = createCookie('flash', {
  httpOnly: true,
  secure: !env.DEMO_MODE,
  sameSite: 'lax',
  path: '/',
  maxAge: FLASH_COOKIE_MAX_AGE_SECONDS,
  secrets: [serverSecret('flash-cookie')],
})

/** The Set-Cookie header that carries `flash` to the next page. */
export function flashCookieHeader(flash: Flash): Promise<string> {
  return flashCookie.serialize(boundedFlash(flash))
}

/**
 * A redirect that shows `flash` on the page it leads to. Headers in `init` are kept (several
 * Set-Cookie headers are sent side by side).
 */
export async function redirectWithFlash(url: string, flash: Flash, init: ResponseInit = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  headers.append('Set-Cookie', await flashCookieHeader(flash))
  return redirect(url, { ...init, headers })
}

/**
 * The flash the request carries, if any, and the Set-Cookie header that clears it (null when
 * there was none): reading a flash uses it up.
 */
export async function readFlash(request: Request): Promise<{ flash: Flash | null; clearFlash: string | null }> {
  const cookieHeader = request.headers.get('Cookie')
  if (!cookieHeader?.includes('flash=')) return { flash: null, clearFlash: null }
  const value: unknown = await flashCookie.parse(cookieHeader)
  const clearFlash = await flashCookie.serialize('', { maxAge: 0 })
  const parsed = FlashSchema.safeParse(value)
  return { flash: parsed.success ? parsed.data : null, clearFlash }
}
