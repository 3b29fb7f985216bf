import { formatIndiaDate, indiaIsoDate, indiaMidnight, MS_PER_DAY } from './dates'
import { renewalStartsAt } from './subscriptions'

// SEBI's advance-fee rule (SEBI/HO/MIRSD/MIRSD-PoD/P/CIR/2025/48, 2 April 2025): fees may be taken
// at most one year in advance. A purchase is refused when, for a service in it, the customer's
// paid-up end after the purchase would lie more than ADVANCE_LIMIT_DAYS after now. Pure rules;
// app/server/payments/purchase-limits.server.ts reads what is committed and applies them.

/** The furthest a paid-up end may lie after the moment of purchase. */
export const ADVANCE_LIMIT_DAYS = 365
const ADVANCE_LIMIT_MS = ADVANCE_LIMIT_DAYS * MS_PER_DAY

/** The latest paid-up end a purchase made at `now` may reach. */
export const latestAllowedEnd = (now: Date) => new Date(now.getTime() + ADVANCE_LIMIT_MS)

/** A service's length as bought: a cart line, or an open order's or claim's line. */
export type ServicePeriod = { serviceId: string; durationDays: number }
export type PurchaseItem = ServicePeriod & { name: string }

/**
 * Each service's committed paid-up end: its latest subscription end, then every open gateway order
 * and open manual claim holding it chained after that, each adding its days the way a renewal does
 * (from the later of now and the end so far). A service with neither has no entry.
 */
export function committedEnds(
  now: Date,
  latestSubscriptionEnds: ReadonlyMap<string, Date>,
  openPeriods: readonly ServicePeriod[],
): Map<string, Date> {
  const ends = new Map(latestSubscriptionEnds)
  for (const period of openPeriods) ends.set(period.serviceId, chained(now, ends.get(period.serviceId), period))
  return ends
}

const chained = (now: Date, end: Date | undefined, period: ServicePeriod) =>
  new Date(renewalStartsAt(now, end ?? null).getTime() + period.durationDays * MS_PER_DAY)

/** A service the purchase may not include now, and from when it may. */
export type AdvanceRefusal = {
  serviceId: string
  name: string
  /** The committed paid-up end before this purchase (null when nothing is committed). */
  paidUpTo: Date | null
  /** The first India midnight from which this renewal can be bought; null when it never can (longer than the limit). */
  renewableFrom: Date | null
}

/**
 * The first India midnight at or after the earliest instant from which buying `durationDays` more
 * keeps the paid-up end within the limit; null when buying it now is allowed, or `never` when the
 * period alone is longer than the limit. Whole days, so the date shown is one on which it works.
 */
export function renewableFrom(now: Date, paidUpTo: Date | undefined, durationDays: number): Date | null | 'never' {
  if (durationDays > ADVANCE_LIMIT_DAYS) return 'never'
  const endAfter = chained(now, paidUpTo, { serviceId: '', durationDays })
  if (endAfter <= latestAllowedEnd(now)) return null
  // Buying at t ends at paidUpTo + durationDays (paidUpTo > t here), allowed once that is <= t + the limit.
  const earliest = new Date(endAfter.getTime() - ADVANCE_LIMIT_MS)
  const midnight = indiaMidnight(indiaIsoDate(earliest))
  return midnight.getTime() === earliest.getTime() ? midnight : new Date(midnight.getTime() + MS_PER_DAY)
}

/**
 * The services of a purchase that would put the paid-up end beyond the limit. Lines of one service
 * in one cart chain after each other, as the subscriptions they buy would.
 */
export function advanceRefusals(
  now: Date,
  committed: ReadonlyMap<string, Date>,
  items: readonly PurchaseItem[],
): AdvanceRefusal[] {
  const ends = new Map(committed)
  const refusals: AdvanceRefusal[] = []
  for (const item of items) {
    const paidUpTo = ends.get(item.serviceId)
    const from = renewableFrom(now, paidUpTo, item.durationDays)
    if (from !== null) {
      refusals.push({
        serviceId: item.serviceId,
        name: item.name,
        paidUpTo: committed.get(item.serviceId) ?? null,
        renewableFrom: from === 'never' ? null : from,
      })
    }
    ends.set(item.serviceId, chained(now, paidUpTo, item))
  }
  return refusals
}

