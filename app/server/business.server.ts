import { z } from 'zod'
import type { BusinessDetails } from '~/domain/business-details'
import { BASIS_POINTS_PER_PERCENT, GSTIN_PATTERN, gstStateOf, type GstRegistration } from '~/domain/gst'
import { env, EnvError } from './env.server'

const phone = z
  .string()
  .trim()
  .regex(/^\+?\d[\d -]{5,18}\d$/, 'must be a phone number: digits, spaces or hyphens, optionally starting with +')
const email = z
  .string()
  .trim()
  .pipe(z.email({ error: 'must be an e-mail address' }))
const text = z.string().trim().min(2, 'must be at least 2 characters').max(1000, 'must be at most 1000 characters')
const commaSeparated = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)

const isoDate = z.iso.date({ error: 'must be a date written YYYY-MM-DD, e.g. 2024-06-17' })

const verifiedPerformanceReport = z
  .string()
  .regex(
    /^[^|]+\|[^|]+\|[^|]+\|[^|]+$/,
    'must be a comma-separated list of "label|https://...|PaRRVA verification reference|YYYY-MM-DD" entries (only reports a PaRRVA has verified)',
  )
  .transform((entry) => {
    const [label, url, parrvaReference, verifiedOn] = entry.split('|').map((part) => part.trim()) as [
      string,
      string,
      string,
      string,
    ]
    return { label, url, parrvaReference, verifiedOn }
  })
  .pipe(
    z.object({
      label: z.string().min(1, 'must give each report a label before the first |'),
      url: z.url({ protocol: /^https$/, error: 'must give each report an https:// URL after the first |' }),
      parrvaReference: z
        .string()
        .min(3, "must give each report the PaRRVA's verification reference after the second |"),
      verifiedOn: z.iso.date({ error: 'must give each report the date of its PaRRVA verification, YYYY-MM-DD, last' }),
    }),
  )

/** A financial year as India writes it, "2025-26": April 2025 to March 2026. */
const financialYear = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}$/, 'must be a financial year written like 2025-26')
  .refine(
    (year) => (Number(year.slice(0, 4)) + 1) % 100 === Number(year.slice(5)),
    'must be a financial year written like 2025-26 (two consecutive years)',
  )

