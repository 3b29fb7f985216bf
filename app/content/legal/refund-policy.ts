import type { BusinessDetails } from '~/domain/business-details'
import type { LegalDocument } from './document'
import { MANUAL_PAYMENT_EXPIRY_DAYS, REFUND_PAYMENT_DAYS, REGULATOR_SUSPENSION_REFUND_THRESHOLD_DAYS } from './rules'

export const REFUND_POLICY_UPDATED = '22 November 2026'

/**
 * Refunds as SEBI's MITC (17 February 2025) requires: a proportionate refund of the fee for the
 * unexpired period when a subscription ends early, whoever ends it. Replaces the original store's "no refunds"
 * (docs/regulatory.md).
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
              'You do not accept a change to our terms and end your subscription before the change takes effect.',
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
          'The refund is the fee multiplied by the number of whole days left in the subscription, divided by the number of days in the subscription, rounded to the nearest paisa. The days already used are not refunded.',
          'For example, if you paid Rs. 2,999 for 30 days and end the subscription with 12 whole days left, the refund is Rs. 2,999 × 12 ÷ 30 = Rs. 1,199.60.',
          'Statutory charges such as GST on the refunded part are refunded or adjusted as tax law allows.',
        ],
      },
      {
        id: 'how-to-ask',
        heading: 'How to end a subscription and ask for a refund',
        blocks: [
          `Write to ${supportEmail} from the e-mail address in your profile, naming the subscription you want to end. We confirm the end date and the refund amount by e-mail. When we end a subscription, we refund you without your having to ask.`,
        ],
      },
      {
        id: 'when-and-where',
        heading: 'When and where we pay it',
        blocks: [
          `We send the refund within ${REFUND_PAYMENT_DAYS} days of the date the subscription ended, to the bank account, card or UPI account you paid from. Your bank's own time to credit it is outside our control.`,
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
          `Write to ${supportEmail}. If you are not satisfied with our answer, the [Grievance Redressal](/grievance-redressal) page explains how to escalate your complaint. The refund terms that bind us are in our [Terms and Conditions](/terms-and-conditions), including the MITC.`,
        ],
      },
    ],
  }
}
