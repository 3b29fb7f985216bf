import { z } from 'zod'
import {
  ACCREDITATION_CERTIFICATE_MAX_LENGTH,
  FEE_CAP_EXEMPTION_REASON_MAX_LENGTH,
  FEE_CAP_EXEMPTIONS,
} from './fee-cap'
import { PayerAccountNameSchema, UtrSchema } from './bank-reference'
import { plainText } from './plain-text'

/** Every state of a payment, as the admin's payment list filters by it. */
export const PAYMENT_STATUSES = [
  'CREATED',
  'PAID',
  'FAILED',
  'CANCELLED',
  'PENDING_VERIFICATION',
  'REJECTED',
  'EXPIRED',
] as const
export const PAYMENT_METHODS = ['GATEWAY', 'MANUAL'] as const
export const PAYMENT_METHOD_LABELS: Record<(typeof PAYMENT_METHODS)[number], string> = {
  GATEWAY: 'Gateway',
  MANUAL: 'Bank transfer',
}

export const REJECT_REASON_MAX_LENGTH = 500

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-11-22')

/** /admin/payments?method=&status=&from=&to= (dates are India calendar dates). Empty fields mean "any". */
export const PaymentListFilterSchema = z.object({
  method: z.enum(PAYMENT_METHODS).optional(),
  status: z.enum(PAYMENT_STATUSES).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
})
export type PaymentListFilter = z.infer<typeof PaymentListFilterSchema>

/** Rows on one page of an admin list (/admin/payments, /admin/customers, /admin/refunds, /admin/audit). */
export const ADMIN_PAGE_SIZE = 50

const paymentId = z.uuid({ error: 'Choose a payment' })

export const NAME_MISMATCH_REASON_MAX_LENGTH = 500
export const STATEMENT_UTR_MESSAGE = 'Enter the UTR the bank statement shows for this transfer.'
export const STATEMENT_PAYER_NAME_MESSAGE = "Enter the payer's account name the bank statement shows."

const blankAsUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value)

/**
 * Confirming a bank transfer (docs/payments.md, "Confirming a bank transfer"). The first press of
 * Confirm opens the second step; its form (confirmed=yes) must carry the UTR and the payer's account
 * name as the bank statement shows them. Whether that name matches the KYC name is the server's to
 * say (it reads the customer's KYC name), and a mismatch then needs `nameMismatchReason`.
 */
const ConfirmPaymentSchema = z
  .object({
    intent: z.literal('confirm'),
    paymentId,
    confirmed: z.literal('yes').optional(),
    bankUtr: z.preprocess(blankAsUndefined, UtrSchema.optional()),
    bankPayerName: z.preprocess(blankAsUndefined, PayerAccountNameSchema.optional()),
    nameMismatchReason: z.preprocess(
      blankAsUndefined,
      plainText(z.string(), { multiLine: true })
        .trim()
        .min(3, 'Give the reason in a few words.')
        .max(NAME_MISMATCH_REASON_MAX_LENGTH, `Keep the reason under ${NAME_MISMATCH_REASON_MAX_LENGTH} characters.`)
        .optional(),
    ),
  })
  .superRefine((confirm, context) => {
    if (confirm.confirmed !== 'yes') return
    if (!confirm.bankUtr) context.addIssue({ code: 'custom', path: ['bankUtr'], message: STATEMENT_UTR_MESSAGE })
    if (!confirm.bankPayerName)
      context.addIssue({ code: 'custom', path: ['bankPayerName'], message: STATEMENT_PAYER_NAME_MESSAGE })
  })

/** What the bank statement shows for a confirmed transfer, and why a payer name unlike the KYC name was accepted. */
export type BankStatementEntry = { utr: string; payerName: string; nameMismatchReason: string | null }

/** The bank statement's entry a confirming review carries; null for the first press of Confirm. */
export function bankStatementEntryOf(review: z.infer<typeof ConfirmPaymentSchema>): BankStatementEntry | null {
  if (review.confirmed !== 'yes' || !review.bankUtr || !review.bankPayerName) return null
  return { utr: review.bankUtr, payerName: review.bankPayerName, nameMismatchReason: review.nameMismatchReason ?? null }
}

/** The two buttons on a pending manual payment. */
export const ReviewPaymentSchema = z.discriminatedUnion('intent', [
  ConfirmPaymentSchema,
  z.object({
    intent: z.literal('reject'),
    paymentId,
    reason: plainText(z.string({ error: 'Give the reason for rejecting this payment; the customer sees it.' }), {
      multiLine: true,
    })
      .trim()
      .min(3, 'Give the reason for rejecting this payment; the customer sees it.')
      .max(REJECT_REASON_MAX_LENGTH, `Keep the reason under ${REJECT_REASON_MAX_LENGTH} characters.`),
  }),
])
export type ReviewPayment = z.infer<typeof ReviewPaymentSchema>

