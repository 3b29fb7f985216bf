// No Zod here: the legal pages quote SEBI_FEE_CAP_PAISE (app/content/legal/rules.ts) and stay light.
import { formatIndiaDate, indiaIsoDate, indiaMidnight, MS_PER_DAY } from './dates'
import { gstContainedPaise } from './gst'
import { formatRupees, PAISE_PER_RUPEE } from './money'
import { financialYearOf } from './tax-documents'

/** SEBI's cap on the fees one family (individual and HUF clients) pays a research analyst: Rs 1,51,000 a year. */
export const SEBI_FEE_CAP_PAISE = 151_000 * PAISE_PER_RUPEE

/**
 * Which year the cap counts: the 12 months before now (SEBI's wording, the default), or the Indian
 * financial year (1 April to 31 March), should the analyst's compliance officer read it so.
 */
export const FEE_CAP_WINDOWS = ['rolling-12-months', 'financial-year'] as const
export type FeeCapWindow = (typeof FEE_CAP_WINDOWS)[number]

/** Clients outside the cap, as an admin marks them (users.fee_cap_exemption). */
export const FEE_CAP_EXEMPTIONS = ['ACCREDITED_INVESTOR', 'NON_INDIVIDUAL'] as const
export type FeeCapExemption = (typeof FEE_CAP_EXEMPTIONS)[number]

export const FEE_CAP_EXEMPTION_LABELS: Record<FeeCapExemption, string> = {
  ACCREDITED_INVESTOR: 'Accredited investor',
  NON_INDIVIDUAL: 'Non-individual client',
}

export const FEE_CAP_EXEMPTION_REASON_MAX_LENGTH = 500
export const ACCREDITATION_CERTIFICATE_MAX_LENGTH = 60

/**
 * Where a customer stands against the cap: the admin's mark, and for an accredited investor the
 * certificate's last valid day (YYYY-MM-DD) and whether the customer opted in for that certificate.
 */
export type FeeCapStanding = {
  exemption: FeeCapExemption | null
  accreditationValidUntil: string | null
  optedIn: boolean
}

/**
 * Whether the cap counts this customer's purchases at `now`. A non-individual client is outside it on
 * the admin's mark. An accredited investor is outside it only with a certificate on record, valid on
 * `now`'s India date (the cap applies again the day after its last valid day), and their own opt-in
 * for it: the admin's word alone is not the client's consent to be treated as one.
 */
export function feeCapApplies(standing: FeeCapStanding, now: Date): boolean {
  if (standing.exemption === 'NON_INDIVIDUAL') return false
  if (standing.exemption !== 'ACCREDITED_INVESTOR') return true
  const valid = standing.accreditationValidUntil !== null && indiaIsoDate(now) <= standing.accreditationValidUntil
  return !(valid && standing.optedIn)
}

/** Why the cap still applies to a customer the admin marked an accredited investor, or null when it does not. */
export function accreditationGap(standing: FeeCapStanding, now: Date): string | null {
  if (standing.exemption !== 'ACCREDITED_INVESTOR') return null
  if (standing.accreditationValidUntil === null) return 'no accreditation certificate is on record'
  if (indiaIsoDate(now) > standing.accreditationValidUntil) return 'the accreditation certificate has expired'
  if (!standing.optedIn) return 'the customer has not opted in yet'
  return null
}

/**
 * What the customer confirms to be treated as an accredited investor (their opt-in, recorded with
 * this text's SHA-256): the certificate on record, what the cap is, and that it applies again on withdrawal or expiry.
 */
export function accreditedOptInText(accreditation: {
  certificate: string
  validUntil: string
  business: string
}): string {
  return [
    `I confirm that I am an accredited investor, with accreditation certificate ${accreditation.certificate} valid until ${formatIndiaDate(indiaMidnight(accreditation.validUntil))}.`,
    `I choose to be treated as an accredited investor by ${accreditation.business}: the yearly limit SEBI sets on the fees a research analyst may charge an individual client and their family will not apply to the fees I pay.`,
    'I can withdraw this choice at any time; the limit applies again from then, and after my certificate’s last valid day.',
  ].join(' ')
}

/** The version an opt-in is recorded under: the text's own fingerprint (each certificate's text differs). */
export const accreditedOptInVersion = (textSha256: string) => `accredited-${textSha256.slice(0, 12)}`

// The rule itself: what counts in the window, and the refusal. app/server/payments/purchase-limits.server.ts
// reads the family's payments and open orders and claims and applies it (docs/regulatory.md).

/** A paid payment as the cap counts it: its fees net of GST, less what was refunded of it. */
export type CountedPayment = { paidAt: Date; taxablePaise: number }

