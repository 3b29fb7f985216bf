import { z } from 'zod'

/** Gateway payment states the admin list filters by (manual ones have their own list). */
export const GATEWAY_STATUSES = ['CREATED', 'PAID', 'FAILED', 'CANCELLED'] as const
export type GatewayStatus = (typeof GATEWAY_STATUSES)[number]

export const REJECT_REASON_MAX_LENGTH = 500

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-11-22')

/** /admin/payments?status=&from=&to= (dates are India calendar dates). Empty fields mean "any". */
export const GatewayPaymentFilterSchema = z.object({
  status: z.enum(GATEWAY_STATUSES).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
})
export type GatewayPaymentFilter = z.infer<typeof GatewayPaymentFilterSchema>

const paymentId = z.uuid({ error: 'Choose a payment' })

/** The two buttons on a pending manual payment. */
export const ReviewPaymentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('confirm'), paymentId }),
  z.object({
    intent: z.literal('reject'),
    paymentId,
    reason: z
      .string({ error: 'Give the reason for rejecting this payment; the customer sees it.' })
      .trim()
      .min(3, 'Give the reason for rejecting this payment; the customer sees it.')
      .max(REJECT_REASON_MAX_LENGTH, `Keep the reason under ${REJECT_REASON_MAX_LENGTH} characters.`),
  }),
])
export type ReviewPayment = z.infer<typeof ReviewPaymentSchema>
