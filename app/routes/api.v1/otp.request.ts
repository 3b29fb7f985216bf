import { z } from 'zod'
import { INDIAN_MOBILE_MESSAGE, isIndianMobileNumber, OTP_DIGITS, stripPhoneSeparators } from '~/domain/sign-in'
import { OTP_VALID_MINUTES } from '~/domain/one-time-codes'
import { apiPost, postOnly, readJsonBody, tooManyRequests } from '~/server/api/requests.server'
import { requestOtp } from '~/server/auth/one-time-codes.server'
import type { Route } from './+types/otp.request'

export const PhoneNumberBody = z.object({
  number: z
    .string({ error: 'Send the mobile number with its dial code, like +919876543210.' })
    .transform((value) => `+${stripPhoneSeparators(value).replace(/^\+/, '')}`)
    .pipe(z.string().regex(/^\+[1-9]\d{10,14}$/, 'Send the mobile number with its dial code, like +919876543210.'))
    .refine((number) => !number.startsWith('+91') || isIndianMobileNumber(number.slice(3)), INDIAN_MOBILE_MESSAGE),
})

export const loader = postOnly

export const action = apiPost(async ({ request, context }: Route.ActionArgs) => {
  const { number } = await readJsonBody(request, PhoneNumberBody)
  const sent = await requestOtp({ phone: number, ip: context.clientIp })
  if (!sent.ok) return tooManyRequests(sent.message, sent.retryAfterMs)
  return Response.json({
    message: `We sent a ${OTP_DIGITS}-digit code to this number. It is valid for ${OTP_VALID_MINUTES} minutes.`,
  })
})
