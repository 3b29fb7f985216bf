import { expect, test, type Page } from '@playwright/test'
import { E2E_BUSINESS_DETAILS as details } from '../fixtures/business-details'
import { expectNoSeriousA11yViolations } from './axe'
import { expectNoPlaceholders } from './page-text'

const SEBI_STANDARD_WARNING =
  'Investment in securities market are subject to market risks. Read all the related documents carefully before investing.'

/** Each public regulatory page: its one heading, and clauses and configured details it must show. */
const PAGES: { path: string; heading: string; shows: (string | RegExp)[] }[] = [
  {
    path: '/terms-and-conditions',
    heading: 'Terms and Conditions',
    shows: [
      /^Effective date: \d{1,2} [A-Z][a-z]+ \d{4}$/,
      /^Version: agreement-[0-9a-f]{12}$/,
      'You must be at least 18 years old',
      'These Terms are governed by the laws of India',
      `the courts at ${details.jurisdictionCity} have exclusive jurisdiction`,
      'We keep your account data for 90 days after your account is closed',
      'We communicate with you in English',
      `Any notice to us under these Terms must be sent to ${details.supportEmail}`,
      'limited to the lesser of Rs. 1,000 and the fees you paid us in the six months',
      'we refund the proportionate fee for the unexpired period',
      `account name ${details.bankAccount.accountName}, account number ${details.bankAccount.accountNumber}, IFSC ${details.bankAccount.ifsc}`,
      `send a screenshot of the payment to our WhatsApp number ${details.whatsappNumber}`,
      `registration number ${details.sebiRegistrationNumber}, with its registered office at ${details.address}`,
      "30. SEBI's minimum mandatory terms",
      '31. Most Important Terms and Conditions (MITC)',
      '31.4 Refund on early termination',
      '32. Consent statement',
      'there is no recourse to claim any losses',
    ],
  },
  {
    path: '/mitc',
    heading: 'Most Important Terms and Conditions (MITC)',
    shows: [
      /^Version: mitc-[0-9a-f]{12}$/,
      'Research services only',
      'Refund on early termination',
      'The RA cannot execute or carry out any trade (purchase or sale) on your behalf',
      'you acknowledge them on their own when you complete your profile',
    ],
  },
  {
    path: '/investor-charter',
    heading: 'Investor Charter',
    shows: [
      'A. Vision and mission',
      'B. Details of business transacted by the research analyst with respect to investors',
      'C. Details of services provided to investors (no indicative timelines)',
      'D. Details of the grievance redressal mechanism and how to access it',
      'E. Rights of investors',
      "F. Expectations from investors (responsibilities of investors): do's and don'ts",
      'in any case within 21 days of receiving it',
      'Right to exit from the research services in accordance with the terms and conditions agreed with the research analyst.',
      details.supportEmail,
    ],
  },
  {
    path: '/grievance-redressal',
    heading: 'Grievance Redressal',
    shows: [
      'Step 1: complain to us',
      'Step 2: escalate to SEBI on SCORES',
      'Step 3: online dispute resolution',
      'If we have not resolved your complaint within 21 days of receiving it',
      details.name,
      details.sebiRegistrationNumber,
      details.address,
      details.whatsappNumber,
      details.bseEnlistmentNumber,
      ...[
        details.grievanceOfficer,
        details.customerCareOfficer,
        details.principalOfficer,
        details.complianceOfficer,
      ].flatMap((officer) => [officer.name, officer.phone, officer.email]),
      ...details.tollFreeNumbers,
    ],
  },
  {
    path: '/disclaimer',
    heading: 'Disclaimer',
    shows: [
      `${details.name} is registered with SEBI as a research analyst (registration number ${details.sebiRegistrationNumber})`,
      'We are not registered with SEBI as an investment adviser.',
      'Low risk: ',
      'Moderate risk: ',
      'High risk: Equity recommendations whose prices can fall sharply',
      'Very high risk: Trading ideas in derivatives',
      'Derivatives risk:',
    ],
  },
  {
    path: '/disclosure',
    heading: 'Disclosure',
    shows: [
      `Name as registered with SEBI: ${details.name}`,
      `SEBI registration number: ${details.sebiRegistrationNumber}`,
      `Principal Officer: ${details.principalOfficer.name}, ${details.principalOfficer.email}, ${details.principalOfficer.phone}`,
      `Compliance Officer: ${details.complianceOfficer.name}, ${details.complianceOfficer.email}, ${details.complianceOfficer.phone}`,
      details.disciplinaryHistory,
      details.aiToolsDisclosure,
      `Date of registration: 14-08-2019`,
      `BSE enlistment number: ${details.bseEnlistmentNumber}`,
      `Grievance Officer: ${details.grievanceOfficer.name}, ${details.grievanceOfficer.email}, ${details.grievanceOfficer.phone}`,
      details.associates,
      `Financial year audited: ${details.complianceAudit.financialYear}`,
      'Audit completed on: 12-09-2026',
      `Adverse findings and their status: ${details.complianceAudit.adverseFindings}`,
    ],
  },
  {
    path: '/privacy-policy',
    heading: 'Privacy Policy',
    shows: [
      /^Last updated: \d{1,2} [A-Z][a-z]+ \d{4}$/,
      'Digital Personal Data Protection Act, 2023',
      'The personal data we collect and why',
      'How long we keep your personal data',
      'Your rights',
      `contact ${details.complianceOfficer.name}, our Compliance Officer`,
      details.complianceOfficer.email,
      'you can complain to the Data Protection Board of India',
    ],
  },
  {
    path: '/refund-policy',
    heading: 'Refund Policy',
    shows: [
      /^Last updated: \d{1,2} [A-Z][a-z]+ \d{4}$/,
      'whether you end it or we do, you get a refund of the proportionate fee for the unexpired period',
      'Rs. 2,999 × 12 ÷ 30 = Rs. 1,199.60',
      'within 30 days of the date the subscription ended',
      details.supportEmail,
    ],
  },
  {
    path: '/performance-report',
    heading: 'Performance Report',
    shows: [
      ...details.performanceReports.map((report) => report.label),
      'PaRRVA verification reference PRV-TEST-0001, verified on 15-06-2026',
      'PaRRVA verification reference PRV-TEST-0002, verified on 01-07-2026',
      'Past performance does not indicate or guarantee future results.',
      'Registration granted by SEBI, enlistment as RA with Exchange and certification from NISM in no way guarantee performance',
    ],
  },
  {
    path: '/complaint-board',
    heading: 'Complaint Board',
    shows: [
      // Not the month itself: the board reports the last ended month, and admin-complaint-board.spec.ts publishes it.
      /^Data for the month ending \d{1,2} [A-Z][a-z]+ \d{4}$/,
      /^Trend of monthly disposal of complaints \(financial year \d{4}-\d{2}\)$/,
    ],
  },
]