const BusinessEnvSchema = z.object({
  BUSINESS_NAME: text,
  /** The name customers know the store by (page titles, the logo's text, SMS); unset: the registered name. */
  BRAND_NAME: z
    .string()
    .trim()
    .min(2, 'must be at least 2 characters')
    .max(40, 'must be at most 40 characters')
    .optional(),
  SEBI_REGISTRATION_NUMBER: z
    .string()
    .trim()
    .regex(/^INH\d{9}$/, 'must be INH followed by 9 digits, e.g. INH000012345'),
  SEBI_REGISTRATION_DATE: isoDate,
  BSE_ENLISTMENT_NUMBER: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9/-]{3,30}$/, 'must be the enlistment number BSE gave: 3 to 30 letters, digits, / or -'),
  BUSINESS_ADDRESS: text,
  SUPPORT_PHONE: phone,
  SUPPORT_EMAIL: email,
  WHATSAPP_NUMBER: phone,
  BANK_ACCOUNT_NUMBER: z
    .string()
    .trim()
    .regex(/^\d{9,18}$/, 'must be 9 to 18 digits'),
  BANK_IFSC: z
    .string()
    .trim()
    .regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, 'must be an IFSC: 4 capital letters, 0, then 6 letters or digits'),
  BANK_ACCOUNT_NAME: text,
  PRINCIPAL_OFFICER_NAME: text,
  PRINCIPAL_OFFICER_PHONE: phone,
  PRINCIPAL_OFFICER_EMAIL: email,
  COMPLIANCE_OFFICER_NAME: text,
  COMPLIANCE_OFFICER_PHONE: phone,
  COMPLIANCE_OFFICER_EMAIL: email,
  CUSTOMER_CARE_OFFICER_NAME: text,
  CUSTOMER_CARE_OFFICER_PHONE: phone,
  CUSTOMER_CARE_OFFICER_EMAIL: email,
  GRIEVANCE_OFFICER_NAME: text,
  GRIEVANCE_OFFICER_PHONE: phone,
  GRIEVANCE_OFFICER_EMAIL: email,
  WORKING_HOURS: text,
  TOLL_FREE_NUMBERS: z
    .string()
    .transform(commaSeparated)
    .pipe(
      z
        .array(phone, { error: 'must be a comma-separated list of phone numbers' })
        .min(1, 'must list at least one number'),
    ),
  JURISDICTION_CITY: text,
  PERFORMANCE_REPORT_LINKS: z.string().default('').transform(commaSeparated).pipe(z.array(verifiedPerformanceReport)),
  DISCLOSURE_DISCIPLINARY_HISTORY: text,
  DISCLOSURE_AI_TOOLS: text,
  DISCLOSURE_ASSOCIATES: text,
  COMPLIANCE_AUDIT_FINANCIAL_YEAR: financialYear,
  COMPLIANCE_AUDIT_COMPLETED_ON: isoDate,
  COMPLIANCE_AUDIT_ADVERSE_FINDINGS: text,
  DATA_RECIPIENT_KRA: text,
  DATA_RECIPIENT_PAYMENT_GATEWAY: text,
  DATA_RECIPIENT_SMS: text,
  DATA_RECIPIENT_EMAIL: text,
  DATA_RECIPIENT_STORAGE: text,
  DATA_RECIPIENT_HOSTING: text,
})

type BusinessVariable = keyof z.input<typeof BusinessEnvSchema>

/** Optional even in a deployment: a business below the GST threshold leaves GSTIN unset and issues receipts. */
const GstEnvSchema = z.object({
  GSTIN: z.string().trim().regex(GSTIN_PATTERN, 'must be a 15-character GSTIN, e.g. 27ABCDE1234F1Z5').optional(),
  GST_LEGAL_NAME: text.optional(),
  GST_SAC_CODE: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'must be the 6-digit service accounting code printed on invoices')
    .optional(),
  GST_RATE_PERCENT: z.coerce
    .number({ error: 'must be a number of percent, e.g. 18' })
    .positive('must be more than 0')
    .max(40, 'must be at most 40')
    .refine((percent) => Number.isInteger(percent * BASIS_POINTS_PER_PERCENT), 'must have at most 2 decimals')
    .default(18),
})

/** Every service accounting code (Chapter 99 of the GST classification) starts with these digits. */
const SERVICES_SAC_PREFIX = '99'

/** Demo mode's GST registration: state code 00 and a zero SAC code exist nowhere, like the other demo values. */
export const DEMO_GST_ENV = { GSTIN: '00AAAAA0000A1Z5', GST_SAC_CODE: '000000' } as const

