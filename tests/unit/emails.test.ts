import { describe, expect, it } from 'vitest'
import {
  onboardingCopyEmail,
  paymentConfirmedEmail,
  paymentRejectedEmail,
  subscriptionGrantedEmail,
} from '~/server/messaging/emails/customer-emails.server'
import {
  renderEmail,
  renderEmailForEach,
  type EmailContent,
  type EmailContext,
} from '~/server/messaging/emails/render-email.server'
import { personName } from '~/domain/names'

const context: EmailContext = {
  business: {
    name: 'Kavya Iyer Research',
    sebiRegistrationNumber: 'INH000098765',
    supportEmail: 'help@kavya.example.in',
    supportPhone: '+91 00000 11111',
  },
  origin: 'https://store.example.in',
}

const confirmed = paymentConfirmedEmail(
  {
    name: 'asha verma',
    method: 'GATEWAY',
    amountPaise: 299_900,
    subscriptions: [{ serviceName: 'Equity <Pro>', endsOn: '01-05-2026' }],
  },
  context,
)
const rejected = paymentRejectedEmail(
  {
    name: 'ASHA VERMA',
    amountPaise: 149_900,
    serviceNames: ['Options', 'Equity'],
    reason: 'No transfer with this UTR',
  },
  context,
)
const granted = subscriptionGrantedEmail(
  { name: 'asha', serviceName: 'Equity', durationDays: 30, endsOn: '01-05-2026', reason: 'Outage' },
  context,
)

describe('personName', () => {
  it('title-cases a name typed all in lower or upper case, and keeps one typed with care', () => {
    expect(personName('asha verma')).toBe('Asha Verma')
    expect(personName('  ASHA   VERMA ')).toBe('Asha Verma')
    expect(personName("d'souza mary-ann")).toBe("D'Souza Mary-Ann")
    expect(personName('Asha McDonald')).toBe('Asha McDonald')
    expect(personName('')).toBe('')
    expect(personName(null)).toBe('')
  })
})

describe.each([
  ['payment confirmed', confirmed],
  ['payment rejected', rejected],
  ['subscription granted', granted],
])('the %s e-mail', (_, email) => {
  it('is an HTML document with a plain-text part', () => {
    expect(email.html).toMatch(/^<!DOCTYPE html><html lang="en">/)
    expect(email.html).toContain(`<title>${email.subject}</title>`)
    expect(email.body).not.toMatch(/<\/?(html|p|a|br|td|ul)\b/)
  })

  it('greets the customer by name in title case', () => {
    expect(email.body).toMatch(/^Hello Asha( Verma)?,\n/)
    expect(email.html).toMatch(/Hello Asha( Verma)?,/)
    expect(email.body).not.toMatch(/asha|ASHA/)
  })

  it('carries the business name, the SEBI registration line, the support contact and a link back', () => {
    for (const part of [email.body, email.html]) {
      expect(part).toContain('Kavya Iyer Research')
      expect(part).toContain('SEBI Registered Research Analyst, Registration No. INH000098765')
      expect(part).toContain('help@kavya.example.in')
      expect(part).toContain('+91 00000 11111')
      expect(part).toContain('https://store.example.in')
    }
    expect(email.html).toContain('href="mailto:help@kavya.example.in"')
    expect(email.html).toContain('href="tel:+910000011111"')
    expect(email.replyTo).toBe('help@kavya.example.in')
  })
})

describe('the payment confirmed e-mail', () => {
  it('says what was paid and until when each subscription runs, and links to the subscriptions', () => {
    expect(confirmed.subject).toBe('Your payment is confirmed')
    expect(confirmed.body).toContain('We received your payment of Rs. 2,999.')
    expect(confirmed.body).toContain('- Equity <Pro>: ends on 01-05-2026')
    expect(confirmed.body).toContain('See your subscriptions: https://store.example.in/subscriptions')
    expect(confirmed.html).toContain('href="https://store.example.in/subscriptions"')
    // Text from the database is escaped in the HTML part.
    expect(confirmed.html).toContain('Equity &lt;Pro&gt;')
  })

  it('names a bank transfer as such', () => {
    const manual = paymentConfirmedEmail(
      { name: null, method: 'MANUAL', amountPaise: 100, subscriptions: [] },
      { ...context, origin: null },
    )
    expect(manual.body).toMatch(/^Hello,\n/)
    expect(manual.body).toContain('We received your bank transfer of Rs. 1.')
  })
})

