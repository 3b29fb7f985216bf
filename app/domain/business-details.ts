/**
 * Who we are, as the regulatory pages, the footer, the agreement and the payment instructions show
 * it. Parsed once from the environment by app/server/business.server.ts; pages get it from loaders.
 */
import type { GstRegistration } from './gst'

export type Officer = { name: string; phone: string; email: string }

/**
 * A performance report we may publish: SEBI's advertisement code forbids past-performance claims
 * that a Past Risk and Return Verification Agency (PaRRVA) has not verified, so each carries the
 * PaRRVA's verification reference and the date of that verification (YYYY-MM-DD).
 */
export type VerifiedPerformanceReport = { label: string; url: string; parrvaReference: string; verifiedOn: string }

/** The annual compliance audit (SEBI: publish its status on the website). Dates are YYYY-MM-DD. */
export type ComplianceAudit = {
  /** The audited financial year, as "2025-26". */
  financialYear: string
  completedOn: string
  /** The adverse findings and what became of them, or a statement that there were none. */
  adverseFindings: string
}

/**
 * Who processes personal data for us or receives it (DPDP Act s.8(2) and s.11(1)(b)): named in the Privacy Policy and
 * in the customer's data download, from the business details (docs/regulatory.md, Business details).
 */
export type DataRecipients = {
  kra: string
  paymentGateway: string
  smsProvider: string
  emailProvider: string
  storageProvider: string
  hostingProvider: string
}

export type BankAccount = { accountNumber: string; ifsc: string; accountName: string }

export type BusinessDetails = {
  /** The name registered with SEBI. */
  name: string
  /** The name customers know the store by (BRAND_NAME; the registered name when unset): page titles, the logo, SMS. */
  brandName: string
  /** SEBI registration number of the research analyst, INH followed by nine digits. */
  sebiRegistrationNumber: string
  /** The date SEBI granted the registration (YYYY-MM-DD). */
  sebiRegistrationDate: string
  /** The enlistment number with BSE, the Research Analyst Administration and Supervisory Body (RAASB). */
  bseEnlistmentNumber: string
  address: string
  supportPhone: string
  supportEmail: string
  whatsappNumber: string
  /** The account manual payments go to; held in the registered name. */
  bankAccount: BankAccount
  principalOfficer: Officer
  complianceOfficer: Officer
  customerCareOfficer: Officer
  /**
   * The first contact for every complaint, apart from the compliance officer (docs/regulatory.md, Business details).
   */
  grievanceOfficer: Officer
  workingHours: string
  tollFreeNumbers: string[]
  /** The city whose courts have exclusive jurisdiction under the terms. */
  jurisdictionCity: string
  /** Empty until a PaRRVA has verified a report: /performance-report then says none is published. */
  performanceReports: VerifiedPerformanceReport[]
  /** Statements of fact the RA must make and keep current, shown on /disclosure. */
  disciplinaryHistory: string
  aiToolsDisclosure: string
  /** The associates of the RA (SEBI RA Regulations), or a statement that there are none. */
  associates: string
  complianceAudit: ComplianceAudit
  dataRecipients: DataRecipients
  /** Null when the business is not GST-registered: payments then get receipts, not tax invoices. */
  gst: GstRegistration | null
}

/** What the footer of every page shows; kept small because it is serialised into every page. */
export type RegistrationDetails = Pick<
  BusinessDetails,
  'name' | 'brandName' | 'sebiRegistrationNumber' | 'bseEnlistmentNumber' | 'grievanceOfficer'
>

/**
 * The brand with the registered name beside it when they differ ("Research Store (Asha Rao Research)"):
 * how an SMS names its sender and the header's logo text names the store. SEBI registers the name, not the brand.
 */
export function brandWithRegisteredName(details: Pick<BusinessDetails, 'name' | 'brandName'>): string {
  return details.brandName === details.name ? details.name : `${details.brandName} (${details.name})`
}

/**
 * A page's title: "<page> | <brand>", the brand from the root loader's business details (the
 * first match); the page alone when the root has none (its loader failed), the brand alone for the home page.
 */
export function siteTitle(
  matches: readonly ({ id: string; loaderData?: unknown } | undefined)[],
  page?: string,
): string {
  const root = matches.find((match) => match?.id === 'root')?.loaderData as
    { registration?: { brandName?: string } } | undefined
  const brand = root?.registration?.brandName
  if (!page) return brand ?? 'Home'
  return brand ? `${page} | ${brand}` : page
}

/** A `tel:` address for a phone number as written for people ("+91 00000 00000" -> "tel:+910000000000"). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^+\d]/g, '')}`
}

/** A WhatsApp chat link for a phone number as written for people ("+91 00000 00000" -> "https://wa.me/910000000000"). */
export function whatsappHref(phone: string): string {
  return `https://wa.me/${phone.replace(/\D/g, '')}`
}
