import { describe, expect, it } from 'vitest'
import { brandWithRegisteredName, siteTitle, telHref, whatsappHref } from '~/domain/business-details'
import { DEMO_BUSINESS_ENV, parseBusinessDetails } from '~/server/business.server'
import { E2E_BUSINESS_DETAILS, E2E_BUSINESS_ENV } from '../fixtures/business-details'

const demo = (source: Record<string, string | undefined> = {}) => parseBusinessDetails(source, { demoMode: true })

/** A deployment's complete configuration: every demo value replaced by a real-looking one. */
const DEPLOYMENT: Record<string, string> = {
  BUSINESS_NAME: 'Asha Kulkarni',
  SEBI_REGISTRATION_NUMBER: 'INH000012345',
  SEBI_REGISTRATION_DATE: '2018-04-02',
  BSE_ENLISTMENT_NUMBER: '5123',
  BUSINESS_ADDRESS: '12 MG Road, Pune, Maharashtra 411001',
  SUPPORT_PHONE: '+91 98765 43210',
  SUPPORT_EMAIL: 'help@asha-research.in',
  WHATSAPP_NUMBER: '+91 98765 43211',
  BANK_ACCOUNT_NUMBER: '123456789012',
  BANK_IFSC: 'HDFC0001234',
  BANK_ACCOUNT_NAME: 'Asha Kulkarni',
  PRINCIPAL_OFFICER_NAME: 'Asha Kulkarni',
  PRINCIPAL_OFFICER_PHONE: '+91 98765 43212',
  PRINCIPAL_OFFICER_EMAIL: 'asha@asha-research.in',
  COMPLIANCE_OFFICER_NAME: 'Ravi Menon',
  COMPLIANCE_OFFICER_PHONE: '+91 98765 43213',
  COMPLIANCE_OFFICER_EMAIL: 'compliance@asha-research.in',
  CUSTOMER_CARE_OFFICER_NAME: 'Meera Shah',
  CUSTOMER_CARE_OFFICER_PHONE: '+91 98765 43214',
  CUSTOMER_CARE_OFFICER_EMAIL: 'care@asha-research.in',
  GRIEVANCE_OFFICER_NAME: 'Sunil Rao',
  GRIEVANCE_OFFICER_PHONE: '+91 98765 43215',
  GRIEVANCE_OFFICER_EMAIL: 'grievances@asha-research.in',
  TOLL_FREE_NUMBERS: '1800 123 4567, 1800 765 4321',
  JURISDICTION_CITY: 'Pune',
  PERFORMANCE_REPORT_LINKS:
    'Options|https://asha-research.in/options.pdf|PRV/2026/0042|2026-06-15,Stocks|https://asha-research.in/stocks.pdf|PRV/2026/0043|2026-06-16',
  DISCLOSURE_DISCIPLINARY_HISTORY: 'No penalties or directions have been issued by SEBI against the research analyst.',
  DISCLOSURE_AI_TOOLS: 'We do not use artificial intelligence tools in our research services.',
  DISCLOSURE_ASSOCIATES: 'Asha Kulkarni has no associates.',
  COMPLIANCE_AUDIT_FINANCIAL_YEAR: '2025-26',
  COMPLIANCE_AUDIT_COMPLETED_ON: '2026-09-30',
  COMPLIANCE_AUDIT_ADVERSE_FINDINGS: 'None.',
  DATA_RECIPIENT_KRA: 'CDSL Ventures Limited (CVL KRA)',
  DATA_RECIPIENT_PAYMENT_GATEWAY: 'Razorpay Software Private Limited',
  DATA_RECIPIENT_SMS: 'Walkover Web Solutions Private Limited (MSG91)',
  DATA_RECIPIENT_EMAIL: 'Amazon Web Services India Private Limited (SES)',
  DATA_RECIPIENT_STORAGE: 'Amazon Web Services India Private Limited (S3)',
  DATA_RECIPIENT_HOSTING: 'Amazon Web Services India Private Limited (EC2)',
}

/** What a deployment may leave unset. */
const OPTIONAL = ['PERFORMANCE_REPORT_LINKS']

