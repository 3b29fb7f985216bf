import { z } from 'zod'
import { plainText } from './plain-text'
import { EMAIL_MAX_CHARS } from './profile'
import { isIndianMobileNumber, stripPhoneSeparators } from './sign-in'

// The person a customer names to exercise their data rights if they die or cannot (DPDP Act 2023,
// section 14): who they are and how to reach them, so the compliance officer can recognise them.

export const NOMINEE_NAME_MAX_CHARS = 100
export const NOMINEE_RELATIONSHIP_MAX_CHARS = 40

export const NOMINEE_UNREACHABLE_MESSAGE = 'Give a mobile number or an e-mail address, so we can reach your nominee.'
const NOMINEE_PHONE_MESSAGE =
  'Enter a 10-digit Indian mobile number (starting with 6, 7, 8 or 9), or a number from another country with + and its country code.'

/** A typed phone as E.164: an Indian mobile's 10 digits (with or without +91), or + and 8 to 15 digits. */
export function nomineePhone(written: string): string | null {
  const phone = stripPhoneSeparators(written)
  const indian = phone.replace(/^(\+91|0091)/, '')
  if (isIndianMobileNumber(indian)) return `+91${indian}`
  return /^\+[1-9]\d{7,14}$/.test(phone) ? phone : null
}

const optional = (value: string) => (value === '' ? undefined : value)

export const dataNomineeSchema = z
  .object({
    name: plainText(z.string({ error: "Enter your nominee's name." }))
      .transform((value) => value.trim().replace(/\s+/g, ' '))
      .pipe(
        z
          .string()
          .min(2, "Enter your nominee's name.")
          .max(NOMINEE_NAME_MAX_CHARS, `A name can have at most ${NOMINEE_NAME_MAX_CHARS} characters.`)
          .regex(/\p{L}/u, "Enter your nominee's name."),
      ),
    relationship: plainText(z.string({ error: 'Say how your nominee is related to you, like "Spouse" or "Son".' }))
      .transform((value) => value.trim().replace(/\s+/g, ' '))
      .pipe(
        z
          .string()
          .min(2, 'Say how your nominee is related to you, like "Spouse" or "Son".')
          .max(
            NOMINEE_RELATIONSHIP_MAX_CHARS,
            `Say it in at most ${NOMINEE_RELATIONSHIP_MAX_CHARS} characters, like "Spouse" or "Son".`,
          ),
      ),
    phone: z
      .string()
      .optional()
      .transform((value) => optional(value?.trim() ?? ''))
      .pipe(
        z
          .string()
          .transform((value, context) => {
            const phone = nomineePhone(value)
            if (phone) return phone
            context.addIssue({ code: 'custom', message: NOMINEE_PHONE_MESSAGE })
            return z.NEVER
          })
          .optional(),
      ),
    email: z
      .string()
      .optional()
      .transform((value) => optional(value?.trim().toLowerCase() ?? ''))
      .pipe(
        z
          .string()
          .max(EMAIL_MAX_CHARS, `An e-mail address can have at most ${EMAIL_MAX_CHARS} characters.`)
          .pipe(z.email({ error: 'Enter an e-mail address like name@example.com.' }))
          .optional(),
      ),
  })
  .superRefine((nominee, context) => {
    if (nominee.phone || nominee.email) return
    context.addIssue({ code: 'custom', path: ['phone'], message: NOMINEE_UNREACHABLE_MESSAGE })
  })

export type DataNominee = z.output<typeof dataNomineeSchema>
