import { KYC_STATUSES, kycAllowsPayment } from '~/domain/kyc'
import { versionsCoveringInForce } from '~/domain/terms-versions'
import { Prisma } from '~/generated/prisma/client'
import { prisma } from '../db.server'

// Who the store may serve research to at a moment (docs/research.md): the conditions a customer `u`
// meets besides a running subscription, as SQL over `users u`, for the roll and for the archive.

export type Reader = Pick<Prisma.TransactionClient, 'termsVersion'>

/** The KYC answers that allow serving a customer: the same rule as paying (app/domain/kyc.ts). */
const SERVABLE_KYC_STATUSES = KYC_STATUSES.filter((status) => kycAllowsPayment(status))

/**
 * `u` accepted the terms binding them at `now`: the version in force or a later one (the rule of
 * the paying gate, versionsCoveringInForce); before any version is in force, any acceptance.
 */
export async function termsAcceptedSql(db: Reader, now: Date): Promise<Prisma.Sql> {
  const versions = await db.termsVersion.findMany({ select: { version: true, publishedAt: true, effectiveFrom: true } })
  const covering = versionsCoveringInForce(versions, now)
  if (covering === null) return Prisma.sql`u.agreement_accepted_at IS NOT NULL`
  return Prisma.sql`(u.agreement_accepted_at IS NOT NULL AND u.agreement_version = ANY(${covering}::text[]))`
}

/** Every condition on `u` but the subscription: account open and not erased, KYC allowing service, terms accepted. */
export async function servableCustomerSql(now: Date, db: Reader = prisma): Promise<Prisma.Sql> {
  return Prisma.sql`u.closed_at IS NULL AND u.erased_at IS NULL
    AND u.kyc_status::text = ANY(${SERVABLE_KYC_STATUSES}::text[])
    AND ${await termsAcceptedSql(db, now)}`
}
