/**
 * What the browser needs to open the gateway's checkout for one of our payments, with JavaScript
 * (checkout.js, or the sandbox's stand-in) or without (a form posted to the hosted checkout).
 * Built by app/server/payments/gateway/checkout-options.server.ts; read by /pay.
 */
export type GatewayCheckout = {
  keyId: string
  orderId: string
  amountPaise: number
  currency: string
  /** The business name shown on the checkout. */
  name: string
  /** As in the original store (docs/product.md section 7): the description lists the services' ids. */
  description: string
  prefill: { name: string; email: string; contact: string }
  /** checkout.js, loaded only when the customer chooses to pay on the website. */
  scriptUrl: string
  /** Where the form without JavaScript posts to (Razorpay's hosted checkout). */
  hostedCheckoutUrl: string
  /** Absolute URLs the hosted checkout sends the customer back to. */
  callbackUrl: string
  cancelUrl: string
}

/** The original store's alerts (docs/product.md section 8). */
export const PAYMENT_START_FAILED_MESSAGE = 'Error initiating payment. Please try again.'
export const PAYMENT_VERIFY_FAILED_MESSAGE = 'Error verifying payment'

/**
 * SEBI has a research analyst's fees paid through channels traceable to the client's bank account:
 * the gateway takes cards, netbanking and UPI only. Standard Checkout hides the other methods
 * (wallets, EMI, cardless EMI, pay later, apps); the account's own method settings in the Razorpay
 * Dashboard are the control for the hosted checkout (docs/payments.md, "Gateway payment methods").
 */
export const GATEWAY_ALLOWED_METHODS = ['card', 'netbanking', 'upi'] as const
export const GATEWAY_HIDDEN_METHODS = ['wallet', 'emi', 'cardless_emi', 'paylater', 'app'] as const

/**
 * Whether a capture the gateway reports (its payment's `method`) may become subscriptions. Any
 * other method (one of the hidden ones, or one Razorpay adds later) is paid, invoiced and refunded
 * in full by markPaymentPaid. Null (not reported) is not refused: only a reported method is.
 */
export function isGatewayMethodAllowed(method: string | null): boolean {
  return method === null || (GATEWAY_ALLOWED_METHODS as readonly string[]).includes(method)
}

const GATEWAY_METHOD_WORDS: Record<string, string> = {
  wallet: 'a wallet',
  emi: 'EMI',
  cardless_emi: 'cardless EMI',
  paylater: 'pay later',
  app: 'a payment app',
}

/** A refused method as the customer's e-mail and the page name it ("a wallet", "EMI"). */
export function gatewayMethodWords(method: string): string {
  return GATEWAY_METHOD_WORDS[method] ?? `"${method.slice(0, 40)}"`
}

/** Why a capture by a refused method was refunded, as the refund note, the e-mail and the page say it. */
export function refusedMethodReason(method: string): string {
  return `Paid by ${gatewayMethodWords(method)}: our fees are paid only by card, netbanking or UPI, from an account in your name`
}

/** checkout.js's `config` option that hides the methods the store does not take. */
export const CHECKOUT_METHODS_CONFIG = {
  display: {
    hide: GATEWAY_HIDDEN_METHODS.map((method) => ({ method })),
    preferences: { show_default_blocks: true },
  },
}

/** The original store's checkout theme colour (docs/product.md section 9). */
export const CHECKOUT_THEME_COLOR = '#2196F3'

/** Razorpay refuses payment descriptions longer than this. */
const DESCRIPTION_MAX_LENGTH = 255

/** "Services: <ids>", then the GST line when the business is GST-registered, which a long list never cuts off. */
export function checkoutDescription(serviceIds: readonly string[], gstLine: string | null = null): string {
  const services = `Services: ${serviceIds.join(', ')}`
  const tail = gstLine ? `. ${gstLine}` : ''
  const room = DESCRIPTION_MAX_LENGTH - tail.length
  return (services.length <= room ? services : `${services.slice(0, room - 1)}…`) + tail
}

/**
 * How a checkout that did not pay ended, as /pay says it (`/pay?outcome=…` after the hosted checkout; the same words
 * with JavaScript). The original store had no text for these (docs/product.md section 8); the cart is kept in each.
 */
export const CHECKOUT_OUTCOME_MESSAGES = {
  failed: 'Your payment did not go through. Your cart is unchanged: try again, or pay manually.',
  dismissed: 'Payment cancelled. Your cart is unchanged.',
  unverified: PAYMENT_VERIFY_FAILED_MESSAGE,
} as const

export type CheckoutOutcome = keyof typeof CHECKOUT_OUTCOME_MESSAGES

/** How each outcome reads: closing the checkout is the customer's own choice, news and not an error. */
export const CHECKOUT_OUTCOME_TONES = {
  failed: 'error',
  dismissed: 'info',
  unverified: 'error',
} as const satisfies Record<CheckoutOutcome, 'error' | 'info'>

/**
 * The tone of a message /pay shows after a checkout (an outcome's, or a refusal to start or verify
 * one): news for a closed checkout, an error for everything else.
 */
export function checkoutMessageTone(message: string): 'error' | 'info' {
  const outcome = (Object.keys(CHECKOUT_OUTCOME_MESSAGES) as CheckoutOutcome[]).find(
    (key) => CHECKOUT_OUTCOME_MESSAGES[key] === message,
  )
  return outcome ? CHECKOUT_OUTCOME_TONES[outcome] : 'error'
}

export function checkoutOutcome(value: string | null | undefined): CheckoutOutcome | null {
  return value && Object.hasOwn(CHECKOUT_OUTCOME_MESSAGES, value) ? (value as CheckoutOutcome) : null
}
