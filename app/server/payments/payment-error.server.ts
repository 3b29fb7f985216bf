// The refusal of a payment, in a module of its own so the purchase limits (which core.server.ts's
// markPaymentPaid checks for a mandate's charge) can throw it without an import cycle.

export type PaymentErrorCode =
  | 'empty-cart'
  | 'services-unavailable'
  | 'gateway-unavailable'
  | 'not-found'
  | 'invalid-signature'
  | 'gateway-mismatch'
  | 'amount-mismatch'
  | 'already-paid'
  | 'too-many-open-claims'
  | 'idempotency-key-reused'
  | 'advance-limit'
  | 'fee-cap'
  | 'kyc'
  | 'account-closed'

/** A refusal the route turns into a response: `status` is the HTTP status, `message` is for the customer. */
export class PaymentError extends Error {
  override name = 'PaymentError'
  constructor(
    readonly code: PaymentErrorCode,
    message: string,
    readonly status: number,
    readonly droppedIds: string[] = [],
    /** For 'amount-mismatch': the cart's total at current prices, which the client should show and send. */
    readonly amountPaise: number | null = null,
  ) {
    super(message)
  }
}
