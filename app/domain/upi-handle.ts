// SEBI's validated UPI handles (circular SEBI/HO/DEPA-II/DEPA-II_SRG/P/CIR/2025/86, 11 June 2025,
// from 1 October 2025): a registered intermediary collects over UPI through a handle ending
// "@valid<bank>" (like "name.ra@validhdfc"), which an investor can check on SEBI Check.

/** A UPI handle whose bank part is SEBI's "@valid" one: letters, digits, dots, hyphens and underscores before it. */
export const UPI_VALID_HANDLE_PATTERN = /^[a-z0-9][a-z0-9._-]{1,255}@valid[a-z]{2,64}$/i

/** SEBI Check, where an investor verifies a UPI handle or bank account belongs to a registered intermediary. */
export const SEBI_CHECK_URL = 'https://siportal.sebi.gov.in/intermediary/sebi-check'
