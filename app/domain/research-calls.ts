import { formatRupees, PAISE_PER_RUPEE } from './money'

// Calls (docs/research.md): an instrument, an action, an entry price or range, targets, a
// stop-loss and a horizon, checked here as pure rules so the form, the follow-ups and the tests
// share them. Prices are integer paise.

export const CALL_EXCHANGES = ['NSE', 'BSE'] as const
export type CallExchange = (typeof CALL_EXCHANGES)[number]

export const CALL_ACTIONS = ['BUY', 'SELL', 'HOLD', 'EXIT'] as const
export type CallAction = (typeof CALL_ACTIONS)[number]

export const CALL_ACTION_WORDS: Record<CallAction, string> = { BUY: 'Buy', SELL: 'Sell', HOLD: 'Hold', EXIT: 'Exit' }

/**
 * What each rating means, printed wherever a rating is used (SEBI's Research Analyst Regulations ask a
 * report that uses a rating to define it): on every call's page and in its e-mail. The one place
 * these words live; they are printed beside the signed content, not signed (docs/research.md).
 */
export const RATING_DEFINITIONS: Record<CallAction, string> = {
  BUY: 'We expect the price to rise from the entry price or range to the target within the horizon. Buy within the entry; the stop-loss, below the entry, is the price at which we would close the position to limit the loss.',
  SELL: 'We expect the price to fall from the entry price or range to the target within the horizon. Sell within the entry; the stop-loss, above the entry, is the price at which we would close the position to limit the loss.',
  HOLD: 'Keep a position already held: we expect the price to rise to the target within the horizon, and would close the position at the stop-loss, below the entry.',
  EXIT: 'Close the position at or about the price given: we no longer expect it to gain. An exit has no target or stop-loss.',
}

/** Said under the definitions: they are our standing words, printed with every call, outside what is signed. */
export const RATING_DEFINITIONS_NOTE =
  'These definitions are printed with every call; they are not part of its signed content.'

/** The rating definitions as printed, in the order of the actions. */
export const ratingDefinitionLines = (): FactLine[] =>
  CALL_ACTIONS.map((action) => ({ label: CALL_ACTION_WORDS[action], value: RATING_DEFINITIONS[action] }))

/** The sizes of a call's fields (docs/limits.md). */
export const CALL_LIMITS = {
  /** ₹10,00,000 a share, in paise: above any listed price, within a 32-bit column. */
  priceMaxPaise: 10_00_000 * PAISE_PER_RUPEE,
  targetsMax: 3,
  symbolMaxChars: 20,
  horizonMaxChars: 100,
} as const

/** NSE and BSE symbols: letters, digits, &, - (M&M, BAJAJ-AUTO) or a BSE scrip code (500325). */
export const CALL_SYMBOL = /^[A-Z0-9][A-Z0-9&-]*$/
/** Two letters, nine letters or digits, a check digit (INE040A01034). */
export const CALL_ISIN = /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/

/** "1,520.50", "₹1520", "Rs. 1520.5" -> paise; null when it is not a price with at most two decimals. */
export function parseRupeesToPaise(text: string): number | null {
  const plain = text
    .trim()
    .replace(/^(₹|rs\.?|inr)\s*/i, '')
    .replace(/,/g, '')
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(plain)
  if (!match) return null
  const paise = Number(match[1]) * PAISE_PER_RUPEE + Number((match[2] ?? '').padEnd(2, '0'))
  return paise > 0 && paise <= CALL_LIMITS.priceMaxPaise ? paise : null
}

export const formatCallPrice = (paise: number) => `Rs. ${formatRupees(paise)}`

/** The prices a call's direction is checked on. */
export type CallTerms = {
  action: CallAction
  entryLowPaise: number
  /** Null for a single entry price. */
  entryHighPaise: number | null
  targetsPaise: number[]
  stopLossPaise: number | null
}

