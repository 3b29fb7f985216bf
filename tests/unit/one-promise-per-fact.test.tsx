import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { renderToStaticMarkup } from 'react-dom/server'
import { MemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'
import { documentText } from '~/content/legal/document'
import { GrievanceRedressal } from '~/content/legal/grievance-redressal'
import { investorCharter } from '~/content/legal/investor-charter'
import { mitcDocument } from '~/content/legal/mitc'
import { privacyPolicy } from '~/content/legal/privacy-policy'
import { refundPolicy } from '~/content/legal/refund-policy'
import {
  GRIEVANCE_RESOLUTION_DAYS,
  MANUAL_PAYMENT_EXPIRY_DAYS,
  REFUND_PAYMENT_DAYS,
  SERVICE_DEFICIENCY_RESOLUTION_BUSINESS_DAYS,
} from '~/content/legal/rules'
import { termsAndConditions } from '~/content/legal/terms'
import { codeSentMessage } from '~/components/one-time-code-form'
import { OTP_VALID_MINUTES } from '~/domain/one-time-codes'
import { REJECTED_CLAIM_SHOWN_DAYS } from '~/domain/payment-status'
import { refundState, subscriptionEndedFlash } from '~/domain/refunds'
import {
  GATEWAY_REFUND_MAX_WORKING_DAYS,
  GATEWAY_REFUND_MIN_WORKING_DAYS,
  refundRouteText,
} from '~/domain/refund-times'
import { TERMS_CHANGE_NOTICE_DAYS } from '~/domain/terms-versions'
import {
  advanceExcessRefundedEmail,
  claimReceivedEmail,
  closedAccountRefundEmail,
  paymentRejectedEmail,
  subscriptionEndedEmail,
} from '~/server/messaging/emails/customer-emails.server'
import type { EmailContext } from '~/server/messaging/emails/render-email.server'
import { OTHER_BUSINESS_DETAILS } from '../support/other-business-details'

// Each fact the store promises in days (docs/regulatory.md, "Figures the pages quote") is stated by
// several texts; they must all give the one constant's number, and no customer-facing source may
// write a day count as a literal.

const details = OTHER_BUSINESS_DETAILS

const context: EmailContext = {
  business: {
    name: 'Kavya Iyer Research',
    sebiRegistrationNumber: 'INH000098765',
    supportEmail: 'help@kavya.example.in',
    supportPhone: '+91 00000 11111',
  },
  origin: 'https://store.example.in',
}

const bothRoutes = [
  { amountPaise: 100_00, byBankTransfer: true, creditNote: 'CN-1' },
  { amountPaise: 200_00, byBankTransfer: false, creditNote: 'CN-2' },
]

/** Every customer-facing text that states one of the facts, by where it is shown. */
const TEXTS: Record<string, string> = {
  terms: documentText(termsAndConditions(details)),
  'refund policy': documentText(refundPolicy(details)),
  'privacy policy': documentText(privacyPolicy(details)),
  'investor charter': documentText(investorCharter(details)),
  mitc: documentText(mitcDocument(details)),
  'grievance redressal': renderToStaticMarkup(
    <MemoryRouter>
      <GrievanceRedressal details={details} />
    </MemoryRouter>,
  ),
  'end page, card refund': refundRouteText(false),
  'end page, bank refund': refundRouteText(true, 'the account you give below'),
  'ended banner': (
    subscriptionEndedFlash({
      serviceName: 'Equity',
      refunds: [
        { amountPaise: 100_00, status: 'DUE' },
        { amountPaise: 200_00, status: 'PENDING' },
      ],
    }).details ?? []
  ).join('\n'),
  'ended e-mail': subscriptionEndedEmail(
    { name: 'Asha', serviceName: 'Equity', endedOn: '01-05-2026', refunds: bothRoutes },
    context,
  ).body,
  'advance-excess e-mail': advanceExcessRefundedEmail(
    {
      name: 'Asha',
      serviceName: 'Equity',
      excessDays: 3,
      endsOn: '01-05-2026',
      refund: bothRoutes[0]!,
    },
    context,
  ).body,
  'closed-account e-mail': closedAccountRefundEmail(
    { name: 'Asha', closedOn: '01-04-2026', serviceNames: ['Equity'], amountPaise: 100_00, creditNote: 'CN-3' },
    context,
  ).body,
  'claim-received e-mail': claimReceivedEmail(
    {
      name: 'Asha',
      amountPaise: 100_00,
      serviceNames: ['Equity'],
      claimedOn: '01-05-2026',
      dismissedOn: '08-05-2026',
      whatsappNumber: details.whatsappNumber,
    },
    context,
  ).body,
  'refund state on /subscriptions and "Your data"': (
    [
      { status: 'DUE', lastError: null, byBankTransfer: true },
      { status: 'PENDING', lastError: null, byBankTransfer: false },
      { status: 'PENDING', lastError: 'HTTP 502', byBankTransfer: false },
      { status: 'FAILED', lastError: 'HTTP 400', byBankTransfer: false },
      { status: 'PROCESSED', lastError: null, byBankTransfer: true },
    ] as const
  )
    .map((refund) => {
      const { label, next } = refundState({ ...refund, createdAt: new Date(), processedAt: new Date() })
      return `${label}. ${next}`
    })
    .join('\n'),
  'code sent (sign-in, e-mail change, complaint)': codeSentMessage('98765 43210'),
  'rejected-claim e-mail': paymentRejectedEmail(
    { name: 'Asha', amountPaise: 100_00, serviceNames: ['Equity'], reason: 'No transfer' },
    context,
  ).body,
}

/** Each fact: the constant and patterns whose first group is the number a text states for it. */
const FACTS: { fact: string; days: number; patterns: RegExp[]; atLeast: number }[] = [
  {
    fact: 'refund paid (bank transfer) within',
    days: REFUND_PAYMENT_DAYS,
    patterns: [/refunds? within (\d+)/gi, /by bank transfer to [^.,]*?, within (\d+)/gi],
    atLeast: 8,
  },
  {
    fact: 'card or UPI refund takes at least',
    days: GATEWAY_REFUND_MIN_WORKING_DAYS,
    patterns: [/(\d+) to \d+ working days/gi],
    atLeast: 5,
  },
  {
    fact: 'card or UPI refund takes at most',
    days: GATEWAY_REFUND_MAX_WORKING_DAYS,
    patterns: [/\d+ to (\d+) working days/gi],
    atLeast: 5,
  },
  {
    fact: 'a bank-transfer claim is dismissed after',
    days: MANUAL_PAYMENT_EXPIRY_DAYS,
    patterns: [/claim[^.]*? within (\d+) days[^.]*dismissed/gi, /within (\d+) days of your payment claim/gi],
    atLeast: 3,
  },
  {
    fact: 'a rejected claim stays shown for',
    days: REJECTED_CLAIM_SHOWN_DAYS,
    patterns: [/stay under My Subscription\(s\) for (\d+) days/gi],
    atLeast: 1,
  },
  {
    fact: 'notice of a change to the terms',
    days: TERMS_CHANGE_NOTICE_DAYS,
    patterns: [/at least (\d+) days before it takes effect/gi],
    atLeast: 2,
  },
  {
    fact: 'a one-time code is valid for (minutes)',
    days: OTP_VALID_MINUTES,
    patterns: [/valid for (\d+) minutes/gi, /expires? (?:with)?in (\d+) minutes/gi],
    atLeast: 2,
  },
  {
    fact: 'every complaint resolved within',
    days: GRIEVANCE_RESOLUTION_DAYS,
    patterns: [/every complaint[^.]*? within (\d+) days/gi, /resolved your complaint within (\d+) days/gi],
    atLeast: 3,
  },
  {
    fact: 'service-deficiency complaints resolved within',
    days: SERVICE_DEFICIENCY_RESOLUTION_BUSINESS_DAYS,
    patterns: [/within (\d+) business days/gi],
    atLeast: 3,
  },
]

/** Where each text states a number for a fact, and the number it states. */
function statements(texts: Record<string, string>, patterns: RegExp[]): { where: string; days: number }[] {
  const stated: { where: string; days: number }[] = []
  for (const [where, text] of Object.entries(texts))
    for (const pattern of patterns)
      for (const match of text.matchAll(pattern)) stated.push({ where, days: Number(match[1]) })
  return stated
}

describe('one promise per fact', () => {
  it.each(FACTS)('every text gives the same number for "$fact"', ({ days, patterns, atLeast }) => {
    const stated = statements(TEXTS, patterns)
    expect(stated.length).toBeGreaterThanOrEqual(atLeast)
    expect(stated.filter((statement) => statement.days !== days)).toEqual([])
  })

  it("finds the walk's two promises for one refund", () => {
    const walk = {
      'end page': 'We pay a bank-transfer refund within 7 working days.',
      banner: `Rs. 100 ${refundRouteText(true)}.`,
    }
    const refund = FACTS.find((fact) => fact.days === REFUND_PAYMENT_DAYS && fact.fact.startsWith('refund'))!
    expect(statements(walk, refund.patterns).filter((statement) => statement.days !== refund.days)).toEqual([
      { where: 'end page', days: 7 },
    ])
  })
})

/** Day, hour and minute counts written as literals that are not one of the store's promises, with why. */
const NOT_A_PROMISE = [
  // A worked example of the pro-rata formula, for a 30-day service.
  'if you paid Rs. 2,999 for 30 days',
  // The definition of a whole day.
  'whole days (24 hours each)',
  'A whole day is 24 hours counted',
  // The DPDP Rules' own outer limit, quoted as the law's.
  'within 90 days at the latest, as the DPDP Rules require',
  // Admin forms' bounds, written next to the number they check.
  "max(365, 'Grant at most 365 days at a time.')",
  "min(1, 'Grant at least 1 day.')",
  "min(1, 'The duration must be at least 1 day.')",
  // An operator's metric, not a text for customers.
  "'Payments created in the last 24 hours, by their state now.'",
]

/** Every source a customer-facing text can come from: pages, components, documents, rules, e-mails, SMS, flashes. */
const SCANNED = ['app/routes', 'app/components', 'app/content', 'app/domain', 'app/server']

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })
}

