import { payerNameMatches } from './payer-name-match'

// Does the KRA's record for the PAN belong to the person in the profile? A PAN whose record
// carries another name or date of birth cannot pay until the admin decides (decision 047): either
// the record is the same person (accepted), or the customer is asked to correct their details.
// Names are compared as the bank payer's name is (app/domain/payer-name-match.ts): by words, with
// case, punctuation, titles and word order not counting, an initial standing for a word it begins.

/** Name and date of birth (YYYY-MM-DD), as the profile holds them or as the KRA answered. */
export type PersonDetails = { name: string | null; dob: string | null }

export type KraRecordField = 'name' | 'dob'

/**
 * The fields on which the KRA's record differs from the profile. A value the KRA did not give (or
 * the profile lacks) is not compared: the KRA looked the PAN up with the profile's date of birth.
 */
export function kraRecordDifferences(profile: PersonDetails, record: PersonDetails): KraRecordField[] {
  const differences: KraRecordField[] = []
  if (profile.name && record.name && !payerNameMatches(record.name, profile.name)) differences.push('name')
  if (profile.dob && record.dob && profile.dob !== record.dob) differences.push('dob')
  return differences
}

/** The admin's decision on a record that differs. */
export const KRA_RECORD_REVIEWS = ['ACCEPTED', 'CORRECTION_ASKED'] as const
export type KraRecordReview = (typeof KRA_RECORD_REVIEWS)[number]

export const KRA_RECORD_REVIEW_LABELS: Record<KraRecordReview, string> = {
  ACCEPTED: 'Accepted: the record is the same person',
  CORRECTION_ASKED: 'The customer was asked to correct their details',
}

/** What a decision was made on: the profile's and the record's values, so a change of either asks again. */
export type KraRecordReviewedFor = { profile: PersonDetails; record: PersonDetails }

const sameDetails = (one: PersonDetails, other: PersonDetails) => one.name === other.name && one.dob === other.dob

/** Where a customer's KRA record stands: only `match` and `accepted` allow paying. */
export type KraRecordState =
  | { kind: 'match' }
  | { kind: 'accepted'; differences: KraRecordField[] }
  | { kind: 'awaiting-review'; differences: KraRecordField[] }
  | { kind: 'correction-asked'; differences: KraRecordField[] }

export function kraRecordState(
  profile: PersonDetails,
  record: PersonDetails,
  review: { decision: KraRecordReview; reviewedFor: KraRecordReviewedFor } | null,
): KraRecordState {
  const differences = kraRecordDifferences(profile, record)
  if (differences.length === 0) return { kind: 'match' }
  // A decision holds only for the values it was made on.
  const current =
    review && sameDetails(review.reviewedFor.profile, profile) && sameDetails(review.reviewedFor.record, record)
  if (!current) return { kind: 'awaiting-review', differences }
  return review.decision === 'ACCEPTED' ? { kind: 'accepted', differences } : { kind: 'correction-asked', differences }
}

export function kraRecordAllowsPayment(state: KraRecordState): boolean {
  return state.kind === 'match' || state.kind === 'accepted'
}

/** "name", "date of birth" or "name and date of birth": what differs, in words. */
export const kraRecordFieldWords = (differences: readonly KraRecordField[]) =>
  differences.length === 2 ? 'name and date of birth' : differences[0] === 'dob' ? 'date of birth' : 'name'

/**
 * The refusal of a payment for a record that differs (pages and API: 403), in words, without paths;
 * undefined when paying is allowed. On the KYC details page itself the correction form is "below".
 */
export function kraRecordPaymentRefusal(
  state: KraRecordState,
  supportEmail: string,
  place: 'elsewhere' | 'kyc-details-page' = 'elsewhere',
): string | undefined {
  if (state.kind === 'match' || state.kind === 'accepted') return undefined
  const correction =
    place === 'kyc-details-page' ? 'ask for a correction below' : 'ask for a correction on your KYC details page'
  const checkAgain = place === 'kyc-details-page' ? 'check your KYC again' : 'check your KYC again there'
  const fields = kraRecordFieldWords(state.differences)
  const differs = `You cannot pay yet: the ${fields} the KYC registration agency (KRA) holds for your PAN ${state.differences.length === 2 ? 'are' : 'is'} not the ${fields} in your profile.`
  if (state.kind === 'correction-asked')
    return `${differs} The analyst has checked it and asks you to correct your details: ${correction}, or, if the KRA's record is wrong, update it through your broker or mutual fund and ${checkAgain}. Questions: ${supportEmail}.`
  return `${differs} The analyst will check whether the record is yours; you can pay once they have. If your profile is wrong, ${correction}. Questions: ${supportEmail}.`
}
