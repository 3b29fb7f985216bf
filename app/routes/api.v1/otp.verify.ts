import { VerifyCodeSchema } from '~/domain/sign-in'
import { apiError, apiPost, postOnly, readJsonBody, tooManyRequests } from '~/server/api/requests.server'
import { SignInError, signInWithVerifiedCode } from '~/server/auth/sign-in.server'
import { createSession } from '~/server/session.server'
import type { Route } from './+types/otp.verify'
import { PhoneNumberBody } from './otp.request'

const VerifyBody = PhoneNumberBody.extend({ otp: VerifyCodeSchema.shape.code })

export const loader = postOnly

/** Signs in with the same session cookie the pages use. */
export const action = apiPost(async ({ request, context }: Route.ActionArgs) => {
  const { number, otp } = await readJsonBody(request, VerifyBody)
  try {
    const userId = await signInWithVerifiedCode({ phone: number, code: otp, ip: context.clientIp })
    return Response.json(
      { message: 'Signed in.', data: { number } },
      { headers: { 'Set-Cookie': await createSession(userId) } },
    )
  } catch (error) {
    if (!(error instanceof SignInError)) throw error
    return error.retryAfterMs === undefined
      ? apiError(400, error.message)
      : tooManyRequests(error.message, error.retryAfterMs)
  }
})
