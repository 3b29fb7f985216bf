import { z } from 'zod'
import { PAYER_ACCOUNT_NAME_MAX_LENGTH } from './payer-account-name'
import { plainText } from './plain-text'

/**
 * The reference a bank gives a transfer: a NEFT UTR is 16 characters, an RTGS one 22, an IMPS or
 * UPI reference 12 digits. We accept 6 to 22 letters and digits as typed, spaces removed and
 * upper-cased, so the team can match it against the bank statement.
 */
export const UTR_MESSAGE = 'Enter the bank reference (UTR) as your bank shows it: 6 to 22 letters and digits.'

export const UtrSchema = z
  .string()
  .transform((value) => value.replace(/\s+/g, '').toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9]{6,22}$/, UTR_MESSAGE))

/** An optional UTR: blank is "not given" (null); anything else must be a valid reference. */
export function parseOptionalUtr(value: unknown): { ok: true; utr: string | null } | { ok: false; message: string } {
  const text = typeof value === 'string' ? value : ''
  if (text.trim() === '') return { ok: true, utr: null }
  const parsed = UtrSchema.safeParse(text)
  return parsed.success ? { ok: true, utr: parsed.data } : { ok: false, message: UTR_MESSAGE }
}

const BLANK_UTR_MESSAGE = 'Enter the bank reference (UTR) to save it.'

/** /subscriptions: adding or correcting the UTR of one pending manual claim. */
export const BankReferenceFormSchema = z.object({
  paymentId: z.string({ error: 'Choose a payment' }),
  utr: z.string({ error: BLANK_UTR_MESSAGE }).trim().min(1, BLANK_UTR_MESSAGE).pipe(UtrSchema),
})

const PAYER_ACCOUNT_NAME_MESSAGE = `Enter the account holder's name as your bank shows it: 2 to ${PAYER_ACCOUNT_NAME_MAX_LENGTH} characters.`

/** The name on the account a bank transfer comes from, as the customer types it. */
export const PayerAccountNameSchema = plainText()
  .trim()
  .min(2, PAYER_ACCOUNT_NAME_MESSAGE)
  .max(PAYER_ACCOUNT_NAME_MAX_LENGTH, PAYER_ACCOUNT_NAME_MESSAGE)

const blankAsUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value)

/** /pay's manual claim: the key of the form as rendered (one claim per form), an optional UTR and payer's account name. */
export const ManualPaymentFormSchema = z.object({
  intent: z.literal('manual'),
  paymentKey: z.string().optional(),
  utr: z.preprocess(blankAsUndefined, UtrSchema.optional()),
  payerAccountName: z.preprocess(blankAsUndefined, PayerAccountNameSchema.optional()),
})