/** The whole call as signed and printed. */
export type CallRecord = CallTerms & {
  exchange: CallExchange | null
  symbol: string | null
  isin: string | null
  horizon: string
}

export type CallField = 'entryHigh' | 'targets' | 'stopLoss'
export type CallProblem = { field: CallField; message: string }

export const entryWords = ({ entryLowPaise, entryHighPaise }: Pick<CallTerms, 'entryLowPaise' | 'entryHighPaise'>) =>
  entryHighPaise === null
    ? formatCallPrice(entryLowPaise)
    : `${formatCallPrice(entryLowPaise)} to ${formatCallPrice(entryHighPaise)}`

/**
 * What is wrong with a call's prices, each on its field: a buy (or a hold, a long position kept)
 * has its stop-loss below the entry and its targets above; a sell the reverse; an exit has
 * neither.
 */
export function callProblems(call: CallTerms): CallProblem[] {
  const problems: CallProblem[] = []
  const { action, entryLowPaise, targetsPaise, stopLossPaise } = call
  const entryHighPaise = call.entryHighPaise ?? entryLowPaise
  if (entryHighPaise < entryLowPaise)
    problems.push({ field: 'entryHigh', message: 'The top of the entry range must be above its bottom.' })
  if (targetsPaise.length > CALL_LIMITS.targetsMax)
    problems.push({ field: 'targets', message: `Enter at most ${CALL_LIMITS.targetsMax} targets.` })
  if (action === 'EXIT') {
    if (targetsPaise.length) problems.push({ field: 'targets', message: 'An exit call has no targets.' })
    if (stopLossPaise !== null) problems.push({ field: 'stopLoss', message: 'An exit call has no stop-loss.' })
    return problems
  }
  const long = action !== 'SELL'
  const word = CALL_ACTION_WORDS[action].toLowerCase()
  const entry = entryWords(call)
  if (targetsPaise.length === 0) problems.push({ field: 'targets', message: 'Enter at least one target.' })
  else if (targetsPaise.some((target) => (long ? target <= entryHighPaise : target >= entryLowPaise)))
    problems.push({
      field: 'targets',
      message: `For a ${word} call every target must be ${long ? 'above' : 'below'} the entry (${entry}).`,
    })
  if (stopLossPaise === null) problems.push({ field: 'stopLoss', message: 'Enter the stop-loss.' })
  else if (long ? stopLossPaise >= entryLowPaise : stopLossPaise <= entryHighPaise)
    problems.push({
      field: 'stopLoss',
      message: `For a ${word} call the stop-loss must be ${long ? 'below' : 'above'} the entry (${entry}).`,
    })
  return problems
}

/** "NSE: HDFCBANK, ISIN INE040A01034", or whichever of the two the call names. */
export function instrumentWords(call: Pick<CallRecord, 'exchange' | 'symbol' | 'isin'>): string {
  return [
    call.exchange && call.symbol ? `${call.exchange}: ${call.symbol}` : null,
    call.isin ? `ISIN ${call.isin}` : null,
  ]
    .filter(Boolean)
    .join(', ')
}

export type FactLine = { label: string; value: string }

/** A call's terms as printed on its page and in its e-mail. */
export function callLines(call: CallRecord): FactLine[] {
  return [
    { label: 'Instrument', value: instrumentWords(call) },
    { label: 'Action', value: CALL_ACTION_WORDS[call.action] },
    { label: call.entryHighPaise === null ? 'Entry price' : 'Entry range', value: entryWords(call) },
    ...(call.targetsPaise.length
      ? [
          {
            label: call.targetsPaise.length === 1 ? 'Target' : 'Targets',
            value: call.targetsPaise.map(formatCallPrice).join(', '),
          },
        ]
      : []),
    ...(call.stopLossPaise !== null ? [{ label: 'Stop-loss', value: formatCallPrice(call.stopLossPaise) }] : []),
    { label: 'Horizon', value: call.horizon },
  ]
}