describe('the payment rejected e-mail', () => {
  it('gives the reason on its own line and the next step, with a link to pay again', () => {
    expect(rejected.subject).toBe('We could not verify your payment')
    expect(rejected.body).toContain(
      'We could not find your bank transfer of Rs. 1,499 for Options, Equity, so nothing was added to your account.',
    )
    expect(rejected.body).toContain('\nReason: No transfer with this UTR\n')
    expect(rejected.body).toContain(
      'If you did send the money, reply to this e-mail or write to help@kavya.example.in with the screenshot of the transfer and its UTR, and we will check again.',
    )
    expect(rejected.body).toContain('See the claim and pay again: https://store.example.in/subscriptions')
    expect(rejected.html).toContain('href="https://store.example.in/subscriptions"')
  })
})

describe('the subscription granted e-mail', () => {
  it('says what was added, until when, and why', () => {
    expect(granted.subject).toBe('A subscription was added to your account')
    expect(granted.body).toContain('We added 30 days of Equity to your account, at no charge. It ends on 01-05-2026.')
    expect(granted.body).toContain('\nReason: Outage\n')
  })
})

describe('without a public address', () => {
  it('leaves the links out rather than send a broken one', () => {
    const email = paymentConfirmedEmail(
      { name: 'asha', method: 'GATEWAY', amountPaise: 100, subscriptions: [] },
      { ...context, origin: null },
    )
    expect(email.body).not.toContain('http')
    expect(email.html).not.toContain('href="http')
  })
})

describe('the copy of the onboarding documents', () => {
  const copy = onboardingCopyEmail(
    {
      name: 'asha',
      acceptedAt: '26-11-2026 11:42 IST',
      documents: [
        { title: 'Terms and Conditions', version: 'agreement-aaaaaaaaaaaa', text: 'Terms\n\n- one <b>clause</b>' },
        { title: 'Investor Charter', version: 'charter-bbbbbbbbbbbb', text: 'Charter text' },
      ],
    },
    context,
  )

  it('lists each document with its version and the time, then quotes each text whole', () => {
    expect(copy.subject).toBe('Your copy of the terms you accepted')
    expect(copy.body).toContain('- Terms and Conditions: version agreement-aaaaaaaaaaaa, accepted 26-11-2026 11:42 IST')
    expect(copy.body).toContain(
      '===== Investor Charter (version charter-bbbbbbbbbbbb) =====\n\nCharter text\n\n===== End of Investor Charter',
    )
    expect(copy.body).toContain('Terms\n\n- one <b>clause</b>')
  })

  it('escapes the quoted text in the HTML part and keeps its line breaks', () => {
    expect(copy.html).toContain('one &lt;b&gt;clause&lt;/b&gt;')
    expect(copy.html).toContain('white-space:pre-wrap')
  })
})

describe('one e-mail rendered once for many recipients', () => {
  const content: Omit<EmailContent, 'name'> = {
    template: 'research',
    subject: 'Research: Cement <volumes>',
    blocks: [
      { kind: 'paragraph', text: 'Volumes rose & prices held.' },
      { kind: 'list', items: ['Capacity up', 'Hello Asha,'] },
      { kind: 'action', label: 'Read it on the site', path: '/research/1' },
    ],
  }
  const copyFor = renderEmailForEach(content, context)

  it.each([['asha verma'], ['O\'Brien <b>&</b> "co"'], [null], ['  ']])(
    'greets %j exactly as the e-mail rendered for them alone',
    (name) => {
      expect(copyFor(name)).toEqual(renderEmail({ ...content, name }, context))
    },
  )

  it('gives each recipient their own greeting and nobody else’s', () => {
    const asha = copyFor('asha')
    const ravi = copyFor('ravi')
    expect(asha.body.startsWith('Hello Asha,\n\n')).toBe(true)
    expect(ravi.html).toContain('Hello Ravi,')
    expect(ravi.html).not.toContain('Hello Asha,</p>')
  })
})