function parseGstRegistration(
  source: Record<string, string | undefined>,
  { demoMode, businessName }: { demoMode: boolean; businessName: string },
): GstRegistration | null {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''))
  const result = GstEnvSchema.safeParse(demoMode ? { ...DEMO_GST_ENV, ...present } : present)
  if (!result.success) {
    const issue = result.error.issues[0]!
    throw new EnvError(`Invalid environment variable ${String(issue.path[0])}: ${issue.message}`)
  }
  const { GSTIN, GST_LEGAL_NAME, GST_SAC_CODE, GST_RATE_PERCENT } = result.data
  if (!GSTIN) return null
  if (!GST_SAC_CODE) throw new EnvError('Missing environment variable GST_SAC_CODE; required when GSTIN is set')
  if (!demoMode) {
    // An invoice under a demo GSTIN or SAC would be a false tax document: its state prints as none, its code as no service.
    for (const [name, value] of [
      ['GSTIN', GSTIN],
      ['GST_SAC_CODE', GST_SAC_CODE],
    ] as const) {
      if (value === DEMO_GST_ENV[name])
        throw new EnvError(
          `Environment variable ${name} is still its demo value "${value}"; a deployment (DEMO_MODE=0) must give the real one`,
        )
    }
    if (gstStateOf(GSTIN).name === null)
      throw new EnvError(
        `Invalid environment variable GSTIN: must start with a GST state code (27 for Maharashtra), not ${GSTIN.slice(0, 2)}`,
      )
    if (!GST_SAC_CODE.startsWith(SERVICES_SAC_PREFIX))
      throw new EnvError(
        `Invalid environment variable GST_SAC_CODE: a service accounting code starts with ${SERVICES_SAC_PREFIX} (998399, for example), not ${GST_SAC_CODE}`,
      )
  }
  return {
    gstin: GSTIN,
    legalName: GST_LEGAL_NAME ?? businessName,
    sacCode: GST_SAC_CODE,
    rateBasisPoints: Math.round(GST_RATE_PERCENT * BASIS_POINTS_PER_PERCENT),
  }
}

/**
 * Demo mode's values: plainly fake (nobody's name, no real account, numbers starting 00000), so a
 * demo can never be mistaken for the real business. A deployment must set every one of them.
 */
export const DEMO_BUSINESS_ENV: Record<BusinessVariable, string> = {
  BUSINESS_NAME: 'Demo Research Analyst',
  BRAND_NAME: 'Research Store',
  SEBI_REGISTRATION_NUMBER: 'INH000000000',
  SEBI_REGISTRATION_DATE: '2000-01-01',
  BSE_ENLISTMENT_NUMBER: '00000',
  BUSINESS_ADDRESS: 'Office 000, Demo Towers, Example Road, Mumbai, Maharashtra 400000',
  SUPPORT_PHONE: '+91 00000 00001',
  SUPPORT_EMAIL: 'support@example.in',
  WHATSAPP_NUMBER: '+91 00000 00002',
  BANK_ACCOUNT_NUMBER: '000000000000',
  BANK_IFSC: 'DEMO0000000',
  BANK_ACCOUNT_NAME: 'Demo Research Analyst',
  PRINCIPAL_OFFICER_NAME: 'Demo Principal Officer',
  PRINCIPAL_OFFICER_PHONE: '+91 00000 00003',
  PRINCIPAL_OFFICER_EMAIL: 'principal.officer@example.in',
  COMPLIANCE_OFFICER_NAME: 'Demo Compliance Officer',
  COMPLIANCE_OFFICER_PHONE: '+91 00000 00004',
  COMPLIANCE_OFFICER_EMAIL: 'compliance@example.in',
  CUSTOMER_CARE_OFFICER_NAME: 'Demo Customer Care Officer',
  CUSTOMER_CARE_OFFICER_PHONE: '+91 00000 00005',
  CUSTOMER_CARE_OFFICER_EMAIL: 'care@example.in',
  GRIEVANCE_OFFICER_NAME: 'Demo Grievance Officer',
  GRIEVANCE_OFFICER_PHONE: '+91 00000 00006',
  GRIEVANCE_OFFICER_EMAIL: 'grievances@example.in',
  WORKING_HOURS: '9 AM - 5 PM on market days',
  TOLL_FREE_NUMBERS: '1800 000 0000',
  JURISDICTION_CITY: 'Mumbai',
  // None: the demo has no performance a PaRRVA verified, so /performance-report says none is published.
  PERFORMANCE_REPORT_LINKS: '',
  DISCLOSURE_DISCIPLINARY_HISTORY:
    'Demo value: no penalties or directions have been issued against this demo research analyst.',
  DISCLOSURE_AI_TOOLS:
    'Demo value: this demo research analyst does not use artificial intelligence tools in its research services.',
  DISCLOSURE_ASSOCIATES: 'Demo value: this demo research analyst has no associates.',
  COMPLIANCE_AUDIT_FINANCIAL_YEAR: '2000-01',
  COMPLIANCE_AUDIT_COMPLETED_ON: '2001-09-30',
  COMPLIANCE_AUDIT_ADVERSE_FINDINGS: 'Demo value: no adverse findings.',
  // Who receives personal data (the Privacy Policy and the data download name them): plainly not real providers.
  DATA_RECIPIENT_KRA: 'Demo KYC Registration Agency (demo value)',
  DATA_RECIPIENT_PAYMENT_GATEWAY: 'Demo payment gateway (demo value)',
  DATA_RECIPIENT_SMS: 'Demo SMS provider (demo value)',
  DATA_RECIPIENT_EMAIL: 'Demo e-mail provider (demo value)',
  DATA_RECIPIENT_STORAGE: 'Demo storage provider (demo value)',
  DATA_RECIPIENT_HOSTING: 'Demo hosting provider (demo value)',
}

