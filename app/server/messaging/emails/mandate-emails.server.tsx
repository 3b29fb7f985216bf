import { frequencyText } from '~/domain/mandates'
import { formatRupees } from '~/domain/money'
import { renderEmail, type EmailContext, type RenderedEmail } from './render-email.server'

// The e-mails of the rules around a mandate's charges (docs/payments.md, "Renewals and mandates"):
// a charge that would break a limit, a charge that failed, a price change that needs a new
// authorisation. Dates come formatted (DD-MM-YYYY, India time).

/** The check before a charge found it would break a limit: automatic renewal stopped, nothing charged. */
export function mandateStoppedBeforeChargeEmail(
  stop: { name: string | null; serviceName: string; why: string; paidUntil: string | null; renewPath: string },
  context: EmailContext,
): RenderedEmail {
  return renderEmail(
    {
      template: 'mandate-stopped-before-charge',
      subject: `Automatic renewal of ${stop.serviceName} stopped before its next charge`,
      name: stop.name,
      blocks: [
        {
          kind: 'paragraph',
          text: `We checked the next automatic charge for ${stop.serviceName} before it was due, and it would break a limit, so we stopped automatic renewal. Nothing was charged and nothing more will be.`,
        },
        { kind: 'note', label: 'Reason', text: stop.why },
        {
          kind: 'paragraph',
          text: stop.paidUntil
            ? `The period you have paid runs to its end on ${stop.paidUntil}. You can still renew by paying yourself, once the limit allows it:`
            : 'You can still renew by paying yourself, once the limit allows it:',
        },
        { kind: 'action', label: `Renew ${stop.serviceName}`, path: stop.renewPath },
      ],
    },
    context,
  )
}

/** The gateway could not take a charge (subscription.pending, or .halted when its retries ran out). */
export function mandateChargeFailedEmail(
  failed: {
    name: string | null
    serviceName: string
    amountPaise: number
    retrying: boolean
    paidUntil: string | null
    renewPath: string
  },
  context: EmailContext,
): RenderedEmail {
  const ends = failed.paidUntil ? `your subscription ends on ${failed.paidUntil}` : 'your subscription ends'
  return renderEmail(
    {
      template: 'mandate-charge-failed',
      subject: `Your automatic renewal payment for ${failed.serviceName} did not go through`,
      name: failed.name,
      blocks: [
        {
          kind: 'paragraph',
          text: `The automatic charge of Rs. ${formatRupees(failed.amountPaise)} for ${failed.serviceName} failed, so no new period was started.`,
        },
        {
          kind: 'paragraph',
          text: failed.retrying
            ? `The payment gateway will try the charge again over the next few days. If no attempt succeeds, ${ends}.`
            : `The payment gateway has stopped trying, and automatic renewal is paused: ${ends} unless you pay.`,
        },
        { kind: 'paragraph', text: 'To keep it without a break, you can pay now:' },
        { kind: 'action', label: `Pay for ${failed.serviceName}`, path: failed.renewPath },
        ...(failed.retrying
          ? [
              {
                kind: 'paragraph' as const,
                text: 'If you pay now, a later successful retry pays the period after that one; stop automatic renewal on your Subscriptions page if you do not want it.',
              },
            ]
          : []),
      ],
    },
    context,
  )
}

/** The service's price or period changed: the mandate was ended, the customer may authorise the new terms. */
export function mandateNeedsReauthorisationEmail(
  change: {
    name: string | null
    serviceName: string
    oldAmountPaise: number
    newAmountPaise: number
    newPeriodDays: number
    paidUntil: string | null
  },
  context: EmailContext,
): RenderedEmail {
  return renderEmail(
    {
      template: 'mandate-needs-reauthorisation',
      subject: `${change.serviceName}: automatic renewal needs your new authorisation`,
      name: change.name,
      blocks: [
        {
          kind: 'paragraph',
          text: `The price of ${change.serviceName} is now Rs. ${formatRupees(change.newAmountPaise)} ${frequencyText(change.newPeriodDays)}. You authorised automatic renewal for Rs. ${formatRupees(change.oldAmountPaise)}, and we never change an authorisation silently, so we have stopped it: nothing more will be charged.`,
        },
        {
          kind: 'paragraph',
          text: change.paidUntil
            ? `The period you have paid runs to its end on ${change.paidUntil}. To keep renewing automatically after it, authorise the new amount on your Subscriptions page.`
            : 'To keep renewing automatically, authorise the new amount on your Subscriptions page.',
        },
        { kind: 'action', label: 'See your subscriptions', path: '/subscriptions' },
      ],
    },
    context,
  )
}
