import { z } from 'zod'
import { MAX_CART_SERVICES } from './cart'
import { hasControlCharacter } from './control-characters'

/**
 * The existing clients' cart, sent as JSON text in `notes.cart`: a list of service ids, or of cart
 * entries (`{ _id }` or `{ _id, service: { _id } }`, docs/product.md section 3). Only the ids are read; prices
 * and durations always come from the database.
 */
export function cartServiceIds(cartText: string): string[] | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(cartText)
  } catch {
    return null
  }
  if (!Array.isArray(parsed) || parsed.length > MAX_CART_SERVICES) return null
  const ids: string[] = []
  for (const entry of parsed) {
    const id = typeof entry === 'string' ? entry : entryId(entry)
    if (!id) return null
    ids.push(id)
  }
  return ids
}

function entryId(entry: unknown): string | null {
  if (!entry || typeof entry !== 'object') return null
  const { _id, service } = entry as { _id?: unknown; service?: { _id?: unknown } | null }
  if (service && typeof service === 'object' && typeof service._id === 'string') return service._id
  return typeof _id === 'string' ? _id : null
}

/**
 * The existing clients' create-order and manual-payment body (docs/api.md): amount (rupees, the total the
 * client showed), currency INR, receipt and notes { number, details, cart }. Receipt (the PAN), number and details
 * are accepted but not used: the server has them, and they never go to the gateway.
 */
export const CheckoutRequestSchema = z.object({
  amount: z
    .number({ error: 'Send amount: the cart total in rupees.' })
    .positive('Send amount: the cart total in rupees.'),
  currency: z.literal('INR', { error: 'Only INR is accepted.' }).optional(),
  receipt: z.string().optional(),
  notes: z.object(
    {
      number: z.string().optional(),
      details: z.string().optional(),
      cart: z.string({ error: 'Send notes.cart: the cart as JSON text.' }).transform((text, context) => {
        const ids = cartServiceIds(text)
        if (ids === null) {
          context.addIssue({
            code: 'custom',
            message: 'notes.cart must be JSON text of a list of services (ids or cart entries).',
          })
          return z.NEVER
        }
        return ids
      }),
    },
    { error: 'Send notes with the cart.' },
  ),
})

const checkoutAnswerField = (name: string) =>
  z
    .string({ error: `Send ${name}.` })
    .min(1, `Send ${name}.`)
    // A value with a control character is no order, payment or signature (and Postgres refuses NUL).
    .refine((value) => !hasControlCharacter(value, { multiLine: true }), `${name} has a control character.`)

/**
 * THE checkout answer: what Razorpay's checkout hands over on success, whichever way it arrives
 * (checkout.js's handler, posted by /pay's script or by an API client; the hosted checkout's POST
 * to /payments/callback; the sandbox's stand-ins). Its signature is checked by verifyCheckoutPayment.
 */
export const CheckoutAnswerSchema = z.object({
  razorpay_order_id: checkoutAnswerField('razorpay_order_id'),
  razorpay_payment_id: checkoutAnswerField('razorpay_payment_id'),
  razorpay_signature: checkoutAnswerField('razorpay_signature'),
})
export type CheckoutAnswer = z.infer<typeof CheckoutAnswerSchema>

/** The API's verify-payment body: the checkout answer under `razorpayResponse`. */
export const CheckoutResponseSchema = z.object({
  razorpayResponse: z.object(CheckoutAnswerSchema.shape, {
    error: "Send razorpayResponse: the checkout's success response.",
  }),
})

/**
 * What the checkout hands the page on failure (Razorpay's `payment.failed` response), sent as
 * `response`: either the `error` object itself or the whole response holding it.
 */
export function failedOrderId(response: unknown): string | null {
  const holder = response as { metadata?: { order_id?: unknown }; error?: { metadata?: { order_id?: unknown } } } | null
  const orderId = holder?.metadata?.order_id ?? holder?.error?.metadata?.order_id
  return typeof orderId === 'string' && orderId ? orderId : null
}

export function failureReason(response: unknown): string {
  const holder = response as { description?: unknown; error?: { description?: unknown } } | null
  const description = holder?.description ?? holder?.error?.description
  return typeof description === 'string' && description ? description : 'Payment failed'
}