/**
 * What a deployment may leave unset: the original store's hours (docs/product.md section 9), and the
 * performance reports (none until a PaRRVA has verified one).
 */
const OPTIONAL_VARIABLES: readonly BusinessVariable[] = ['WORKING_HOURS', 'PERFORMANCE_REPORT_LINKS', 'BRAND_NAME']

/**
 * Demo values a real business may share (the original store's hours and city, docs/product.md sections 2 and 9): not
 * refused in a deployment.
 */
const REAL_LOOKING_DEMO_VARIABLES: readonly BusinessVariable[] = ['WORKING_HOURS', 'JURISDICTION_CITY']

const DEFAULT_WORKING_HOURS = DEMO_BUSINESS_ENV.WORKING_HOURS

/**
 * Parses the business details from the environment; throws an EnvError whose message is one line
 * naming the variable (the style of parseEnv). In demo mode every unset variable takes its demo
 * value; otherwise every variable but the optional ones must be set, and none to its demo value.
 */
export function parseBusinessDetails(
  source: Record<string, string | undefined>,
  { demoMode }: { demoMode: boolean },
): BusinessDetails {
  const variables = Object.keys(DEMO_BUSINESS_ENV) as BusinessVariable[]
  const present = Object.fromEntries(
    variables.flatMap((name) => (source[name] !== undefined && source[name] !== '' ? [[name, source[name]]] : [])),
  ) as Partial<Record<BusinessVariable, string>>
  if (!demoMode) {
    const missing = variables.find((name) => !OPTIONAL_VARIABLES.includes(name) && present[name] === undefined)
    if (missing) {
      throw new EnvError(
        `Missing environment variable ${missing} (business details shown on the regulatory pages); required when DEMO_MODE=0`,
      )
    }
    const stillDemo = variables.find(
      (name) => !REAL_LOOKING_DEMO_VARIABLES.includes(name) && present[name]?.trim() === DEMO_BUSINESS_ENV[name],
    )
    if (stillDemo) {
      throw new EnvError(
        `Environment variable ${stillDemo} is still its demo value "${DEMO_BUSINESS_ENV[stillDemo]}"; a deployment (DEMO_MODE=0) must give the real one`,
      )
    }
  }
  const result = BusinessEnvSchema.safeParse(
    demoMode ? { ...DEMO_BUSINESS_ENV, ...present } : { WORKING_HOURS: DEFAULT_WORKING_HOURS, ...present },
  )
  if (!result.success) {
    const issue = result.error.issues[0]!
    throw new EnvError(`Invalid environment variable ${String(issue.path[0])}: ${issue.message}`)
  }
  const values = result.data
  const auditedYearEnds = `${Number(values.COMPLIANCE_AUDIT_FINANCIAL_YEAR.slice(0, 4)) + 1}-03-31`
  if (values.COMPLIANCE_AUDIT_COMPLETED_ON <= auditedYearEnds) {
    throw new EnvError(
      `Invalid environment variable COMPLIANCE_AUDIT_COMPLETED_ON: must be after the audited financial year ends (${auditedYearEnds})`,
    )
  }
  return {
    name: values.BUSINESS_NAME,
    brandName: values.BRAND_NAME ?? values.BUSINESS_NAME,
    sebiRegistrationNumber: values.SEBI_REGISTRATION_NUMBER,
    sebiRegistrationDate: values.SEBI_REGISTRATION_DATE,
    bseEnlistmentNumber: values.BSE_ENLISTMENT_NUMBER,
    address: values.BUSINESS_ADDRESS,
    supportPhone: values.SUPPORT_PHONE,
    supportEmail: values.SUPPORT_EMAIL,
    whatsappNumber: values.WHATSAPP_NUMBER,
    bankAccount: {
      accountNumber: values.BANK_ACCOUNT_NUMBER,
      ifsc: values.BANK_IFSC,
      accountName: values.BANK_ACCOUNT_NAME,
    },
    principalOfficer: {
      name: values.PRINCIPAL_OFFICER_NAME,
      phone: values.PRINCIPAL_OFFICER_PHONE,
      email: values.PRINCIPAL_OFFICER_EMAIL,
    },
    complianceOfficer: {
      name: values.COMPLIANCE_OFFICER_NAME,
      phone: values.COMPLIANCE_OFFICER_PHONE,
      email: values.COMPLIANCE_OFFICER_EMAIL,
    },
    customerCareOfficer: {
      name: values.CUSTOMER_CARE_OFFICER_NAME,
      phone: values.CUSTOMER_CARE_OFFICER_PHONE,
      email: values.CUSTOMER_CARE_OFFICER_EMAIL,
    },
    grievanceOfficer: {
      name: values.GRIEVANCE_OFFICER_NAME,
      phone: values.GRIEVANCE_OFFICER_PHONE,
      email: values.GRIEVANCE_OFFICER_EMAIL,
    },
    workingHours: values.WORKING_HOURS,
    tollFreeNumbers: values.TOLL_FREE_NUMBERS,
    jurisdictionCity: values.JURISDICTION_CITY,
    performanceReports: values.PERFORMANCE_REPORT_LINKS,
    disciplinaryHistory: values.DISCLOSURE_DISCIPLINARY_HISTORY,
    aiToolsDisclosure: values.DISCLOSURE_AI_TOOLS,
    associates: values.DISCLOSURE_ASSOCIATES,
    complianceAudit: {
      financialYear: values.COMPLIANCE_AUDIT_FINANCIAL_YEAR,
      completedOn: values.COMPLIANCE_AUDIT_COMPLETED_ON,
      adverseFindings: values.COMPLIANCE_AUDIT_ADVERSE_FINDINGS,
    },
    dataRecipients: {
      kra: values.DATA_RECIPIENT_KRA,
      paymentGateway: values.DATA_RECIPIENT_PAYMENT_GATEWAY,
      smsProvider: values.DATA_RECIPIENT_SMS,
      emailProvider: values.DATA_RECIPIENT_EMAIL,
      storageProvider: values.DATA_RECIPIENT_STORAGE,
      hostingProvider: values.DATA_RECIPIENT_HOSTING,
    },
    gst: parseGstRegistration(
      {
        GSTIN: source.GSTIN,
        GST_LEGAL_NAME: source.GST_LEGAL_NAME,
        GST_SAC_CODE: source.GST_SAC_CODE,
        GST_RATE_PERCENT: source.GST_RATE_PERCENT,
      },
      { demoMode, businessName: values.BUSINESS_NAME },
    ),
  }
}

export const businessDetails: BusinessDetails = parseBusinessDetails(process.env, { demoMode: env.DEMO_MODE })
