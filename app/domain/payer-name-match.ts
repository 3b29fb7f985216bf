// Does the name on the account a bank transfer came from belong to the customer? Banks print names
// their own way ("SHARMA RAVI K", "R.K. Sharma", "Mr Ravi Kumar Sharma"), so the rule compares
// words, not strings: case, punctuation, titles and word order do not count, an initial stands for
// a word it begins, and a middle name one side leaves out does not count either. A mismatch is
// still allowed, with the admin's written reason (docs/payments.md, "Confirming a bank transfer").

/** Titles a bank may print before a name; they say nothing about whose account it is. */
const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'dr', 'shri', 'sri', 'smt', 'kumari', 'km', 'master', 'prof'])

/** The words of a name: lower case, punctuation as spaces (so "R.K." is two initials), titles dropped. */
export function nameWords(name: string): string[] {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((word) => word !== '' && !TITLES.has(word))
}

const isInitial = (word: string) => word.length === 1

/**
 * True when the payer's name and the KYC name are the same person's by the rule above: every word
 * of the shorter name pairs with a different word of the longer one (the same word, or an initial
 * and a word it begins), at least one pair is a whole word, and a one-word name only matches the
 * same one word (a surname alone is too weak).
 */
export function payerNameMatches(payerName: string, kycName: string): boolean {
  const payer = nameWords(payerName)
  const kyc = nameWords(kycName)
  if (payer.length === 0 || kyc.length === 0) return false
  const [shorter, longer] = payer.length <= kyc.length ? [payer, kyc] : [kyc, payer]
  if (shorter.length === 1) return longer.length === 1 && shorter[0] === longer[0]
  const unpaired = [...longer]
  const take = (index: number) => unpaired.splice(index, 1)
  let wholeWordPairs = 0
  const initialsLeft: string[] = []
  // Whole words pair first, so an initial never takes the word its own full form needs.
  for (const word of shorter) {
    const same = isInitial(word) ? -1 : unpaired.indexOf(word)
    if (same >= 0) {
      take(same)
      wholeWordPairs++
    } else initialsLeft.push(word)
  }
  for (const word of initialsLeft) {
    const paired = unpaired.findIndex((other) =>
      isInitial(word) ? other.startsWith(word) : isInitial(other) && word.startsWith(other),
    )
    if (paired < 0) return false
    take(paired)
  }
  return wholeWordPairs > 0
}

/** How a confirmation's payer name compares with the customer's KYC name, as stored on the payment. */
export const PAYER_NAME_CHECKS = ['MATCH', 'MISMATCH'] as const
export type PayerNameCheck = (typeof PAYER_NAME_CHECKS)[number]

export function payerNameCheck(payerName: string, kycName: string | null): PayerNameCheck {
  return kycName && payerNameMatches(payerName, kycName) ? 'MATCH' : 'MISMATCH'
}

export const PAYER_NAME_CHECK_LABELS: Record<PayerNameCheck, string> = {
  MATCH: 'Matches the KYC name',
  MISMATCH: 'Does not match the KYC name',
}
