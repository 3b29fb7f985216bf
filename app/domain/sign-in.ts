import { z } from 'zod'

export const DEFAULT_COUNTRY = 'IN'
/** A session not used for this long ends (the privacy policy states it; the session store enforces it). */
export const SESSION_IDLE_DAYS = 30
export const MOBILE_NUMBER_DIGITS = 10
export const OTP_DIGITS = 6
/** The wait after a number's first code; it doubles with each further code of the hour. */
export const OTP_RESEND_COOLDOWN_MS = 30_000
/** The longest a number ever waits for another code, so whoever holds the phone is never locked out for long. */
export const OTP_RESEND_WAIT_MAX_MS = 5 * 60_000
/** Codes sent to a number this long ago no longer lengthen its wait. */
export const OTP_RESEND_MEMORY_MS = 60 * 60_000

/** How long after its latest code a number may have another, given the codes it was sent in the last hour. */
export function otpResendWaitMs(codesInLastHour: number): number {
  if (codesInLastHour <= 0) return 0
  return Math.min(OTP_RESEND_COOLDOWN_MS * 2 ** Math.min(codesInLastHour - 1, 16), OTP_RESEND_WAIT_MAX_MS)
}

export const MOBILE_NUMBER_MESSAGE = 'Enter your 10-digit mobile number, like 98765 43210.'
export const INDIAN_MOBILE_MESSAGE =
  'Indian mobile numbers start with 6, 7, 8 or 9. For a number from another country, choose its country code first.'

/** India's mobile numbers begin with 6 to 9; 0 to 5 begin landline, service and toll-free numbers, which get no SMS. */
export function isIndianMobileNumber(national: string): boolean {
  return /^[6-9]\d{9}$/.test(national)
}

export const SIGN_IN_TO_PAY_REASON =
  'To pay, sign in with your mobile number; new here, the same code signs you up. Your cart is kept: once you are in (and, if you are new, have given your details), you go on to pay.'

/** Why a visitor was sent to sign in, said above the form: from "Proceed to Pay" (or a renewal link), to pay. */
export function signInReason(redirectTo: string): string | null {
  const path = redirectTo.split(/[?#]/)[0]!
  return path === '/pay' || path.startsWith('/renew/') ? SIGN_IN_TO_PAY_REASON : null
}

/** What people type or paste between a phone number's digits: spaces, hyphens, dots, brackets. */
export function stripPhoneSeparators(written: string): string {
  return written.replace(/[\s\-\u2010-\u2015.()]/g, '')
}

/**
 * The 10 national digits of a mobile number however it was written for the dial code chosen:
 * "9876543210", "+91 98765 43210", "0091 98765 43210", "91 98765 43210" or "098765 43210" all give
 * "9876543210"; null when the digits left are not 10 (or a "+" names another country code).
 */
export function nationalMobileNumber(written: string, dialCode: string): string | null {
  const digits = stripPhoneSeparators(written)
  const withLength = (length: number) => digits.length === length
  let national = digits
  if (digits.startsWith('+')) national = digits.startsWith(`+${dialCode}`) ? digits.slice(1 + dialCode.length) : ''
  else if (withLength(2 + dialCode.length + MOBILE_NUMBER_DIGITS) && digits.startsWith(`00${dialCode}`))
    national = digits.slice(2 + dialCode.length)
  else if (withLength(dialCode.length + MOBILE_NUMBER_DIGITS) && digits.startsWith(dialCode))
    national = digits.slice(dialCode.length)
  else if (withLength(1 + MOBILE_NUMBER_DIGITS) && digits.startsWith('0')) national = digits.slice(1)
  return national.length === MOBILE_NUMBER_DIGITS && /^\d+$/.test(national) ? national : null
}

export const SendCodeSchema = z.object({
  // An ISO country code, with the dial code when the country has several ("XK-383").
  country: z.string({ error: 'Choose your country code.' }).regex(/^[A-Z]{2}(-\d{1,4})?$/, 'Choose your country code.'),
  // Digits with an optional leading "+": the action reads the national number for the country chosen (nationalMobileNumber).
  mobile: z
    .string({ error: 'Enter your 10-digit mobile number.' })
    .transform(stripPhoneSeparators)
    .pipe(z.string().regex(/^\+?\d{10,16}$/, MOBILE_NUMBER_MESSAGE)),
})

/** A one-time code as typed into any form (sign-in, closing an account, a new e-mail address, a complaint). */
export const OneTimeCodeSchema = z
  .string({ error: 'Enter the 6-digit code we sent you.' })
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code we sent you.')

export const VerifyCodeSchema = z.object({ code: OneTimeCodeSchema })

/**
 * The /auth form's four buttons. The code itself is checked by the sign-in strategy
 * (VerifyCodeSchema, in app/server/auth/sign-in.server.ts), which reads the same form.
 */
export const SignInFormSchema = z.discriminatedUnion('intent', [
  SendCodeSchema.extend({ intent: z.literal('send') }),
  z.object({ intent: z.literal('resend') }),
  z.object({ intent: z.literal('change') }),
  z.object({ intent: z.literal('verify') }),
])
export type SignInForm = z.infer<typeof SignInFormSchema>

/** "+91" and "9876543210" -> "+919876543210". */
export function toE164(dialCode: string, mobile: string): string {
  return `+${dialCode.replace(/^\+/, '')}${mobile}`
}
