/**
 * Who we are, as the regulatory pages, the footer, the agreement and the payment instructions show
 * it. Parsed once from the environment by app/server/business.server.ts; pages get it from loaders.
 */
import type { GstRegistration } from './gst'

export type Officer = { name: string; phone: string; email: string }

export type PerformanceReportLink = { label: string; url: string }

export type BankAccount = { accountNumber: string; ifsc: string; accountName: string }

export type BusinessDetails = {
  /** The name registered with SEBI. */
  name: string
  /** SEBI registration number of the research analyst, INH followed by nine digits. */
  sebiRegistrationNumber: string
  address: string
  supportPhone: string
  supportEmail: string
  whatsappNumber: string
  /** The account manual payments go to; held in the registered name. */
  bankAccount: BankAccount
  principalOfficer: Officer
  complianceOfficer: Officer
  customerCareOfficer: Officer
  workingHours: string
  tollFreeNumbers: string[]
  /** The city whose courts have exclusive jurisdiction under the terms. */
  jurisdictionCity: string
  performanceReports: PerformanceReportLink[]
  /** Statements of fact the RA must make and keep current, shown on /disclosure. */
  disciplinaryHistory: string
  aiToolsDisclosure: string
  complianceAuditStatus: string
  /** Null when the business is not GST-registered: payments then get receipts, not tax invoices. */
  gst: GstRegistration | null
}

/** What the footer of every page shows; kept small because it is serialised into every page. */
export type RegistrationDetails = Pick<BusinessDetails, 'name' | 'sebiRegistrationNumber'>

/** A `tel:` address for a phone number as written for people ("+91 00000 00000" -> "tel:+910000000000"). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^+\d]/g, '')}`
}

/** A WhatsApp chat link for a phone number as written for people ("+91 00000 00000" -> "https://wa.me/910000000000"). */
export function whatsappHref(phone: string): string {
  return `https://wa.me/${phone.replace(/\D/g, '')}`
}
