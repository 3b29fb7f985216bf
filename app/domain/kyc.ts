import { z } from 'zod'
import { individualPan, profileDetailsSchema } from './profile'
import { OneTimeCodeSchema } from './sign-in'

// KYC through a KRA: the answers a KRA gives, which of them allow paying, and what the customer is
// told to do otherwise. Shared by the server (app/server/kyc/kra.server.ts) and the pages.

export const KYC_STATUSES = ['VALIDATED', 'REGISTERED', 'ON_HOLD', 'NOT_FOUND', 'REJECTED'] as const
export type KycStatus = (typeof KYC_STATUSES)[number]

export const KYC_STATUS_LABELS: Record<KycStatus, string> = {
  VALIDATED: 'Validated',
  REGISTERED: 'Registered',
  ON_HOLD: 'On hold',
  NOT_FOUND: 'Not found',
  REJECTED: 'Rejected',
}

/** SEBI lets an intermediary serve a client whose KYC a KRA holds as validated or registered. */
export function kycAllowsPayment(status: KycStatus | null | undefined): boolean {
  return status === 'VALIDATED' || status === 'REGISTERED'
}

/** The button that asks the KRA again, in the wizard and on the KYC details page. */
export const KYC_RECHECK_BUTTON = 'Check my KYC again'

/**
 * Where the customer reads the advice, which decides how wrong details are put right: in the
 * wizard (profile not complete) by going back to step 1; on the KYC details page (complete
 * profile) by a correction request, whose form is on that page.
 */
export type KycAdvicePlace = 'wizard' | 'kyc-details-page'

/** Where the customer corrects their name, PAN or date of birth: step 1 until the profile is complete, then a correction request. */
export function kycCorrectionWay(profileComplete: boolean): KycAdvicePlace {
  return profileComplete ? 'kyc-details-page' : 'wizard'
}

/** The way to correct wrong details, in words true for where they are read. */
const CORRECTION_WORDS: Record<KycAdvicePlace, string> = {
  wizard: 'go back to step 1 and correct them',
  'kyc-details-page': 'ask for a correction below',
}

/** What the customer reads about their KYC status: what it means and what to do, true for `place`. */
export function kycAdvice(
  status: KycStatus | null | undefined,
  supportEmail: string,
  place: KycAdvicePlace = 'kyc-details-page',
): string {
  const correct = CORRECTION_WORDS[place]
  const recheck = `then choose "${KYC_RECHECK_BUTTON}"`
  const untilThen = `Until then you cannot pay. Questions: ${supportEmail}.`
  switch (status) {
    case 'VALIDATED':
    case 'REGISTERED':
      return 'Your KYC is in order: you can subscribe.'
    case 'ON_HOLD':
      return `Your KYC is on hold at the KYC registration agency (KRA), usually because a document or your mobile number or e-mail there needs updating. Update it through any SEBI-registered intermediary (your broker or mutual fund) or the KRA, ${recheck}. If your name, PAN or date of birth here is wrong, ${correct}. ${untilThen}`
    case 'NOT_FOUND':
      return `No KYC record was found at the KYC registration agency (KRA) for your PAN and date of birth. If your name, PAN or date of birth is wrong, ${correct}; if they are right, complete your KYC through any SEBI-registered intermediary (your broker or mutual fund), ${recheck}. ${untilThen}`
    case 'REJECTED':
      return `The KYC registration agency (KRA) holds your KYC as rejected, usually because a document did not match your details. Do your KYC again through any SEBI-registered intermediary (your broker or mutual fund), ${recheck}. If your name, PAN or date of birth is wrong here, ${correct}. ${untilThen}`
    default:
      return place === 'wizard'
        ? 'Your KYC has not been checked yet: save your details at step 1 to check it.'
        : `Your KYC has not been checked yet: choose "${KYC_RECHECK_BUTTON}".`
  }
}

/** What to do, in short, after a payment is refused for `status` (the page links the KYC details page beside it). */
const PAYMENT_REFUSAL_NEXT: Record<KycStatus, string> = {
  VALIDATED: '',
  REGISTERED: '',
  ON_HOLD:
    'Update your KYC through your broker, your mutual fund or the KRA, then check it again on your KYC details page.',
  NOT_FOUND:
    'If your name, PAN or date of birth is wrong, ask for a correction on your KYC details page; if they are right, complete your KYC through your broker or mutual fund, then check it again there.',
  REJECTED:
    'Do your KYC again through your broker or mutual fund, then check it again on your KYC details page; if your name, PAN or date of birth is wrong, ask for a correction there.',
}

