import { randomUUID } from 'node:crypto'
import { createCookie, redirect } from 'react-router'
import { Authenticator } from 'remix-auth'
import { Strategy } from 'remix-auth/strategy'
import { profileStep } from '~/domain/profile'
import { termsToAccept } from '../account/terms-versions.server'
import { consentsMissingToPay } from '../account/acceptances.server'
import { safeRedirect, withRedirectTo } from '~/domain/redirect'
import { VerifyCodeSchema } from '~/domain/sign-in'
import { roleForPhone } from './admin-role.server'
import { prisma } from '../db.server'
import { env } from '../env.server'
import { closedAccountMessage } from '~/domain/account-closing'
import { businessDetails } from '../business.server'
import { verifyOtp } from './one-time-codes.server'
import { serverSecret } from '../secrets.server'
import { getSessionUser, type SessionUser } from '../session.server'

/** A refusal the sign-in page shows as is; `retryAfterMs` when a rate limit refused it (the API's 429). */
export class SignInError extends Error {
  override name = 'SignInError'
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message)
  }
}

type PhoneOtpInput = { phone: string; code: string; ip: string; device?: string | null }
type PhoneOtpContext = { phone: string | null; ip: string; device?: string | null }

/** remix-auth strategy: the code comes from the form, the phone from the pending sign-in cookie. */
class PhoneOtpStrategy extends Strategy<SessionUser['id'], PhoneOtpInput> {
  name = 'phone-otp'

  constructor(
    private readonly context: (request: Request) => Promise<PhoneOtpContext>,
    verify: Strategy.VerifyFunction<SessionUser['id'], PhoneOtpInput>,
  ) {
    super(verify)
  }

  async authenticate(request: Request): Promise<string> {
    const { phone, ip, device } = await this.context(request)
    if (!phone) throw new SignInError('Your sign-in took too long. Enter your number again.')
    const form = await request.clone().formData()
    const parsed = VerifyCodeSchema.safeParse({ code: form.get('code') })
    if (!parsed.success) throw new SignInError(parsed.error.issues[0]!.message)
    return this.verify({ phone, code: parsed.data.code, ip, device })
  }
}

/** Signs in (creating the account on first sign-in) once the code checks out; returns the user id. */
export async function signInWithVerifiedCode({ phone, code, ip, device }: PhoneOtpInput): Promise<string> {
  const verified = await verifyOtp({ phone, code, ip, device })
  if (!verified.ok) throw new SignInError(verified.message, verified.retryAfterMs)
  const closed = await prisma.user.findUnique({ where: { phone }, select: { closedAt: true } })
  if (closed?.closedAt) throw new SignInError(closedAccountMessage(closed.closedAt, businessDetails.supportEmail))
  const role = roleForPhone(phone)
  const user = await prisma.user.upsert({
    where: { phone },
    create: { phone, role },
    update: { role },
    select: { id: true },
  })
  return user.id
}

export function phoneOtpAuthenticator(context: (request: Request) => Promise<PhoneOtpContext>) {
  return new Authenticator<string>().use(new PhoneOtpStrategy(context, signInWithVerifiedCode))
}

function currentPath(request: Request): string {
  const url = new URL(request.url)
  return `${url.pathname}${url.search}`
}

export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request)
  if (!user) throw redirect(withRedirectTo('/auth', currentPath(request)))
  return user
}

/** Protected pages other than /details: signed in with all three profile steps done. */
export async function requireCompleteProfile(request: Request): Promise<SessionUser> {
  const user = await requireUser(request)
  if (profileStep(user) !== 'complete') throw redirect(withRedirectTo('/details', currentPath(request)))
  return user
}

/**
 * The pages that pay (/pay, the /subscriptions actions but ending a subscription): a complete
 * profile, the terms in force accepted, or the customer goes to /terms/accept first (and comes
 * back), and the Investor Charter and the consent to processing personal data acknowledged, or
 * the customer goes to /consents/accept first.
 */
export async function requirePayingCustomer(request: Request, now = new Date()): Promise<SessionUser> {
  const user = await requireCompleteProfile(request)
  if (await termsToAccept(user, now)) throw redirect(withRedirectTo('/terms/accept', currentPath(request)))
  if ((await consentsMissingToPay(user.id)).length) {
    throw redirect(withRedirectTo('/consents/accept', currentPath(request)))
  }
  return user
}

/**
 * /auth is for signed-out visitors; a signed-in one continues at /details, as in the original store (docs/product.md
 * section 2).
 */
export async function requireAnonymous(request: Request): Promise<void> {
  if (await getSessionUser(request)) {
    const redirectTo = new URL(request.url).searchParams.get('redirectTo')
    throw redirect(withRedirectTo('/details', safeRedirect(redirectTo)))
  }
}

/** Between "Send OTP" and "Verify OTP": the number the code went to, signed, for 10 minutes. */
const pendingSignInCookie = createCookie('pending-sign-in', {
  httpOnly: true,
  secure: !env.DEMO_MODE,
  sameSite: 'lax',
  path: '/',
  maxAge: 10 * 60,
  secrets: [serverSecret('pending-sign-in-cookie')],
})

export async function readPendingPhone(request: Request): Promise<string | null> {
  const phone: unknown = await pendingSignInCookie.parse(request.headers.get('Cookie'))
  return typeof phone === 'string' ? phone : null
}

export const rememberPendingPhone = (phone: string) => pendingSignInCookie.serialize(phone)
export const forgetPendingPhone = () => pendingSignInCookie.serialize('', { maxAge: 0 })

/**
 * The sign-in page's browser, a random id in a signed cookie for a year: wrong codes are counted
 * per browser as well as per address, so one noisy browser behind a carrier address meets the 429,
 * not its neighbours (decision 023).
 */
const signInDeviceCookie = createCookie('sign-in-device', {
  httpOnly: true,
  secure: !env.DEMO_MODE,
  sameSite: 'lax',
  path: '/',
  maxAge: 365 * 24 * 60 * 60,
  secrets: [serverSecret('sign-in-device-cookie')],
})

export async function readSignInDevice(request: Request): Promise<string | null> {
  const device: unknown = await signInDeviceCookie.parse(request.headers.get('Cookie'))
  return typeof device === 'string' ? device : null
}

/** A Set-Cookie header giving this browser its device id, or null when it has one. */
export async function signInDeviceCookieFor(request: Request): Promise<string | null> {
  return (await readSignInDevice(request)) ? null : signInDeviceCookie.serialize(randomUUID())
}
