/** The fixed regulatory wording and links of the footer (every page), also quoted by the legal pages. */
import type { Officer } from '~/domain/business-details'

/** SEBI's standard warning (advertisement code of 5 April 2023): exact words, nothing added or removed. */
export const SEBI_STANDARD_WARNING =
  'Investment in securities market are subject to market risks. Read all the related documents carefully before investing.'

/** The registration disclaimer used by research analysts and carried in substance by the MITC. */
export const REGISTRATION_DISCLAIMER =
  'Registration granted by SEBI, enlistment as RA with Exchange and certification from NISM in no way guarantee performance of the intermediary or provide any assurance of returns to investors.'

/** SEBI's complaints portal (SCORES 2.0); the old scores.gov.in only tracks old complaints. */
export const SCORES_URL = 'https://scores.sebi.gov.in'

/** The common Online Dispute Resolution portal of the securities market. */
export const SMART_ODR_URL = 'https://smartodr.in'

/**
 * The one first step for every complaint, word for word the same on the grievance page, in the terms, the MITC and the
 * investor charter (docs/regulatory.md, Business details: GRIEVANCE_OFFICER_*): the grievance officer, or the form.
 */
export function firstContactStep({ grievanceOfficer }: { grievanceOfficer: Officer }): string {
  return `Complain to us first: file it on our [complaint form](/complaints/new), or write to our Grievance Officer, ${grievanceOfficer.name}, at ${grievanceOfficer.email} or call ${grievanceOfficer.phone}.`
}