/**
 * The period a purchase at `now` buys, as /pay states it: a renewal from the committed paid-up end
 * (`paidUpTo`, when it lies ahead), else from now; each date DD-MM-YYYY in India time.
 */
export function purchasePeriodLabel(now: Date, paidUpTo: Date | undefined, durationDays: number): string {
  const startsAt = renewalStartsAt(now, paidUpTo ?? null)
  const endsOn = formatIndiaDate(new Date(startsAt.getTime() + durationDays * MS_PER_DAY))
  return startsAt > now
    ? `Renewal: ${formatIndiaDate(startsAt)} (when your current period ends) to ${endsOn}`
    : `Period: ${formatIndiaDate(startsAt)} to ${endsOn}`
}

/** "Renewable from DD-MM-YYYY", as /services and /pay show a service that cannot be bought yet. */
export const renewableFromLabel = (renewableFromDate: Date) => `Renewable from ${formatIndiaDate(renewableFromDate)}`

const joinWithAnd = (parts: readonly string[]) =>
  parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`

/**
 * The one message every way in answers a refused purchase with (/pay, the JSON API, the admin's
 * confirmation): each service, how far it is paid up, and the first date it can be renewed.
 */
export function advanceRefusalMessage(refusals: readonly AdvanceRefusal[]): string {
  const sentences: string[] = []
  const renewable = refusals.filter((refusal) => refusal.renewableFrom !== null)
  const paidUp = renewable.flatMap((refusal) =>
    refusal.paidUpTo ? [`${refusal.name} is paid up to ${formatIndiaDate(refusal.paidUpTo)}`] : [],
  )
  if (paidUp.length > 0) sentences.push(`${joinWithAnd(paidUp)}.`)
  if (renewable.length > 0) {
    const when =
      renewable.length === 1 && paidUp.length === 1
        ? `it from ${formatIndiaDate(renewable[0]!.renewableFrom!)}`
        : joinWithAnd(renewable.map((refusal) => `${refusal.name} from ${formatIndiaDate(refusal.renewableFrom!)}`))
    sentences.push(`SEBI allows fees at most one year in advance: you can renew ${when}.`)
  }
  for (const refusal of refusals.filter((candidate) => candidate.renewableFrom === null)) {
    sentences.push(`${refusal.name} runs longer than one year, and SEBI allows fees at most one year in advance.`)
  }
  return sentences.join(' ')
}

/** What a gateway payment captured past the limit bought beyond it: capped, and owed back. */
export type AdvanceExcess = { cappedEndsAt: Date; excessDays: number; excessPaise: number }

/**
 * A subscription bought at `paidAt` may end no later than ADVANCE_LIMIT_DAYS after it. Money taken
 * for days beyond (a gateway capture racing the check) is owed back: the days cut off, rounded up
 * to whole days in the customer's favour, at the line's price per day, rounded down to the paisa
 * and never more than the line's price. `endsAt` is the end the purchase would have had.
 */
export function advanceExcess({
  paidAt,
  startsAt,
  endsAt,
  durationDays,
  pricePaise,
}: {
  paidAt: Date
  startsAt: Date
  endsAt: Date
  durationDays: number
  pricePaise: number
}): AdvanceExcess {
  const limit = latestAllowedEnd(paidAt)
  const cappedEndsAt = new Date(Math.max(startsAt.getTime(), Math.min(endsAt.getTime(), limit.getTime())))
  const excessMs = endsAt.getTime() - cappedEndsAt.getTime()
  const excessDays = Math.min(durationDays, Math.ceil(excessMs / MS_PER_DAY))
  const excessPaise = Math.min(pricePaise, Math.floor((pricePaise * excessDays) / durationDays))
  return { cappedEndsAt, excessDays, excessPaise }
}

/** A purchase by a closed account (a 403; docs/api.md, "403 answers"). */
export const ACCOUNT_CLOSED_MESSAGE = 'This account is closed: nothing can be bought with it.'
