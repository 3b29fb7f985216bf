import { KYC_STATUSES, kycAllowsPayment } from '~/domain/kyc'
import { Prisma, type ResearchChannel } from '~/generated/prisma/client'
import { prisma } from '../db.server'

// Who an item reaches (docs/research.md, "The roll"): the one definition of the roll, used by the
// publishing transaction to take it and by the draft's preview to count it, so the preview's
// figures are the roll that publishing at that moment would take.

/** The KYC answers that allow serving a customer: the same rule as paying (app/domain/kyc.ts). */
const SERVABLE_KYC_STATUSES = KYC_STATUSES.filter((status) => kycAllowsPayment(status))

/**
 * The customers entitled to the item at `now`, as a subquery of `user_id`s: a subscription (paid or
 * granted) to one of its services running at `now`, account open and not erased, KYC allowing service.
 */
export function entitledCustomersSql(itemId: string, now: Date): Prisma.Sql {
  return Prisma.sql`
    SELECT DISTINCT s.user_id
    FROM research_item_services ris
    JOIN subscriptions s ON s.service_id = ris.service_id
    JOIN users u ON u.id = s.user_id
    WHERE ris.item_id = ${itemId}::uuid
      AND s.starts_at <= ${now}::timestamptz AND s.ends_at > ${now}::timestamptz
      AND u.closed_at IS NULL AND u.erased_at IS NULL
      AND u.kyc_status::text = ANY(${SERVABLE_KYC_STATUSES}::text[])`
}

/**
 * Which of the roll's customers (`u`, a row of users) each channel of the delivery log reaches; the
 * site reaches all of them. Publishing queues one delivery per channel where this holds.
 */
export const RESEARCH_CHANNEL_REACH: Record<ResearchChannel, Prisma.Sql> = {
  EMAIL: Prisma.sql`u.email IS NOT NULL AND u.email <> ''`,
}

export type ResearchReach = { site: number; channels: { channel: ResearchChannel; customers: number }[] }

/** How many customers publishing the item at `now` would reach: on the site, and on each channel. */
export async function countResearchReach(itemId: string, now: Date): Promise<ResearchReach> {
  const channels = Object.keys(RESEARCH_CHANNEL_REACH) as ResearchChannel[]
  const perChannel = channels.map(
    (channel, index) =>
      Prisma.sql`count(*) FILTER (WHERE ${RESEARCH_CHANNEL_REACH[channel]})::int AS ${Prisma.raw(`c${index}`)}`,
  )
  const [counts] = await prisma.$queryRaw<Record<string, number>[]>`
    SELECT count(*)::int AS site, ${Prisma.join(perChannel)}
    FROM (${entitledCustomersSql(itemId, now)}) entitled
    JOIN users u ON u.id = entitled.user_id`
  return {
    site: counts!.site!,
    channels: channels.map((channel, index) => ({ channel, customers: counts![`c${index}`]! })),
  }
}
