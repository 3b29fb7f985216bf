import { z } from 'zod'

export const DEFAULT_COUNTRY = 'IN'
export const MOBILE_NUMBER_DIGITS = 10
export const OTP_DIGITS = 6

export const SendCodeSchema = z.object({
  // An ISO country code, with the dial code when the country has several ("XK-383").
  country: z.string({ error: 'Choose your country code.' }).regex(/^[A-Z]{2}(-\d{1,4})?$/, 'Choose your country code.'),
  mobile: z
    .string({ error: 'Enter your 10-digit mobile number.' })
    .transform((value) => value.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{10}$/, 'Enter your 10-digit mobile number, digits only.')),
})

export const VerifyCodeSchema = z.object({
  code: z
    .string({ error: 'Enter the 6-digit code we sent you.' })
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code we sent you.'),
})

/** "+91" and "9876543210" -> "+919876543210". */
export function toE164(dialCode: string, mobile: string): string {
  return `+${dialCode.replace(/^\+/, '')}${mobile}`
}
