import { z } from 'zod'
import { apiError, postOnly, readJsonBody } from '~/server/api.server'
import { requestOtp } from '~/server/otp.server'
import type { Route } from './+types/otp.request'

export const PhoneNumberBody = z.object({
  number: z
    .string({ error: 'Send the mobile number with its dial code, like +919876543210.' })
    .transform((value) => `+${value.replace(/[\s-]/g, '').replace(/^\+/, '')}`)
    .pipe(z.string().regex(/^\+[1-9]\d{10,14}$/, 'Send the mobile number with its dial code, like +919876543210.')),
})

export const loader = postOnly

export async function action({ request, context }: Route.ActionArgs) {
  const { number } = await readJsonBody(request, PhoneNumberBody)
  const sent = await requestOtp({ phone: number, ip: context.clientIp })
  if (!sent.ok) return apiError(429, sent.message, { headers: { 'Retry-After': String(Math.ceil(sent.retryAfterMs / 1000)) } })
  return Response.json({ message: 'We sent a 6-digit code to this number. It is valid for 5 minutes.' })
}
