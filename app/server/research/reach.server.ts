import { Prisma, type ResearchChannel } from '~/generated/prisma/client'
import { prisma } from '../db.server'
import { researchSmsEnabled } from '../messaging/sms.server'
import { servableCustomerSql, type Reader } from './servable.server'

// Who an item reaches (docs/research.md, "The roll"): the one definition of the roll, used by the
// publishing transaction to take it and by the draft's preview to count it, so the preview's
// figures are the roll that publishing at that moment would take.

/**
 * The customers entitled to the item at `now`, as a subquery of `user_id`s: a subscription (paid or
 * granted) to one of its services running at `now`, and every other condition of serving them
 * (servableCustomerSql: account open and not erased, KYC allowing service, current terms accepted).
 */
export async function entitledCustomersSql(itemId: string, now: Date, db: Reader = prisma): Promise<Prisma.Sql> {
  return Prisma.sql`
    SELECT DISTINCT s.user_id
    FROM research_item_services ris
    JOIN subscriptions s ON s.service_id = ris.service_id
    JOIN users u ON u.id = s.user_id
    WHERE ris.item_id = ${itemId}::uuid
      AND s.starts_at <= ${now}::timestamptz AND s.ends_at > ${now}::timestamptz
      AND ${await servableCustomerSql(now, db)}`
}

/**
 * Which of the roll's customers (`u`, a row of users, with `p`, their research_channel_choices row
 * if any) each channel of the delivery log reaches; the site reaches all of them. No choice made:
 * e-mail on (with an address), SMS off, Telegram off. Publishing queues one delivery per channel
 * where this holds, and the draft's preview counts the same.
 */
function researchChannelReach(): Record<ResearchChannel, Prisma.Sql> {
  return {
    EMAIL: Prisma.sql`COALESCE(p.email, true) AND u.email IS NOT NULL AND u.email <> ''`,
    SMS: Prisma.sql`${researchSmsEnabled()}::boolean AND COALESCE(p.sms, false) AND u.phone LIKE '+%'`,
    TELEGRAM: Prisma.sql`COALESCE(p.telegram, false) AND p.telegram_chat_id IS NOT NULL`,
  }
}

/** The reach as `VALUES` rows of (channel, reached), for a lateral join over the roll. */
export function researchChannelReachRows(): Prisma.Sql {
  return Prisma.join(
    Object.entries(researchChannelReach()).map(([channel, reached]) => Prisma.sql`(${channel}, ${reached})`),
  )
}

export type ResearchReach = { site: number; channels: { channel: ResearchChannel; customers: number }[] }

/** How many customers publishing the item at `now` would reach: on the site, and on each channel. */
export async function countResearchReach(itemId: string, now: Date): Promise<ResearchReach> {
  const reach = researchChannelReach()
  const channels = Object.keys(reach) as ResearchChannel[]
  const perChannel = channels.map(
    (channel, index) => Prisma.sql`count(*) FILTER (WHERE ${reach[channel]})::int AS ${Prisma.raw(`c${index}`)}`,
  )
  const [counts] = await prisma.$queryRaw<Record<string, number>[]>`
    SELECT count(*)::int AS site, ${Prisma.join(perChannel)}
    FROM (${await entitledCustomersSql(itemId, now)}) entitled
    JOIN users u ON u.id = entitled.user_id
    LEFT JOIN research_channel_choices p ON p.user_id = u.id`
  return {
    site: counts!.site!,
    channels: channels.map((channel, index) => ({ channel, customers: counts![`c${index}`]! })),
  }
}