const LITERAL_SPAN = /\b\d+ (working |business |calendar )?(days?|hours?|minutes?)\b/

describe('customer-facing sources', () => {
  it('write no day, hour or minute count as a literal: each comes from its constant', () => {
    const literals: string[] = []
    for (const file of SCANNED.flatMap(sourceFiles))
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (/^\s*(\/\/|\*|\/\*)/.test(line)) return
          if (!LITERAL_SPAN.test(line)) return
          if (NOT_A_PROMISE.some((allowed) => line.includes(allowed))) return
          literals.push(`${file}:${index + 1}: ${line.trim()}`)
        })
    expect(literals).toEqual([])
  })

  it('catch a literal: the scan finds the walk\'s "within 7 working days"', () => {
    expect(LITERAL_SPAN.test('a bank-transfer refund within 7 working days')).toBe(true)
    expect(LITERAL_SPAN.test('It is valid for 5 minutes.')).toBe(true)
  })
})

/** How the docs state each fact; every number they give must be the constant's. */
const DOC_FACTS: { fact: string; value: number; patterns: RegExp[] }[] = [
  {
    fact: 'refund paid within',
    value: REFUND_PAYMENT_DAYS,
    patterns: [/REFUND_PAYMENT_DAYS` = (\d+)/g, /refunds?[^.]{0,60}? within (\d+) days/gi],
  },
  {
    fact: 'card or UPI refund takes',
    value: GATEWAY_REFUND_MAX_WORKING_DAYS,
    patterns: [/\(\d+ to (\d+)\) working days/g, /\b\d+ to (\d+) working days/g],
  },
  {
    fact: 'a bank-transfer claim is dismissed after',
    value: MANUAL_PAYMENT_EXPIRY_DAYS,
    patterns: [
      /MANUAL_PAYMENT_EXPIRY_DAYS` = (\d+)/g,
      /claims?\b[^.]{0,80}?(?:dismissed|expires?|expired) after (\d+) days/gi,
      /dismissed after (\d+) days/gi,
    ],
  },
  {
    fact: 'notice of a change to the terms',
    value: TERMS_CHANGE_NOTICE_DAYS,
    patterns: [/TERMS_CHANGE_NOTICE_DAYS` = (\d+)/g, /(\d+) days' notice/g, /terms takes effect at least (\d+) days/g],
  },
  {
    fact: 'a one-time code is valid for (minutes)',
    value: OTP_VALID_MINUTES,
    patterns: [/codes?\b[^.]{0,60}? (?:within its|expires? in|valid for) (\d+) minutes/gi],
  },
]

const DOCS = ['README.md', ...readdirSync('docs').flatMap((name) => (name.endsWith('.md') ? [join('docs', name)] : []))]

describe('the docs', () => {
  it.each(DOC_FACTS)('state "$fact" as the constant gives it', ({ value, patterns }) => {
    const stated: string[] = []
    const wrong: string[] = []
    for (const file of DOCS) {
      // Lines joined: a sentence in the docs often runs over two.
      const text = readFileSync(file, 'utf8').replace(/\s*\n\s*/g, ' ')
      for (const pattern of patterns)
        for (const match of text.matchAll(pattern)) {
          stated.push(file)
          if (Number(match[1]) !== value) wrong.push(`${file}: ${match[0]}`)
        }
    }
    expect(stated.length).toBeGreaterThan(0)
    expect(wrong).toEqual([])
  })
})