async function mainText(page: Page) {
  return page.getByRole('main').innerText()
}

async function expectSafeExternalLinks(page: Page) {
  const origin = new URL(page.url()).origin
  const links = await page.locator('a[href]').evaluateAll((anchors) =>
    anchors.map((anchor) => ({
      href: (anchor as HTMLAnchorElement).href,
      rel: anchor.getAttribute('rel') ?? '',
      target: anchor.getAttribute('target'),
    })),
  )
  const external = links.filter((link) => /^https?:/.test(link.href) && !link.href.startsWith(origin))
  expect(external.length).toBeGreaterThanOrEqual(2)
  for (const link of external) {
    expect(link.rel.split(/\s+/), link.href).toEqual(expect.arrayContaining(['noopener', 'noreferrer']))
  }
  for (const link of links.filter((candidate) => candidate.target === '_blank')) {
    expect(link.rel.split(/\s+/), link.href).toEqual(expect.arrayContaining(['noopener', 'noreferrer']))
  }
}

async function expectTheFooter(page: Page) {
  const footer = page.getByRole('contentinfo')
  await expect(
    footer.getByText(
      `${details.name}, SEBI Registered Research Analyst, Registration No. ${details.sebiRegistrationNumber}, BSE Enlistment No. ${details.bseEnlistmentNumber}`,
      { exact: true },
    ),
  ).toBeVisible()
  await expect(footer.getByText(SEBI_STANDARD_WARNING, { exact: true })).toBeVisible()
  await expect(footer.getByRole('link', { name: details.grievanceOfficer.email })).toHaveAttribute(
    'href',
    `mailto:${details.grievanceOfficer.email}`,
  )
  const scores = footer.getByRole('link', { name: 'SCORES (opens in a new tab)' })
  await expect(scores).toHaveAttribute('href', 'https://scores.sebi.gov.in')
  await expect(scores).toHaveAttribute('rel', 'noopener noreferrer')
  const odr = footer.getByRole('link', { name: 'SMART ODR portal (opens in a new tab)' })
  await expect(odr).toHaveAttribute('href', 'https://smartodr.in')
  await expect(odr).toHaveAttribute('rel', 'noopener noreferrer')
}

