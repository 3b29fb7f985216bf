import { formatRupees } from '~/domain/money'
import { MANUAL_PAYMENT_EXPIRY_DAYS, REJECTED_CLAIM_SHOWN_DAYS } from '~/domain/payment-status'
import { refundRouteText } from '~/domain/refund-times'
import { renderEmail, type EmailContext, type RenderedEmail } from './render-email.server'

// The e-mails customers get, each from the facts it reports. Dates come formatted (DD-MM-YYYY, India time).

export function paymentConfirmedEmail(
  payment: {
    name: string | null
    method: 'GATEWAY' | 'MANUAL'
    amountPaise: number
    subscriptions: { serviceName: string; endsOn: string }[]
  },
  context: EmailContext,
): RenderedEmail {
  const how = payment.method === 'MANUAL' ? 'your bank transfer' : 'your payment'
  return renderEmail(
    {
      template: 'payment-confirmed',
      subject: 'Your payment is confirmed',
      name: payment.name,
      blocks: [
        {
          kind: 'paragraph',
          text: `We received ${how} of Rs. ${formatRupees(payment.amountPaise)}. Your subscriptions:`,
        },
        {
          kind: 'list',
          items: payment.subscriptions.map(({ serviceName, endsOn }) => `${serviceName}: ends on ${endsOn}`),
        },
        { kind: 'action', label: 'See your subscriptions', path: '/subscriptions' },
      ],
    },
    context,
  )
}

/** "We got your claim": a bank-transfer claim was recorded; what the customer still does, what we do, and by when. */
export function claimReceivedEmail(
  claim: {
    name: string | null
    amountPaise: number
    serviceNames: string[]
    claimedOn: string
    /** The day the claim is dismissed if not confirmed (MANUAL_PAYMENT_EXPIRY_DAYS after it was made). */
    dismissedOn: string
    whatsappNumber: string
  },
  context: EmailContext,
): RenderedEmail {
  const amount = `Rs. ${formatRupees(claim.amountPaise)}`
  return renderEmail(
    {
      template: 'claim-received',
      subject: 'We got your bank transfer claim',
      name: claim.name,
      blocks: [
        {
          kind: 'paragraph',
          text: `We got your claim of a bank transfer of ${amount} for ${claim.serviceNames.join(', ')}, made on ${claim.claimedOn}. What happens next:`,
        },
        {
          kind: 'list',
          items: [
            `If you have not paid yet, transfer ${amount} to our bank account (its details are on My Subscription(s)) and send the screenshot of the transfer on WhatsApp to ${claim.whatsappNumber}.`,
            'Our team checks the transfer against our bank account. When we confirm it, your subscriptions start and we e-mail you.',
            `A claim we cannot confirm within ${MANUAL_PAYMENT_EXPIRY_DAYS} days is dismissed: if yours is not confirmed by ${claim.dismissedOn}, no subscription starts.`,
          ],
        },
        { kind: 'note', label: 'Dismissed if not confirmed by', text: claim.dismissedOn },
        { kind: 'action', label: 'See your claim', path: '/subscriptions' },
      ],
    },
    context,
  )
}

export function paymentRejectedEmail(
  payment: { name: string | null; amountPaise: number; serviceNames: string[]; reason: string },
  context: EmailContext,
): RenderedEmail {
  return renderEmail(
    {
      template: 'payment-rejected',
      subject: 'We could not verify your payment',
      name: payment.name,
      blocks: [
        {
          kind: 'paragraph',
          text: `We could not find your bank transfer of Rs. ${formatRupees(payment.amountPaise)} for ${payment.serviceNames.join(', ')}, so nothing was added to your account.`,
        },
        { kind: 'note', label: 'Reason', text: payment.reason.trim() },
        {
          kind: 'paragraph',
          text: `If you did send the money, reply to this e-mail or write to ${context.business.supportEmail} with the screenshot of the transfer and its UTR, and we will check again. If you have not paid yet, the claim and its reason stay under My Subscription(s) for ${REJECTED_CLAIM_SHOWN_DAYS} days, with a button to pay again.`,
        },
        { kind: 'action', label: 'See the claim and pay again', path: '/subscriptions' },
      ],
    },
    context,
  )
}

