import type { BusinessDetails } from '~/domain/business-details'
import type { LegalDocument } from './document'
import { GATEWAY_REFUND_MAX_WORKING_DAYS, GATEWAY_REFUND_MIN_WORKING_DAYS } from '~/domain/refund-times'
import { MANUAL_PAYMENT_EXPIRY_DAYS, REFUND_PAYMENT_DAYS, REGULATOR_SUSPENSION_REFUND_THRESHOLD_DAYS } from './rules'

export const REFUND_POLICY_UPDATED = '26 November 2026'

/**
 * Refunds as SEBI's MITC (17 February 2025) requires: a proportionate refund of the fee for the
 * unexpired period when a subscription ends early, whoever ends it. Replaces the original store's "no refunds"
 * (docs/product.md section 2; why: docs/regulatory.md, Regulatory notes).
 */
export function refundPolicy(details: BusinessDetails): LegalDocument {
  const { supportEmail } = details
  return {
    title: 'Refund Policy',
    dateLine: `Last updated: ${REFUND_POLICY_UPDATED}`,
    intro: [
      'If your subscription ends before its end date, whether you end it or we do, you get a refund of the proportionate fee for the unexpired period: the part of the fee for the days you did not use. SEBI requires this of research analysts in its Most Important Terms and Conditions (MITC), and we apply it to every client. We do not charge any cancellation or breakage fee.',
    ],
    sections: [
      {
        id: 'when',
        heading: 'When you get a refund',
        blocks: [
          {
            list: [
              'You end a subscription before its end date, for any reason.',
              'We end your subscription early, for any reason, including a breach of our terms.',
              'We stop providing a research service you have paid for.',
              `SEBI suspends our registration for more than ${REGULATOR_SUSPENSION_REFUND_THRESHOLD_DAYS} days or cancels it: you get the fee for the period from the date the suspension or cancellation takes effect to the end of your subscription.`,
              "You do not accept a new version of our terms and end your subscription instead (the page that asks you to accept it links each subscription's end).",
              'An interruption stops us from delivering a research service for a substantial part of your subscription, and you choose a refund rather than an extension.',
              'You paid twice for the same thing, or were charged for a payment that failed: you get the whole extra amount back.',
            ],
          },
        ],
      },
      {
        id: 'how-much',
        heading: 'How much you get back',
        blocks: [
          'The refund is the fee you paid for the subscription multiplied by the number of whole days left in it, divided by the number of days you bought, rounded down to the paisa. A whole day is 24 hours counted from the moment the subscription ends early; part of a day left is not counted, so nothing is refunded on the last day. A renewal you bought that has not started yet is refunded in full. The days already used are not refunded. A subscription we gave you without payment is not refunded.',
          'For example, if you paid Rs. 2,999 for 30 days and end the subscription with 12 whole days (and a few hours) left, the refund is Rs. 2,999 × 12 ÷ 30 = Rs. 1,199.60.',
          'Statutory charges such as GST on the refunded part are refunded or adjusted as tax law allows.',
        ],
      },
      {
        id: 'how-to-ask',
        heading: 'How to end a subscription and ask for a refund',
        blocks: [
          'On your Subscriptions page, choose End subscription next to it. The next page shows the refund and how it will be paid before you confirm; if you paid by bank transfer, it asks for the bank account (account holder name, account number and IFSC) to pay the refund to. The subscription ends as soon as you confirm, and we e-mail you the refund amount and its credit note.',
          `You can also write to ${supportEmail} from the e-mail address in your profile, naming the subscription you want to end. When we end a subscription, we refund you without your having to ask.`,
        ],
      },
      {
        id: 'when-and-where',
        heading: 'When and where we pay it',
        blocks: [
          `We send the refund within ${REFUND_PAYMENT_DAYS} days of the date the subscription ended. If you paid on the website, it goes back to the card or UPI account you paid with through our payment gateway, which usually takes ${GATEWAY_REFUND_MIN_WORKING_DAYS} to ${GATEWAY_REFUND_MAX_WORKING_DAYS} working days. If you paid by bank transfer, we transfer it to the bank account you gave when you ended the subscription (or, when we end it, to the account you give us when we ask). Your bank's own time to credit it is outside our control.`,
        ],
      },
      {
        id: 'manual-payments',
        heading: 'Bank transfers we cannot confirm',
        blocks: [
          `If we cannot confirm a bank transfer within ${MANUAL_PAYMENT_EXPIRY_DAYS} days of your payment claim, the claim is dismissed and no subscription starts. Any money we did receive is returned to the account it came from, as are payments made from someone else's account.`,
        ],
      },
      {
        id: 'questions',
        heading: 'Questions and complaints',
        blocks: [
          `Write to ${supportEmail}, or file a complaint on our [complaint form](/complaints/new). If you are not satisfied with our answer, the [Grievance Redressal](/grievance-redressal) page explains how to escalate your complaint. The refund terms that bind us are in our [Terms and Conditions](/terms-and-conditions), including the MITC.`,
        ],
      },
    ],
  }
}
