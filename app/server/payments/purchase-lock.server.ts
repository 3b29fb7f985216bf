import type { Prisma } from '~/generated/prisma/client'
import { familyUserIds } from '../account/family-members.server'

// The per-customer purchase lock (docs/payments.md, "The one-year advance limit" and "Closing an
// account and late money"): what records a purchase, what pays one (markPaymentPaid) and what
// closes an account all take it first, so each sees what the other committed.

/**
 * Serialises the purchases of a customer's family (familyUserIds) to the end of the transaction:
 * what one checks and then records (an order, a claim) is seen by the next, so two tabs, or two
 * family members, cannot each pass the check. Takes each member's `purchase:<user id>` lock in
 * sorted order, so two members buying at once wait for each other instead of deadlocking. Taking
 * them again in the same transaction is free (the locks are re-entrant). Returns the family's ids.
 */
export async function lockFamilyPurchases(tx: Prisma.TransactionClient, userId: string): Promise<string[]> {
  const family = (await familyUserIds(tx, userId)).sort()
  for (const memberId of family) {
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`purchase:${memberId}`}, 0))::text`
  }
  return family
}