describe('parseBusinessDetails', () => {
  it('gives plainly fake demo values when nothing is configured in demo mode', () => {
    const details = demo()
    expect(details.name).toBe('Demo Research Analyst')
    expect(details.sebiRegistrationNumber).toBe('INH000000000')
    expect(details.supportEmail).toMatch(/@example\.in$/)
    for (const officer of [
      details.principalOfficer,
      details.complianceOfficer,
      details.customerCareOfficer,
      details.grievanceOfficer,
    ]) {
      expect(officer.name).toMatch(/^Demo /)
      expect(officer.email).toMatch(/@example\.in$/)
      expect(officer.phone).toMatch(/^\+91 00000 /)
    }
    expect(details.bankAccount).toEqual({
      accountNumber: '000000000000',
      ifsc: 'DEMO0000000',
      accountName: 'Demo Research Analyst',
    })
    expect(details.workingHours).toBe('9 AM - 5 PM on market days')
    expect(details.tollFreeNumbers).toEqual(['1800 000 0000'])
    // The demo has no PaRRVA-verified performance, so it publishes none.
    expect(details.performanceReports).toEqual([])
    expect(details.bseEnlistmentNumber).toBe('00000')
    expect(details.complianceAudit.adverseFindings).toMatch(/^Demo value/)
  })

  it('takes each configured value over the demo value, and treats empty as unset', () => {
    const details = demo({
      BUSINESS_NAME: 'Asha Kulkarni',
      SUPPORT_EMAIL: ' help@asha-research.in ',
      JURISDICTION_CITY: '',
    })
    expect(details.name).toBe('Asha Kulkarni')
    expect(details.supportEmail).toBe('help@asha-research.in')
    expect(details.jurisdictionCity).toBe('Mumbai')
  })

  it('maps every variable of a deployment into the details', () => {
    const details = parseBusinessDetails(DEPLOYMENT, { demoMode: false })
    expect(details).toEqual({
      name: 'Asha Kulkarni',
      // No BRAND_NAME: the brand is the registered name.
      brandName: 'Asha Kulkarni',
      sebiRegistrationNumber: 'INH000012345',
      sebiRegistrationDate: '2018-04-02',
      bseEnlistmentNumber: '5123',
      address: '12 MG Road, Pune, Maharashtra 411001',
      supportPhone: '+91 98765 43210',
      supportEmail: 'help@asha-research.in',
      whatsappNumber: '+91 98765 43211',
      bankAccount: { accountNumber: '123456789012', ifsc: 'HDFC0001234', accountName: 'Asha Kulkarni' },
      principalOfficer: { name: 'Asha Kulkarni', phone: '+91 98765 43212', email: 'asha@asha-research.in' },
      complianceOfficer: { name: 'Ravi Menon', phone: '+91 98765 43213', email: 'compliance@asha-research.in' },
      customerCareOfficer: { name: 'Meera Shah', phone: '+91 98765 43214', email: 'care@asha-research.in' },
      grievanceOfficer: { name: 'Sunil Rao', phone: '+91 98765 43215', email: 'grievances@asha-research.in' },
      workingHours: '9 AM - 5 PM on market days',
      tollFreeNumbers: ['1800 123 4567', '1800 765 4321'],
      jurisdictionCity: 'Pune',
      performanceReports: [
        {
          label: 'Options',
          url: 'https://asha-research.in/options.pdf',
          parrvaReference: 'PRV/2026/0042',
          verifiedOn: '2026-06-15',
        },
        {
          label: 'Stocks',
          url: 'https://asha-research.in/stocks.pdf',
          parrvaReference: 'PRV/2026/0043',
          verifiedOn: '2026-06-16',
        },
      ],
      disciplinaryHistory: 'No penalties or directions have been issued by SEBI against the research analyst.',
      aiToolsDisclosure: 'We do not use artificial intelligence tools in our research services.',
      associates: 'Asha Kulkarni has no associates.',
      complianceAudit: { financialYear: '2025-26', completedOn: '2026-09-30', adverseFindings: 'None.' },
      dataRecipients: {
        kra: 'CDSL Ventures Limited (CVL KRA)',
        paymentGateway: 'Razorpay Software Private Limited',
        smsProvider: 'Walkover Web Solutions Private Limited (MSG91)',
        emailProvider: 'Amazon Web Services India Private Limited (SES)',
        storageProvider: 'Amazon Web Services India Private Limited (S3)',
        hostingProvider: 'Amazon Web Services India Private Limited (EC2)',
      },
      gst: null,
    })
  })

  it('reads a GST registration when GSTIN is set: 18% and the business name unless configured', () => {
    const details = parseBusinessDetails(
      { ...DEPLOYMENT, GSTIN: '27ABCDE1234F1Z5', GST_SAC_CODE: '998399' },
      { demoMode: false },
    )
    expect(details.gst).toEqual({
      gstin: '27ABCDE1234F1Z5',
      legalName: 'Asha Kulkarni',
      sacCode: '998399',
      rateBasisPoints: 1800,
    })
    const configured = parseBusinessDetails(
      {
        ...DEPLOYMENT,
        GSTIN: '27ABCDE1234F1Z5',
        GST_SAC_CODE: '998399',
        GST_LEGAL_NAME: 'Asha K',
        GST_RATE_PERCENT: '12.5',
      },
      { demoMode: false },
    )
    expect(configured.gst).toMatchObject({ legalName: 'Asha K', rateBasisPoints: 1250 })
  })

  it('gives demo mode a plainly fake GST registration, so the demo shows the GST lines', () => {
    expect(demo().gst).toEqual({
      gstin: '00AAAAA0000A1Z5',
      legalName: 'Demo Research Analyst',
      sacCode: '000000',
      rateBasisPoints: 1800,
    })
  })

  it.each([
    [{ GSTIN: '27abcde1234f1z5', GST_SAC_CODE: '998399' }, /^Invalid environment variable GSTIN: /],
    [{ GSTIN: '27ABCDE1234F1Z5' }, /^Missing environment variable GST_SAC_CODE; required when GSTIN is set$/],
    [{ GSTIN: '27ABCDE1234F1Z5', GST_SAC_CODE: '9983' }, /^Invalid environment variable GST_SAC_CODE: /],
    [{ GSTIN: '27ABCDE1234F1Z5', GST_SAC_CODE: '998399', GST_RATE_PERCENT: 'eighteen' }, /GST_RATE_PERCENT/],
    [{ GSTIN: '27ABCDE1234F1Z5', GST_SAC_CODE: '998399', GST_RATE_PERCENT: '18.125' }, /GST_RATE_PERCENT: must have/],
    [{ GSTIN: '00AAAAA0000A1Z5', GST_SAC_CODE: '998399' }, /^Environment variable GSTIN is still its demo value /],
    [
      { GSTIN: '27ABCDE1234F1Z5', GST_SAC_CODE: '000000' },
      /^Environment variable GST_SAC_CODE is still its demo value /,
    ],
    [
      { GSTIN: '00BBBBB1111B1Z2', GST_SAC_CODE: '998399' },
      /^Invalid environment variable GSTIN: must start with a GST state code/,
    ],
    [
      { GSTIN: '27ABCDE1234F1Z5', GST_SAC_CODE: '123456' },
      /^Invalid environment variable GST_SAC_CODE: .* starts with 99/,
    ],
  ])('refuses the GST configuration %j in one line', (gst, message) => {
    expect(() => parseBusinessDetails({ ...DEPLOYMENT, ...gst }, { demoMode: false })).toThrow(message)
  })

  it.each([
    ['SEBI_REGISTRATION_NUMBER', 'INA000012345'],
    ['SEBI_REGISTRATION_NUMBER', 'INH12345'],
    ['SUPPORT_EMAIL', 'support-at-example.in'],
    ['SUPPORT_PHONE', 'call us'],
    ['WHATSAPP_NUMBER', '12'],
    ['BANK_IFSC', 'hdfc0001234'],
    ['BANK_ACCOUNT_NUMBER', '12-34'],
    ['COMPLIANCE_OFFICER_EMAIL', 'nobody'],
    ['TOLL_FREE_NUMBERS', '1800 123 4567, free'],
    ['PERFORMANCE_REPORT_LINKS', 'https://example.in/report.pdf'],
    ['PERFORMANCE_REPORT_LINKS', 'Options|https://example.in/report.pdf'],
    ['PERFORMANCE_REPORT_LINKS', 'Options|https://example.in/report.pdf|PRV-1'],
    ['PERFORMANCE_REPORT_LINKS', 'Options|https://example.in/report.pdf|PRV-1|15-06-2026'],
    ['PERFORMANCE_REPORT_LINKS', 'Options|http://example.in/report.pdf|PRV-1|2026-06-15'],
    ['PERFORMANCE_REPORT_LINKS', 'Options|javascript:alert(1)|PRV-1|2026-06-15'],
    ['SEBI_REGISTRATION_DATE', '14/08/2019'],
    ['BSE_ENLISTMENT_NUMBER', 'no'],
    ['GRIEVANCE_OFFICER_EMAIL', 'grievances'],
    ['GRIEVANCE_OFFICER_PHONE', 'write to us'],
    ['COMPLIANCE_AUDIT_FINANCIAL_YEAR', '2025'],
    ['COMPLIANCE_AUDIT_FINANCIAL_YEAR', '2025-27'],
    ['COMPLIANCE_AUDIT_COMPLETED_ON', 'September 2026'],
    ['BUSINESS_NAME', 'x'],
  ])('names %s in a one-line error for %j', (name, value) => {
    expect(() => demo({ [name]: value })).toThrow(new RegExp(`^Invalid environment variable ${name}: [^\\n]+$`))
  })

  it('parses the end-to-end server configuration into the details its specs expect', () => {
    expect(parseBusinessDetails(E2E_BUSINESS_ENV, { demoMode: false })).toEqual(E2E_BUSINESS_DETAILS)
  })

  it('takes the brand from BRAND_NAME, refuses the demo brand in a deployment, and names the registered name beside it', () => {
    const branded = parseBusinessDetails({ ...DEPLOYMENT, BRAND_NAME: ' Asha Research ' }, { demoMode: false })
    expect(branded.brandName).toBe('Asha Research')
    expect(brandWithRegisteredName(branded)).toBe('Asha Research (Asha Kulkarni)')
    expect(brandWithRegisteredName(parseBusinessDetails(DEPLOYMENT, { demoMode: false }))).toBe('Asha Kulkarni')
    expect(() => parseBusinessDetails({ ...DEPLOYMENT, BRAND_NAME: 'Research Store' }, { demoMode: false })).toThrow(
      /BRAND_NAME is still its demo value/,
    )
    expect(() => parseBusinessDetails({ ...DEPLOYMENT, BRAND_NAME: 'x'.repeat(41) }, { demoMode: false })).toThrow(
      /BRAND_NAME: must be at most 40 characters/,
    )
    expect(demo({}).brandName).toBe('Research Store')
  })

  it('titles a page with the brand the root loader gives, or the page alone without it', () => {
    const matches = [{ id: 'root', loaderData: { registration: { brandName: 'Asha Research' } } }, undefined]
    expect(siteTitle(matches, 'Privacy Policy')).toBe('Privacy Policy | Asha Research')
    expect(siteTitle(matches)).toBe('Asha Research')
    expect(siteTitle([], 'Privacy Policy')).toBe('Privacy Policy')
  })

  it('keeps the demo values valid', () => {
    expect(() => parseBusinessDetails(DEMO_BUSINESS_ENV, { demoMode: true })).not.toThrow()
  })

  it('publishes no performance in a deployment that has none verified', () => {
    const { PERFORMANCE_REPORT_LINKS: _none, ...rest } = DEPLOYMENT
    expect(parseBusinessDetails(rest, { demoMode: false }).performanceReports).toEqual([])
  })

  it('refuses an audit completed before the audited financial year ended', () => {
    expect(() =>
      parseBusinessDetails({ ...DEPLOYMENT, COMPLIANCE_AUDIT_COMPLETED_ON: '2026-03-31' }, { demoMode: false }),
    ).toThrow(
      /^Invalid environment variable COMPLIANCE_AUDIT_COMPLETED_ON: must be after the audited financial year ends \(2026-03-31\)$/,
    )
  })

  it.each(
    Object.keys(DEMO_BUSINESS_ENV).filter(
      (name) => !['WORKING_HOURS', 'JURISDICTION_CITY', 'PERFORMANCE_REPORT_LINKS'].includes(name),
    ),
  )('refuses to start a deployment (DEMO_MODE=0) with %s still at its demo value, naming it', (name) => {
    const demoValue = DEMO_BUSINESS_ENV[name as keyof typeof DEMO_BUSINESS_ENV]
    expect(() => parseBusinessDetails({ ...DEPLOYMENT, [name]: demoValue }, { demoMode: false })).toThrow(
      new RegExp(
        `^Environment variable ${name} is still its demo value .+; a deployment \\(DEMO_MODE=0\\) must give the real one$`,
      ),
    )
  })

  it.each(Object.keys(DEPLOYMENT).filter((name) => !OPTIONAL.includes(name)))(
    'refuses to start a deployment (DEMO_MODE=0) without %s',
    (name) => {
      const { [name]: _omitted, ...rest } = DEPLOYMENT
      expect(() => parseBusinessDetails(rest, { demoMode: false })).toThrow(
        new RegExp(`^Missing environment variable ${name} \\(.+\\); required when DEMO_MODE=0$`),
      )
    },
  )
})

describe('telHref', () => {
  it('keeps only the plus sign and digits', () => {
    expect(telHref('+91 98765-43210')).toBe('tel:+919876543210')
    expect(telHref('1800 123 4567')).toBe('tel:18001234567')
  })
})

describe('whatsappHref', () => {
  it('keeps only the digits, country code included', () => {
    expect(whatsappHref('+91 98765-43210')).toBe('https://wa.me/919876543210')
  })
})
