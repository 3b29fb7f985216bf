// Versions of the terms over time (docs/regulatory.md, A new version of the terms): which one is in force, which one is
// announced, and what a customer must do about them. Pure rules with `now` passed in, shared by the server's gate on
// paying, the site-wide banner, the e-mail job and the acceptance page.

/** SEBI's notice period for a change of the terms (Annexure B item 10): a new version takes effect this many days after publication at the earliest. */
export const TERMS_CHANGE_NOTICE_DAYS = 15
const DAY_MS = 24 * 60 * 60_000

export type TermsVersionDates = { version: string; publishedAt: Date; effectiveFrom: Date }

export function earliestEffectiveFrom(publishedAt: Date): Date {
  return new Date(publishedAt.getTime() + TERMS_CHANGE_NOTICE_DAYS * DAY_MS)
}

/**
 * When a version published at `publishedAt` takes effect: the operator's chosen date, or the
 * earliest allowed; a chosen date sooner than the notice period is refused.
 */
export function effectiveFromFor(
  publishedAt: Date,
  chosen: Date | undefined,
): { ok: true; effectiveFrom: Date } | { ok: false; message: string } {
  const earliest = earliestEffectiveFrom(publishedAt)
  if (!chosen) return { ok: true, effectiveFrom: earliest }
  if (chosen.getTime() < earliest.getTime()) {
    return {
      ok: false,
      message: `TERMS_EFFECTIVE_FROM=${chosen.toISOString()} is too soon: a new version of the terms takes effect at least ${TERMS_CHANGE_NOTICE_DAYS} days after it is published, so not before ${earliest.toISOString()}.`,
    }
  }
  return { ok: true, effectiveFrom: chosen }
}

export type TermsState<V extends TermsVersionDates = TermsVersionDates> = {
  /** The version customers are bound by now: of those whose date has come, the one that took effect last. Null before the first takes effect. */
  inForce: V | null
  /** The newest version published whose date has not come yet, announced to customers. */
  upcoming: V | null
}

export function termsState<V extends TermsVersionDates>(versions: readonly V[], now: Date): TermsState<V> {
  let inForce: V | null = null
  let upcoming: V | null = null
  for (const version of versions) {
    // Not published yet at `now` (a record written with a later clock): not known to anyone.
    if (version.publishedAt.getTime() > now.getTime()) continue
    if (version.effectiveFrom.getTime() <= now.getTime()) {
      if (!inForce || later(version, inForce, 'effectiveFrom')) inForce = version
    } else if (!upcoming || later(version, upcoming, 'publishedAt')) {
      upcoming = version
    }
  }
  // A pending version published before the one in force is superseded by it: nothing to announce.
  if (upcoming && inForce && upcoming.publishedAt.getTime() < inForce.publishedAt.getTime()) upcoming = null
  return { inForce, upcoming }
}

function later(a: TermsVersionDates, b: TermsVersionDates, by: 'effectiveFrom' | 'publishedAt'): boolean {
  const difference = a[by].getTime() - b[by].getTime()
  return difference > 0 || (difference === 0 && a.publishedAt.getTime() > b.publishedAt.getTime())
}

/**
 * Whether the customer's accepted version binds them to `target`: the same version, or one
 * published after it (accepting the newer terms in advance covers the older ones still in force).
 */
export function acceptanceCovers(
  versions: readonly TermsVersionDates[],
  acceptedVersion: string | null,
  target: TermsVersionDates,
): boolean {
  if (!acceptedVersion) return false
  if (acceptedVersion === target.version) return true
  const accepted = versions.find((version) => version.version === acceptedVersion)
  return accepted !== undefined && accepted.publishedAt.getTime() > target.publishedAt.getTime()
}

export type CustomerTerms<V extends TermsVersionDates = TermsVersionDates> = {
  /** The version in force the customer has not accepted: paying waits until they accept (or they end their subscriptions). */
  mustAccept: V | null
  /** The announced version the customer has not accepted yet: the banner and the e-mail. */
  announced: V | null
}

/**
 * What a customer with a complete profile must do about the terms, given the TERMS version they
 * last accepted (null: they never accepted any, and the profile wizard asks them first).
 */
export function customerTerms<V extends TermsVersionDates>(
  versions: readonly V[],
  acceptedVersion: string | null,
  now: Date,
): CustomerTerms<V> {
  if (!acceptedVersion) return { mustAccept: null, announced: null }
  const { inForce, upcoming } = termsState(versions, now)
  return {
    mustAccept: inForce && !acceptanceCovers(versions, acceptedVersion, inForce) ? inForce : null,
    announced: upcoming && !acceptanceCovers(versions, acceptedVersion, upcoming) ? upcoming : null,
  }
}

/** The JSON API's 403 for a customer who has not accepted the version in force. */
export function termsNotAcceptedMessage(version: string): string {
  return `The Terms and Conditions changed: accept version ${version} before paying. Read it at /terms-and-conditions (what changed: /terms-and-conditions/changes) and accept it at /terms/accept, or through POST /api/v1/users/set-agreement.`
}

/**
 * The versions whose acceptance binds a customer to the version in force at `now` (acceptanceCovers
 * applied to each recorded version), for set-based checks such as a research roll; null when no
 * version is in force yet (then any acceptance of the terms will do).
 */
export function versionsCoveringInForce(versions: readonly TermsVersionDates[], now: Date): string[] | null {
  const { inForce } = termsState(versions, now)
  if (!inForce) return null
  return versions
    .filter((version) => acceptanceCovers(versions, version.version, inForce))
    .map(({ version }) => version)
}
