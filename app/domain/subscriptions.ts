import { MS_PER_DAY } from './dates'

// The period rules of a subscription: how long one runs and where a renewal starts. A payment's
// subscriptions (createPaidSubscriptions), an admin's grant and the large seed's SQL all follow them
// (tests/integration/seed-large.test.ts checks the SQL against these functions).

/** A subscription paid at `paidAt` for `durationDays` ends exactly durationDays x 24 h later. */
export function subscriptionEndsAt(paidAt: Date, durationDays: number): Date {
  if (!Number.isInteger(durationDays) || durationDays <= 0) {
    throw new RangeError(`durationDays must be a positive whole number, got ${durationDays}`)
  }
  return new Date(paidAt.getTime() + durationDays * MS_PER_DAY)
}

/** A renewal starts at the later of now and the current end, so no day is lost or gained. */
export function renewalStartsAt(now: Date, currentEndsAt: Date | null): Date {
  return currentEndsAt && currentEndsAt > now ? currentEndsAt : now
}

/** The period `durationDays` long that a purchase or grant at `at` adds after the current one (if any). */
export function nextPeriod(
  at: Date,
  currentEndsAt: Date | null,
  durationDays: number,
): { startsAt: Date; endsAt: Date } {
  const startsAt = renewalStartsAt(at, currentEndsAt)
  return { startsAt, endsAt: subscriptionEndsAt(startsAt, durationDays) }
}