// One page load per page for all that is read off it (the suite's time goes to page loads and axe).
for (const { path, heading, shows } of PAGES) {
  test(`${path}: its one heading and key clauses, no placeholder, safe external links, the footer, no serious accessibility violations`, async ({
    page,
  }) => {
    const response = await page.goto(path)
    expect(response?.status()).toBe(200)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
    await expect(page).toHaveTitle(`${heading} | ${details.brandName}`)
    const main = page.getByRole('main')
    for (const expected of shows) {
      await expect(main.getByText(expected).first(), String(expected)).toBeVisible()
    }
    await expectNoPlaceholders(page.locator('body'))
    await expectSafeExternalLinks(page)
    await expectTheFooter(page)
    await expectNoSeriousA11yViolations(page)
  })
}

test.describe('footer on every other page', () => {
  for (const path of ['/', '/services', '/no/such/page']) {
    test(`${path} shows the registration, the standard warning and the SCORES and SMART ODR links`, async ({
      page,
    }) => {
      await page.goto(path)
      await expectTheFooter(page)
    })
  }
})

/**
 * The same first step (docs/regulatory.md, Business details: GRIEVANCE_OFFICER_*), word for word, wherever the
 * complaint process is described.
 */
const FIRST_CONTACT_STEP = `Complain to us first: file it on our complaint form, or write to our Grievance Officer, ${details.grievanceOfficer.name}, at ${details.grievanceOfficer.email} or call ${details.grievanceOfficer.phone}.`

for (const path of ['/grievance-redressal', '/terms-and-conditions', '/mitc', '/investor-charter']) {
  test(`${path} names the grievance officer and the complaint form as the first step`, async ({ page }) => {
    await page.goto(path)
    const main = page.getByRole('main')
    expect(await mainText(page)).toContain(FIRST_CONTACT_STEP)
    await expect(main.getByRole('link', { name: 'complaint form', exact: true }).first()).toHaveAttribute(
      'href',
      '/complaints/new',
    )
  })
}

test("the terms page's contents lead to its clauses, and its clauses to the other policies", async ({ page }) => {
  await page.goto('/terms-and-conditions')
  const main = page.getByRole('main')
  await main
    .getByRole('navigation', { name: 'Contents' })
    .getByRole('link', { name: '31. Most Important Terms and Conditions (MITC)' })
    .click()
  await expect(page).toHaveURL(/#mitc$/)
  await expect(
    main.getByRole('heading', { level: 2, name: '31. Most Important Terms and Conditions (MITC)' }),
  ).toBeInViewport()
  await main.getByRole('link', { name: 'Refund Policy', exact: true }).first().click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Refund Policy')
  expect(await mainText(page)).toContain('refund of the proportionate fee for the unexpired period')
})

test('the performance report links open the configured reports', async ({ page }) => {
  await page.goto('/performance-report')
  for (const report of details.performanceReports) {
    const link = page.getByRole('main').getByRole('link', { name: `${report.label} (opens in a new tab)` })
    await expect(link).toHaveAttribute('href', report.url)
    await expect(link).toHaveAttribute('target', '_blank')
  }
})

// One test a page: an audit of the long terms page alone can take most of a minute on a loaded machine.
for (const path of ['/terms-and-conditions', '/grievance-redressal']) {
  test(`${path} has no serious accessibility violations in dark mode`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.goto(path)
    await expectNoSeriousA11yViolations(page)
  })
}
