/**
 * SEBI's advertisement code for research analysts (5 April 2023) forbids promising returns or
 * accuracy and claiming to be the best: no "assured", "guaranteed", "No. 1", "30% returns". What
 * the store says of a service (its name and description) is such an advertisement, so the admin's
 * form refuses these words. A list of patterns, not judgement: it catches the common wordings, and
 * the team still reads what it publishes.
 */
const FORBIDDEN_WORDINGS: readonly RegExp[] = [
  /\bbest\b/i,
  /\b(?:no\.?|number|#)\s*(?:1|one)\b/i,
  /#1\b/,
  /\btop(?:most|-rated|-notch)?\b/i,
  /\bguarantee(?:d|s)?\b/i,
  /\bassur(?:ed|ance)\b/i,
  /\baccura(?:cy|te)\b/i,
  /\bsure[\s-]?shot\b/i,
  /\brisk[\s-]?free\b/i,
  /\b(?:no|zero)[\s-](?:risk|loss)\b/i,
  /\bsure (?:profits?|returns?|gains?)\b/i,
  /\bfixed (?:returns?|profits?|income)\b/i,
  /\bdouble your (?:money|capital|investment)\b/i,
  /\bmulti-?baggers?\b/i,
  /\bjackpot\b/i,
  // A percentage of return or success: "30% returns", "30 percent profit", "returns of 30%", "90% hit rate".
  /\d+(?:\.\d+)?\s*(?:%|percent\b|per cent\b)\s*(?:\w+\s+){0,2}?(?:returns?|profits?|gains?|growth|upside|accuracy|success|hit rate|strike rate|win rate)\b/i,
  /\b(?:returns?|profits?|gains?|growth|upside)\s+(?:of\s+|up to\s+|upto\s+)?\d+(?:\.\d+)?\s*(?:%|percent\b|per cent\b)/i,
]

/**
 * Why `text` may not be said of a service, naming the first wording the code forbids as written:
 * null when none is found.
 */
export function advertisingCodeRefusal(text: string): string | null {
  for (const pattern of FORBIDDEN_WORDINGS) {
    const match = pattern.exec(text)
    if (match)
      return `SEBI's advertisement code forbids "${match[0].trim()}": no promise of returns or accuracy, and no claim to be the best or first.`
  }
  return null
}
