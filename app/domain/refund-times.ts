// How long a refund takes, as every page, e-mail and document states it (decision 048). Without Zod,
// so the legal pages that quote these carry no form library (decision 022).

/**
 * Ours (docs/regulatory.md, "Figures the pages quote"): a refund is paid within this many days of the date the
 * subscription ended. Every page, e-mail and document that states it reads this.
 */
export const REFUND_PAYMENT_DAYS = 30
/** The payment gateway's usual time to credit a card or UPI refund, as the refund policy quotes it. */
export const GATEWAY_REFUND_MIN_WORKING_DAYS = 5
export const GATEWAY_REFUND_MAX_WORKING_DAYS = 7

/**
 * How a refund reaches the customer and when, in the words of the refund policy: back through the gateway, or by
 * bank transfer to `account` (the end page says "the account you give below").
 */
export function refundRouteText(byBankTransfer: boolean, account = 'the account you gave'): string {
  return byBankTransfer
    ? `by bank transfer to ${account}, within ${REFUND_PAYMENT_DAYS} days`
    : `back to the card or UPI account you paid with, in ${GATEWAY_REFUND_MIN_WORKING_DAYS} to ${GATEWAY_REFUND_MAX_WORKING_DAYS} working days`
}