export function subscriptionGrantedEmail(
  grant: { name: string | null; serviceName: string; durationDays: number; endsOn: string; reason: string },
  context: EmailContext,
): RenderedEmail {
  return renderEmail(
    {
      template: 'subscription-granted',
      subject: 'A subscription was added to your account',
      name: grant.name,
      blocks: [
        {
          kind: 'paragraph',
          text: `We added ${grant.durationDays} days of ${grant.serviceName} to your account, at no charge. It ends on ${grant.endsOn}.`,
        },
        { kind: 'note', label: 'Reason', text: grant.reason.trim() },
        { kind: 'action', label: 'See your subscriptions', path: '/subscriptions' },
      ],
    },
    context,
  )
}

export function advanceExcessRefundedEmail(
  cut: {
    name: string | null
    serviceName: string
    excessDays: number
    endsOn: string
    refund: { amountPaise: number; byBankTransfer: boolean; creditNote: string }
  },
  context: EmailContext,
): RenderedEmail {
  return renderEmail(
    {
      template: 'advance-excess-refunded',
      subject: 'Part of your payment is being refunded',
      name: cut.name,
      blocks: [
        {
          kind: 'paragraph',
          text: `SEBI allows a research analyst to take fees at most one year in advance. Your payment for ${cut.serviceName} would have run ${cut.excessDays} days beyond that, so your subscription now ends on ${cut.endsOn}.`,
        },
        {
          kind: 'paragraph',
          text: `We are refunding Rs. ${formatRupees(cut.refund.amountPaise)} for those days, ${refundRouteText(cut.refund.byBankTransfer)} (credit note ${cut.refund.creditNote}).`,
        },
        { kind: 'action', label: 'See your subscriptions', path: '/subscriptions' },
      ],
    },
    context,
  )
}

/** A payment the gateway completed after the account was closed: no subscription, all of it refunded. */
export function closedAccountRefundEmail(
  refund: { name: string | null; closedOn: string; serviceNames: string[]; amountPaise: number; creditNote: string },
  context: EmailContext,
): RenderedEmail {
  return renderEmail(
    {
      template: 'closed-account-refund',
      subject: 'Your payment is being refunded in full',
      name: refund.name,
      blocks: [
        {
          kind: 'paragraph',
          text: `You closed your account on ${refund.closedOn}. The payment gateway completed a payment of Rs. ${formatRupees(refund.amountPaise)} for ${refund.serviceNames.join(', ')} after that, so no subscription was started.`,
        },
        {
          kind: 'paragraph',
          text: `We are refunding all of it, Rs. ${formatRupees(refund.amountPaise)}, ${refundRouteText(false)} (credit note ${refund.creditNote}). You do not need to do anything.`,
        },
      ],
    },
    context,
  )
}

export function mandateChargeRefundedEmail(
  refund: { name: string | null; serviceNames: string[]; amountPaise: number; creditNote: string; why: string },
  context: EmailContext,
): RenderedEmail {
  return renderEmail(
    {
      template: 'mandate-charge-refunded',
      subject: 'Automatic renewal stopped: your payment is being refunded in full',
      name: refund.name,
      blocks: [
        {
          kind: 'paragraph',
          text: `The payment gateway charged Rs. ${formatRupees(refund.amountPaise)} for the automatic renewal of ${refund.serviceNames.join(', ')}, but we could not apply it, so no new period was started.`,
        },
        { kind: 'note', label: 'Reason', text: refund.why },
        {
          kind: 'paragraph',
          text: `We are refunding all of it, Rs. ${formatRupees(refund.amountPaise)}, ${refundRouteText(false)} (credit note ${refund.creditNote}). Automatic renewal is stopped: nothing more will be charged. The period you have already paid runs to its end.`,
        },
        { kind: 'action', label: 'See your subscriptions', path: '/subscriptions' },
      ],
    },
    context,
  )
}

/** A checkout's capture by a method the store does not take, refunded in full (docs/payments.md, "Gateway payment methods"). */
export function gatewayMethodRefundEmail(
  refund: { name: string | null; serviceNames: string[]; amountPaise: number; creditNote: string; reason: string },
  context: EmailContext,
): RenderedEmail {
  return renderEmail(
    {
      template: 'gateway-method-refund',
      subject: 'Your payment is being refunded: please pay by card, netbanking or UPI',
      name: refund.name,
      blocks: [
        {
          kind: 'paragraph',
          text: `We received Rs. ${formatRupees(refund.amountPaise)} for ${refund.serviceNames.join(', ')}, but we cannot accept it, so no subscription was started.`,
        },
        { kind: 'note', label: 'Reason', text: refund.reason },
        {
          kind: 'paragraph',
          text: `We are refunding all of it, Rs. ${formatRupees(refund.amountPaise)}, back to where you paid from, in the gateway's usual time for that method (credit note ${refund.creditNote}). To subscribe, pay again by card, netbanking or UPI, or by bank transfer.`,
        },
        { kind: 'action', label: 'Choose services', path: '/services' },
      ],
    },
    context,
  )
}