/** A GST-inclusive price's value before GST at `rateBasisPoints` (what the cap counts). */
export const taxableValuePaise = (inclusivePaise: number, rateBasisPoints: number) =>
  inclusivePaise - gstContainedPaise(inclusivePaise, rateBasisPoints)

/**
 * The first instant whose payments count at `now`: 'rolling-12-months' starts at 00:00 IST on the
 * same India date a year earlier (28 February when that date is 29 February), so a payment counts
 * until the end of its anniversary; 'financial-year' starts at 1 April 00:00 IST of the Indian
 * financial year `now` falls in.
 */
export function feeCapWindowStart(now: Date, window: FeeCapWindow): Date {
  if (window === 'financial-year') return indiaMidnight(`${financialYearOf(now).label.slice(0, 4)}-04-01`)
  const [year, month, day] = indiaIsoDate(now).split('-').map(Number) as [number, number, number]
  const earlier = new Date(Date.UTC(year - 1, month - 1, day))
  // 29 February a year back rolls over to 1 March: use 28 February, so the window is never shorter than a year.
  const date = earlier.getUTCMonth() === month - 1 ? earlier : new Date(Date.UTC(year - 1, month - 1, 28))
  return indiaMidnight(date.toISOString().slice(0, 10))
}

/** The first India midnight from which a payment made at `paidAt` no longer counts. */
export function stopsCountingAt(paidAt: Date, window: FeeCapWindow): Date {
  // Its anniversary (or the next financial year) is less than 370 days away: step from a day that is surely before.
  let candidate = indiaMidnight(indiaIsoDate(paidAt))
  if (window === 'rolling-12-months') candidate = new Date(candidate.getTime() + 360 * MS_PER_DAY)
  while (feeCapWindowStart(candidate, window) <= paidAt) candidate = new Date(candidate.getTime() + MS_PER_DAY)
  return candidate
}

export type FeeCapRefusal = {
  capPaise: number
  /** What the family may still pay in the window before GST (0 when at or over the cap). */
  leftPaise: number
  /** This purchase's value before GST. */
  purchasePaise: number
  /** The India midnight from which enough earlier payments stop counting for this purchase to fit; null when none will. */
  fitsFrom: Date | null
}

/**
 * Whether a purchase of `purchasePaise` (before GST) fits under the cap: the family's payments in
 * the window (`paid`, counted before GST and net of refunds) plus what it has committed (open
 * gateway orders and bank-transfer claims, before GST) plus the purchase may not exceed the cap.
 * Null when it fits.
 */
export function feeCapRefusal({
  now,
  window,
  capPaise,
  paid,
  committedPaise,
  purchasePaise,
}: {
  now: Date
  window: FeeCapWindow
  capPaise: number
  paid: readonly CountedPayment[]
  committedPaise: number
  purchasePaise: number
}): FeeCapRefusal | null {
  const start = feeCapWindowStart(now, window)
  const counted = paid.filter((payment) => payment.paidAt >= start).sort((a, b) => +a.paidAt - +b.paidAt)
  const usedPaise = counted.reduce((sum, payment) => sum + payment.taxablePaise, committedPaise)
  const excessPaise = usedPaise + purchasePaise - capPaise
  if (excessPaise <= 0) return null
  // Open orders and claims keep counting (they would be paid today or later): only payments drop out.
  let fitsFrom: Date | null = null
  let freedPaise = 0
  for (const payment of counted) {
    freedPaise += payment.taxablePaise
    if (freedPaise >= excessPaise) {
      fitsFrom = stopsCountingAt(payment.paidAt, window)
      break
    }
  }
  return { capPaise, leftPaise: Math.max(0, capPaise - usedPaise), purchasePaise, fitsFrom }
}

/**
 * The one message every way in answers a purchase over the cap with: the cap, what is left, the
 * purchase, and when it will fit if it will.
 */
export function feeCapRefusalMessage({ capPaise, leftPaise, purchasePaise, fitsFrom }: FeeCapRefusal): string {
  const cap = `SEBI caps the fees one family pays a research analyst at Rs ${formatRupees(capPaise)} a year, before GST.`
  const left =
    leftPaise > 0
      ? `Your family has Rs ${formatRupees(leftPaise)} of it left; this purchase is Rs ${formatRupees(purchasePaise)} before GST.`
      : `Your family has reached it; this purchase is Rs ${formatRupees(purchasePaise)} before GST.`
  const when = fitsFrom ? ` It fits from ${formatIndiaDate(fitsFrom)}, when earlier payments stop counting.` : ''
  return `${cap} ${left}${when}`
}
