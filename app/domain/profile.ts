import { z } from 'zod'
import { latestAdultBirthDate, MINIMUM_AGE_YEARS } from './dates'

export const NAME_MIN_CHARS = 3
export const NAME_MAX_CHARS = 24
export const NAME_MAX_WORDS = 4
export const EARLIEST_BIRTH_DATE = '1900-01-01'
/** The longest address SMTP can deliver to (RFC 5321's 256-character path less its angle brackets). */
export const EMAIL_MAX_CHARS = 254
const EMAIL_MESSAGE = 'Enter an e-mail address like name@example.com.'

/** The original store's rules (docs/product.md section 5), one schema for the server action and the browser. */
export function profileDetailsSchema(today: Date) {
  const latestBirthDate = latestAdultBirthDate(today)
  return z.object({
    name: z
      .string({ error: 'Enter your name.' })
      // Kept as typed (capitals too: "Asha McDonald"), spaces tidied; compared case-blind (kyc.ts normaliseName).
      .transform((value) => value.trim().replace(/\s+/g, ' '))
      .pipe(
        z
          .string()
          .min(NAME_MIN_CHARS, `Your name needs at least ${NAME_MIN_CHARS} characters.`)
          .max(NAME_MAX_CHARS, `Your name can have at most ${NAME_MAX_CHARS} characters.`)
          .regex(/^[a-zA-Z ]+$/, 'Use letters and spaces only in your name.')
          .refine(
            (name) => name.split(' ').length <= NAME_MAX_WORDS,
            `Your name can have at most ${NAME_MAX_WORDS} words.`,
          ),
      ),
    email: z
      .string({ error: 'Enter your e-mail address.' })
      .transform((value) => value.trim().toLowerCase())
      // Zod's maintained pattern: ASCII letters, digits and . _ ' + - only, so no quote, angle
      // bracket or control character is stored, sent to the gateway or put in an e-mail.
      .pipe(
        z
          .string()
          .max(EMAIL_MAX_CHARS, `Your e-mail address can have at most ${EMAIL_MAX_CHARS} characters.`)
          .pipe(z.email({ error: EMAIL_MESSAGE })),
      ),
    dob: z
      .string({ error: 'Enter your date of birth.' })
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter your date of birth.')
      .refine(isCalendarDate, 'Enter a real date of birth.')
      .refine((dob) => dob >= EARLIEST_BIRTH_DATE, 'Enter a real date of birth.')
      .refine((dob) => dob <= latestBirthDate, 'You must be 18 or older to subscribe.'),
    pan: individualPan('Enter your PAN.'),
  })
}

/**
 * The PAN rule (an individual's PAN, stored trimmed and upper-case), for the customer's own and
 * for their family members' (app/domain/family.ts).
 */
export function individualPan(requiredMessage: string, whose = 'your PAN') {
  return z
    .string({ error: requiredMessage })
    .transform((value) => value.trim().toUpperCase())
    .pipe(
      z
        .string()
        // abort: a malformed PAN gets this one message, not also the fourth-letter one.
        .regex(/^[A-Z]{5}\d{4}[A-Z]$/, {
          error: `Enter ${whose} as 5 letters, 4 digits and 1 letter, like ABCPE1234F.`,
          abort: true,
        })
        .refine((pan) => pan[3] === 'P', "This is not an individual's PAN: its fourth letter must be P."),
    )
}

export type ProfileDetails = z.output<ReturnType<typeof profileDetailsSchema>>

function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

export type ProfileStep = 'details' | 'pan-card' | 'agreement' | 'complete'

type ProfileFacts = {
  name: string | null
  email: string | null
  dateOfBirth: Date | null
  pan: string | null
  panCardKey: string | null
  agreementAcceptedAt: Date | null
}

/** The one rule for "is the profile complete": the wizard resumes at the first missing step. */
export function profileStep(user: ProfileFacts): ProfileStep {
  if (!user.name || !user.email || !user.dateOfBirth || !user.pan) return 'details'
  if (!user.panCardKey) return 'pan-card'
  if (!user.agreementAcceptedAt) return 'agreement'
  return 'complete'
}

/** The query parameter by which steps 2 and 3 of the wizard go back to step 1 (`?step=details`). */
export const PROFILE_STEP_PARAM = 'step'

/**
 * The step the wizard shows: the first missing one, or step 1 when the customer went back to it
 * (to correct details the KRA did not accept) before the profile is complete. A complete profile's
 * details change only through a correction request, so no going back then.
 */
export function shownProfileStep<Step extends ProfileStep>(step: Step, requested: string | null): Step | 'details' {
  return requested === 'details' && step !== 'complete' ? 'details' : step
}

/** A second account saving a PAN another account holds (users.pan is unique: docs/regulatory.md). */
export function panTakenMessage(supportEmail: string): string {
  return `This PAN is already registered with another account. If it is yours, sign in with that account's mobile number; if not, or you no longer have that number, write to us at ${supportEmail}.`
}

/**
 * Whether a saved date of birth is an adult's today (India's calendar). The PAN card and the
 * agreement wait for one, whatever the channel: a minor cannot contract (docs/regulatory.md).
 */
export function hasAdultBirthDate(dateOfBirth: Date | null, today: Date): boolean {
  return dateOfBirth !== null && dateOfBirth.toISOString().slice(0, 10) <= latestAdultBirthDate(today)
}

/** Why the PAN card or the agreement is refused before an adult date of birth is saved; `where` says where the details are saved. */
export function adultBirthDateMissingMessage(dateOfBirth: Date | null, where: string): string {
  return dateOfBirth === null
    ? `Save your details first (name, e-mail, date of birth and PAN, ${where}): the PAN card and the agreement come after them.`
    : `You must be ${MINIMUM_AGE_YEARS} or older to subscribe: the PAN card and the agreement are refused.`
}

const MISSING_STEP: Record<Exclude<ProfileStep, 'complete'>, string> = {
  details: 'your name, e-mail, date of birth and PAN',
  'pan-card': 'your PAN card',
  agreement: 'the agreement',
}

/** The API's 403 of a paying call before the profile is complete, naming the first missing step (docs/api.md, "403 answers"). */
export function profileIncompleteMessage(step: Exclude<ProfileStep, 'complete'>): string {
  return `Complete your details before paying: ${MISSING_STEP[step]} is missing.`
}