export function subscriptionEndedEmail(
  ended: {
    name: string | null
    serviceName: string
    endedOn: string
    refunds: { amountPaise: number; byBankTransfer: boolean; creditNote: string }[]
  },
  context: EmailContext,
): RenderedEmail {
  const total = ended.refunds.reduce((sum, refund) => sum + refund.amountPaise, 0)
  const refundLines = ended.refunds.map(
    (refund) =>
      `Rs. ${formatRupees(refund.amountPaise)} ${refundRouteText(refund.byBankTransfer)} (credit note ${refund.creditNote})`,
  )
  return renderEmail(
    {
      template: 'subscription-ended',
      subject: 'Your subscription has ended',
      name: ended.name,
      blocks: [
        { kind: 'paragraph', text: `Your subscription to ${ended.serviceName} ended on ${ended.endedOn}.` },
        total > 0
          ? { kind: 'paragraph', text: `We are refunding Rs. ${formatRupees(total)} for its unexpired days:` }
          : { kind: 'paragraph', text: 'No refund is due: no whole day of a paid period was left.' },
        ...(total > 0 ? [{ kind: 'list' as const, items: refundLines }] : []),
        { kind: 'action', label: 'See your subscriptions', path: '/subscriptions' },
      ],
    },
    context,
  )
}

/** A renewal reminder (docs/payments.md, "Renewals"): 7 days before the end, 1 day before, or at the end. */
export function renewalReminderEmail(
  reminder: {
    name: string | null
    serviceName: string
    endsOn: string
    stage: 'week-before' | 'day-before' | 'ended'
    renewPath: string
  },
  context: EmailContext,
): RenderedEmail {
  const { serviceName, endsOn } = reminder
  const subject =
    reminder.stage === 'ended'
      ? `Your ${serviceName} subscription has ended`
      : reminder.stage === 'day-before'
        ? `Your ${serviceName} subscription ends tomorrow, ${endsOn}`
        : `Your ${serviceName} subscription ends on ${endsOn}`
  const news =
    reminder.stage === 'ended'
      ? `Your subscription to ${serviceName} ended on ${endsOn}. Renew it to keep receiving its research.`
      : `Your subscription to ${serviceName} ends on ${endsOn}. Renew it now and the new period starts when this one ends, so no day is lost.`
  return renderEmail(
    {
      template: 'renewal-reminder',
      subject,
      name: reminder.name,
      blocks: [
        { kind: 'paragraph', text: news },
        { kind: 'action', label: `Renew ${serviceName}`, path: reminder.renewPath },
        {
          kind: 'paragraph',
          text: 'Already renewed, or do not want to? Then there is nothing to do: we remind you only while a service is not renewed.',
        },
      ],
    },
    context,
  )
}

/**
 * The pre-debit notice of an automatic renewal's charge (RBI's e-mandate rules: at least 24 hours
 * before): the amount, the day, what it pays and how to stop it.
 */
export function preDebitNoticeEmail(
  notice: { name: string | null; serviceName: string; amountPaise: number; chargeOn: string; periodDays: number },
  context: EmailContext,
): RenderedEmail {
  const amount = `Rs. ${formatRupees(notice.amountPaise)}`
  return renderEmail(
    {
      template: 'pre-debit-notice',
      subject: `Automatic renewal: ${amount} will be charged on ${notice.chargeOn} for ${notice.serviceName}`,
      name: notice.name,
      blocks: [
        {
          kind: 'paragraph',
          text: `On ${notice.chargeOn} your automatic renewal of ${notice.serviceName} will charge ${amount} (GST included) through Razorpay, as you authorised. It pays the next ${notice.periodDays} days from the end of the period already paid.`,
        },
        {
          kind: 'paragraph',
          text: 'Do not want it? Choose "Stop automatic renewal" on your Subscriptions page before that day: nothing more is charged, and the period already paid runs to its end.',
        },
        { kind: 'action', label: 'Review or stop automatic renewal', path: '/subscriptions' },
      ],
    },
    context,
  )
}