/** The refusal of a payment by a customer whose KYC does not allow it (pages and API: 403), in words, without paths. */
export function kycPaymentRefusal(status: KycStatus | null | undefined): string {
  if (!status)
    return 'You cannot pay yet: your KYC at the KYC registration agency (KRA) has not been checked. Check it on your KYC details page.'
  return `You cannot pay yet: your KYC at the KYC registration agency (KRA) is ${KYC_STATUS_LABELS[status].toLowerCase()}. ${PAYMENT_REFUSAL_NEXT[status]}`
}

/** "Check my KYC again": at most this many in KYC_RECHECK_WINDOW_MS per customer (each asks the KRA, which may charge). */
export const KYC_RECHECKS_PER_WINDOW = 5
export const KYC_RECHECK_WINDOW_MS = 60 * 60_000

export const KYC_UNAVAILABLE_MESSAGE =
  'We could not check your KYC with the KYC registration agency (KRA) just now, so nothing was saved. Please try again in a few minutes.'

/** Names compared case-blind, single spaces (the profile keeps a name's capitals as typed). */
export function normaliseName(name: string): string {
  return name.toLowerCase().trim().replace(/\s+/g, ' ')
}

/** The fields a correction request may change (a complete profile's KYC details). */
export const CORRECTABLE_FIELDS = ['name', 'pan', 'dob'] as const
export type CorrectableField = (typeof CORRECTABLE_FIELDS)[number]
export type CorrectionValues = Partial<Record<CorrectableField, string>>
export const CORRECTION_FIELD_LABELS: Record<CorrectableField, string> = {
  name: 'Name',
  pan: 'PAN',
  dob: 'Date of birth',
}
/** What a correction request may change: the KYC details, and the PAN card image (a new file). */
export type CorrectionChangeField = CorrectableField | 'panCard'
export const CORRECTION_CHANGE_LABELS: Record<CorrectionChangeField, string> = {
  ...CORRECTION_FIELD_LABELS,
  panCard: 'PAN card image',
}
/** The form's field for a new PAN card image (multipart). */
export const CORRECTION_PAN_CARD_FIELD = 'panCard'
export const CORRECTION_REASON_MAX_CHARS = 500

/**
 * The customer's correction request: the new values (blank ones stay as they are), each by the
 * profile's own rule, and why. At least one field must change. `withPanCard` (the page): a new PAN
 * card image may be the change; in the browser `panCard` is the chosen file, on the server a mark
 * that one came (the action reads the file itself from the multipart body).
 */
export function correctionRequestSchema(today: Date, { withPanCard = false }: { withPanCard?: boolean } = {}) {
  const details = profileDetailsSchema(today).shape
  const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value)
  const chosenFile = (value: unknown) =>
    typeof File !== 'undefined' && value instanceof File ? (value.size > 0 ? 'chosen' : undefined) : value || undefined
  return z
    .object({
      name: z.preprocess(blankToUndefined, details.name.optional()),
      pan: z.preprocess(blankToUndefined, individualPan('Enter your PAN.').optional()),
      dob: z.preprocess(blankToUndefined, details.dob.optional()),
      panCard: withPanCard ? z.preprocess(chosenFile, z.string().optional()) : z.undefined().optional(),
      reason: z
        .string({ error: 'Say why the details need correcting.' })
        .trim()
        .min(1, 'Say why the details need correcting.')
        .max(CORRECTION_REASON_MAX_CHARS, `Keep the reason under ${CORRECTION_REASON_MAX_CHARS} characters.`),
    })
    .refine((value) => value.name || value.pan || value.dob || value.panCard, {
      error: withPanCard
        ? 'Enter at least one new value: your name, PAN or date of birth, or choose a new PAN card image.'
        : 'Enter at least one new value: your name, PAN or date of birth.',
    })
}

/** The admin's decision on a correction request: a rejection says why, and the customer is sent it. */
export const CorrectionDecisionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('correction-approve'), requestId: z.string().trim().min(1) }),
  z.object({
    intent: z.literal('correction-reject'),
    requestId: z.string().trim().min(1),
    reason: z
      .string({ error: 'Say why you reject it: the customer is sent the reason.' })
      .trim()
      .min(1, 'Say why you reject it: the customer is sent the reason.')
      .max(CORRECTION_REASON_MAX_CHARS, `Keep the reason under ${CORRECTION_REASON_MAX_CHARS} characters.`),
  }),
])

/** The customer's e-mail change: the new address, by the profile's rule. */
export function newEmailSchema(today: Date) {
  return z.object({ intent: z.literal('send-code'), email: profileDetailsSchema(today).shape.email })
}

/** The code sent to the new address, with the address it went to. */
export function confirmEmailSchema(today: Date) {
  return z.object({
    intent: z.literal('confirm'),
    email: profileDetailsSchema(today).shape.email,
    code: OneTimeCodeSchema,
  })
}
