/**
 * The figures and addresses the legal pages quote, from the SEBI rules in docs/regulatory.md (which lists each
 * circular) and the original store (docs/product.md section 9) where the rules are silent. Kept apart from
 * regulatory.ts so that the footer's JavaScript, loaded on every page, does not carry them.
 */

import { SEBI_FEE_CAP_PAISE } from '~/domain/fee-cap'
import { formatRupees } from '~/domain/money'

/** Where physical complaints to SEBI go (investor charter, June 2025). */
export const SEBI_OIAE_ADDRESS =
  'Office of Investor Assistance and Education, Securities and Exchange Board of India, SEBI Bhavan, Plot No. C4-A, G Block, Bandra-Kurla Complex, Bandra (East), Mumbai 400 051'

/** Maximum fee per family of an individual or HUF client, per year, excluding statutory charges (January 2025). */
export const FEE_CAP_PER_FAMILY_PER_YEAR = `Rs. ${formatRupees(SEBI_FEE_CAP_PAISE)}`

// The day counts the store also acts on are defined once, in the domain rule that uses them, and read from there by
// every page, e-mail and document (docs/regulatory.md, "Figures the pages quote"):
// - investor charter of June 2025 and SCORES 2.0 (the 2024 site's "20 days" and "30 days" predate them): every
//   complaint within COMPLAINT_CALENDAR_DAYS; minimum mandatory terms of January 2025: service-deficiency grievances
//   within SERVICE_DEFICIENCY_BUSINESS_DAYS (the register's due dates, app/domain/complaints.ts);
// - the 2024 site's refund timing, kept as our outer limit for paying a refund (SEBI sets none): app/domain/refunds.ts;
// - the original store's promise (docs/product.md section 4) that an unconfirmed manual payment claim is dismissed:
//   app/domain/payment-status.ts.
export {
  COMPLAINT_CALENDAR_DAYS as GRIEVANCE_RESOLUTION_DAYS,
  SERVICE_DEFICIENCY_BUSINESS_DAYS as SERVICE_DEFICIENCY_RESOLUTION_BUSINESS_DAYS,
} from '~/domain/complaints'
export { MANUAL_PAYMENT_EXPIRY_DAYS } from '~/domain/payment-status'
export { REFUND_PAYMENT_DAYS } from '~/domain/refund-times'
/**
 * The original store (docs/product.md section 9): account data kept 90 days after termination (records the law requires
 * are kept longer).
 */
export const ACCOUNT_DATA_RETENTION_DAYS = 90
/** An account whose profile was never completed is erased after this long without a sign-in (the retention job). */
export const UNFINISHED_ACCOUNT_ERASE_DAYS = 365
/** Minimum mandatory terms of January 2025: a suspension longer than this triggers a pro-rata refund. */
export const REGULATOR_SUSPENSION_REFUND_THRESHOLD_DAYS = 60