/** The copy of what the customer acknowledged on completing the profile: each document's version, the time, and its text. */
export function onboardingCopyEmail(
  copy: { name: string | null; acceptedAt: string; documents: { title: string; version: string; text: string }[] },
  context: EmailContext,
): RenderedEmail {
  return renderEmail(
    {
      template: 'onboarding-copy',
      subject: 'Your copy of the terms you accepted',
      name: copy.name,
      blocks: [
        {
          kind: 'paragraph',
          text: `You completed your profile on ${copy.acceptedAt}. Here is a copy of each document you acknowledged, with its version. Keep this e-mail: it is your copy of our agreement.`,
        },
        {
          kind: 'list',
          items: copy.documents.map(
            ({ title, version }) => `${title}: version ${version}, accepted ${copy.acceptedAt}`,
          ),
        },
        ...copy.documents.map(({ title, version, text }) => ({
          kind: 'document' as const,
          heading: `${title} (version ${version})`,
          text,
        })),
      ],
    },
    context,
  )
}

/**
 * A new version of the terms, announced once to each customer who accepted an earlier one (docs/regulatory.md, A new
 * version of the terms).
 */
export function termsChangedEmail(
  notice: { name: string | null; version: string; effectiveFrom: string; inForceNow: boolean },
  context: EmailContext,
): RenderedEmail {
  return renderEmail(
    {
      template: 'terms-changed',
      subject: `Our Terms and Conditions are changing: version ${notice.version}`,
      name: notice.name,
      blocks: [
        {
          kind: 'paragraph',
          text: notice.inForceNow
            ? `A new version of our Terms and Conditions (${notice.version}) is in force since ${notice.effectiveFrom}. Please read it and accept it before your next payment.`
            : `We have published a new version of our Terms and Conditions (${notice.version}). It takes effect on ${notice.effectiveFrom}; until then the version you accepted stays in force. From that date we will ask you to accept the new version before your next payment.`,
        },
        {
          kind: 'paragraph',
          text: 'If you do not wish to accept it, you may instead end your subscriptions, with a refund of the unused part of what you paid for each.',
        },
        { kind: 'action', label: 'See what changed', path: '/terms-and-conditions/changes' },
        { kind: 'action', label: 'Read and accept the new version', path: '/terms/accept' },
      ],
    },
    context,
  )
}

/** A new version of the Privacy Policy, the Investor Charter or the MITC (docs/decisions/053-document-versions.md). */
export function documentChangedEmail(
  notice: { name: string | null; title: string; path: string; version: string; publishedOn: string; consent: boolean },
  context: EmailContext,
): RenderedEmail {
  return renderEmail(
    {
      template: 'document-changed',
      subject: `Our ${notice.title} changed on ${notice.publishedOn}`,
      name: notice.name,
      blocks: [
        {
          kind: 'paragraph',
          text: `We published a new version of our ${notice.title} (${notice.version}) on ${notice.publishedOn}. ${
            notice.consent
              ? 'Your consent to the processing of your personal data was given to the version before it: please read the new one and give your consent to it before your next payment. Until you do, we process your data only as the version you consented to allows.'
              : 'Please read it: we ask you to acknowledge it before your next payment.'
          }`,
        },
        { kind: 'action', label: `Read the ${notice.title}`, path: notice.path },
        { kind: 'action', label: 'Acknowledge it', path: '/consents/accept?redirectTo=%2Faccount' },
      ],
    },
    context,
  )
}

/** The admin recorded an accredited investor's certificate: the cap still applies until the customer opts in. */
export function accreditationRecordedEmail(
  recorded: { name: string | null; certificate: string; validUntil: string },
  context: EmailContext,
): RenderedEmail {
  return renderEmail(
    {
      template: 'accreditation-recorded',
      subject: 'Your accreditation certificate is on record: choose whether to use it',
      name: recorded.name,
      blocks: [
        {
          kind: 'paragraph',
          text: `We recorded your accreditation certificate ${recorded.certificate}, valid until ${recorded.validUntil}. SEBI's yearly limit on the fees a research analyst may charge an individual client and their family still applies to you until you choose, on your account page, to be treated as an accredited investor. You can withdraw that choice there at any time.`,
        },
        { kind: 'action', label: 'Read the statement and choose', path: '/account/accredited-investor' },
      ],
    },
    context,
  )
}