/** The button on each service of /admin/services: take it off sale, or put it back on sale. */
export const ServiceOnSaleSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('deactivate'), serviceId: z.string() }),
  z.object({ intent: z.literal('reactivate'), serviceId: z.string() }),
])

/** The accountant's export: any range, streamed (app/server/admin/export.server.ts). */
export const EXPORT_KINDS = ['payments', 'subscriptions', 'ledger'] as const
export const EXPORT_KIND_LABELS: Record<(typeof EXPORT_KINDS)[number], string> = {
  payments: 'Payments',
  subscriptions: 'Subscriptions',
  ledger: 'Invoices and credit notes (the money ledger)',
}

/** /admin/export?kind=&from=&to= (India calendar dates, both included). */
export const ExportRequestSchema = z
  .object({
    kind: z.enum(EXPORT_KINDS, { error: 'Choose payments, subscriptions or invoices and credit notes.' }),
    from: isoDate.refine((value) => !Number.isNaN(Date.parse(value)), 'Use a real date'),
    to: isoDate.refine((value) => !Number.isNaN(Date.parse(value)), 'Use a real date'),
  })
  .refine(({ from, to }) => from <= to, { path: ['to'], message: 'The end date must not be before the start date.' })
export type ExportRequest = z.infer<typeof ExportRequestSchema>

/**
 * Customer search: a page of results, more behind Next; at least 3 characters (a trigram: shorter
 * parts of a name or e-mail cannot use the trigram index and would read every customer).
 */
export const CUSTOMER_SEARCH_LIMIT = 50
export const CUSTOMER_SEARCH_MIN_LENGTH = 3

export const GRANT_REASON_MAX_LENGTH = 500

/** An admin's complimentary or corrective subscription: which service, how long, and why (kept and audited). */
export const GrantSubscriptionSchema = z.object({
  serviceId: z.uuid({ error: 'Choose a service.' }),
  durationDays: z.coerce
    .number({ error: 'Enter the number of days.' })
    .int('Enter whole days.')
    .min(1, 'Grant at least 1 day.')
    .max(365, 'Grant at most 365 days at a time.'),
  reason: plainText(z.string({ error: 'Give the reason for this grant.' }), { multiLine: true })
    .trim()
    .min(3, 'Give the reason for this grant.')
    .max(GRANT_REASON_MAX_LENGTH, `Keep the reason under ${GRANT_REASON_MAX_LENGTH} characters.`),
})
export type GrantSubscription = z.infer<typeof GrantSubscriptionSchema>

const FEE_CAP_REASON_MESSAGE =
  'Give the grounds, such as the accreditation certificate or the entity and its registration.'

export const ACCREDITATION_CERTIFICATE_MESSAGE = "Give the accreditation certificate's number."
export const ACCREDITATION_VALID_UNTIL_MESSAGE = "Give the certificate's last valid day."

/**
 * The admin's two buttons on a customer's page: mark exempt from the fee cap (with a reason), or
 * remove the mark. An accredited investor's mark also takes the certificate's number and last
 * valid day; the server refuses a day already past (setFeeCapExemption).
 */
export const FeeCapExemptionSchema = z.discriminatedUnion('intent', [
  z
    .object({
      intent: z.literal('fee-cap-exempt'),
      exemption: z.enum(FEE_CAP_EXEMPTIONS, { error: 'Choose accredited investor or non-individual client.' }),
      reason: plainText(z.string({ error: FEE_CAP_REASON_MESSAGE }), { multiLine: true })
        .trim()
        .min(3, FEE_CAP_REASON_MESSAGE)
        .max(
          FEE_CAP_EXEMPTION_REASON_MAX_LENGTH,
          `Keep the reason under ${FEE_CAP_EXEMPTION_REASON_MAX_LENGTH} characters.`,
        ),
      certificate: plainText(z.string())
        .trim()
        .min(3, ACCREDITATION_CERTIFICATE_MESSAGE)
        .max(
          ACCREDITATION_CERTIFICATE_MAX_LENGTH,
          `Keep the certificate number under ${ACCREDITATION_CERTIFICATE_MAX_LENGTH} characters.`,
        )
        .optional(),
      validUntil: z.iso.date({ error: 'Give the day as a date, like 2028-03-31.' }).optional(),
    })
    .superRefine((value, context) => {
      if (value.exemption !== 'ACCREDITED_INVESTOR') return
      if (!value.certificate)
        context.addIssue({ code: 'custom', path: ['certificate'], message: ACCREDITATION_CERTIFICATE_MESSAGE })
      if (!value.validUntil)
        context.addIssue({ code: 'custom', path: ['validUntil'], message: ACCREDITATION_VALID_UNTIL_MESSAGE })
    }),
  z.object({ intent: z.literal('fee-cap-unexempt') }),
])
export type FeeCapExemptionChange = z.infer<typeof FeeCapExemptionSchema>
