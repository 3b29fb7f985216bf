import { formatIndiaDate } from './dates'

// Closing an account (docs/regulatory.md, The customer's data), the parts the pages and the sign-in share.

/** What a closed account's holder is told when they try to sign in again. */
export function closedAccountMessage(closedAt: Date, supportEmail: string): string {
  return `This account was closed on ${formatIndiaDate(closedAt)} and cannot be used to sign in. To open it again, write to ${supportEmail}.`
}

/** How long SEBI's records of a closed account are kept before they are erased (RA Regulations, reg. 25). */
export const RECORDS_KEPT_YEARS = 5