/**
 * The analyst's decision on a KRA record whose name or date of birth is not the profile's (decision
 * 047): accepted (paying works again), or a correction asked, with what to do next.
 */
export function kraRecordDecidedEmail(
  decision: { name: string | null; accepted: boolean; fields: string },
  context: EmailContext,
): RenderedEmail {
  return renderEmail(
    {
      template: 'kra-record-decided',
      subject: decision.accepted
        ? 'Your KYC record was checked: you can pay again'
        : 'Your KYC record was checked: please correct your details',
      name: decision.name,
      blocks: decision.accepted
        ? [
            {
              kind: 'paragraph',
              text: `The ${decision.fields} the KYC registration agency (KRA) holds for your PAN is not written as in your profile. Our analyst checked it and accepted that the record is yours, so you can pay for services again.`,
            },
            { kind: 'action', label: 'Choose services', path: '/services' },
          ]
        : [
            {
              kind: 'paragraph',
              text: `The ${decision.fields} the KYC registration agency (KRA) holds for your PAN is not the one in your profile. Our analyst checked it and asks you to correct your details; until then you cannot pay for services.`,
            },
            {
              kind: 'list',
              items: [
                'If your profile is wrong: ask for a correction on your KYC details page.',
                "If the KRA's record is wrong: update it through your broker or mutual fund, then check your KYC again on the same page.",
              ],
            },
            {
              kind: 'paragraph',
              text: `Questions: reply to this e-mail or write to ${context.business.supportEmail}.`,
            },
            { kind: 'action', label: 'Your KYC details', path: '/account/corrections' },
          ],
    },
    context,
  )
}

/** The admin's decision on a correction request; `changes` come masked as the customer's pages show them (PAN ABCPE****F). */
export function correctionDecidedEmail(
  decision: {
    name: string | null
    approved: boolean
    changes: { label: string; from: string | null; to: string }[]
    kycStatusLabel: string | null
    reason: string | null
  },
  context: EmailContext,
): RenderedEmail {
  const changes = decision.changes.map((change) => `${change.label}: ${change.from ?? '(none)'} to ${change.to}`)
  return renderEmail(
    {
      template: 'correction-decided',
      subject: decision.approved ? 'Your correction request was approved' : 'Your correction request was not approved',
      name: decision.name,
      blocks: decision.approved
        ? [
            { kind: 'paragraph', text: 'We checked your correction request and changed your details:' },
            { kind: 'list', items: changes },
            ...(decision.kycStatusLabel
              ? [
                  {
                    kind: 'paragraph' as const,
                    text: `We asked the KYC Registration Agency again; it answered: ${decision.kycStatusLabel}.`,
                  },
                ]
              : []),
            { kind: 'action', label: 'See your details', path: '/account/corrections' },
          ]
        : [
            {
              kind: 'paragraph',
              text: 'We checked your correction request and did not make this change; your details stay as they were:',
            },
            { kind: 'list', items: changes },
            { kind: 'note', label: 'Reason', text: (decision.reason ?? '').trim() },
            {
              kind: 'paragraph',
              text: `You can send a new request with the right details, or reply to this e-mail or write to ${context.business.supportEmail}.`,
            },
            { kind: 'action', label: 'See your details', path: '/account/corrections' },
          ],
    },
    context,
  )
}

/**
 * To the address an e-mail change replaced: if the customer did not make the change, this is how
 * they learn of it while they can still act. The new address is masked (the old one may be a typo
 * someone else now reads).
 */
export function emailChangedEmail(
  change: { name: string | null; newEmail: string; changedAt: string },
  context: EmailContext,
): RenderedEmail {
  return renderEmail(
    {
      template: 'email-changed',
      subject: 'Your e-mail address was changed',
      name: change.name,
      blocks: [
        {
          kind: 'paragraph',
          text: `On ${change.changedAt} the e-mail address of your ${context.business.name} account was changed from this address to ${maskEmail(change.newEmail)}. We will write to the new address from now on.`,
        },
        {
          kind: 'paragraph',
          text: `If you made this change, there is nothing to do. If you did not, reply to this e-mail or call us on ${context.business.supportPhone} at once, and sign in to check your account.`,
        },
      ],
    },
    context,
  )
}

/** "a•••@example.com": enough for its owner to recognise, not enough to copy. */
function maskEmail(email: string): string {
  const at = email.lastIndexOf('@')
  return `${email.slice(0, 1)}•••${email.slice(at)}`
}
