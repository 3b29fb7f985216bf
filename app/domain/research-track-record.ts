import type { CallTerms } from './research-calls'
import type { FollowUpFigures } from './research-follow-ups'

// The track record of a service's calls (docs/research.md, "Track record"): each published call's
// outcome, read from its published follow-ups in publication order, its return, and the service's
// summary. Pure rules; the admin page and its CSV both use them. Returns are integer basis points
// (1 bp = 0.01%), so a summary adds and compares integers and prints exactly two decimals.

export const CALL_OUTCOMES = ['OPEN', 'TARGET_HIT', 'STOP_LOSS_HIT', 'CLOSED', 'WITHDRAWN'] as const
export type CallOutcomeKind = (typeof CALL_OUTCOMES)[number]

export const CALL_OUTCOME_WORDS: Record<CallOutcomeKind, string> = {
  OPEN: 'Open',
  TARGET_HIT: 'Target hit',
  STOP_LOSS_HIT: 'Stop-loss hit',
  CLOSED: 'Closed at a price',
  WITHDRAWN: 'Withdrawn',
}

export const BASIS_POINTS_PER_UNIT = 10_000
export const BASIS_POINTS_PER_PERCENT = 100

/** A published follow-up of a call as the track record reads it, oldest first. */
export type TrackRecordFollowUp = FollowUpFigures & { publishedAt: Date }

export type CallOutcome = {
  outcome: CallOutcomeKind
  /** The price the call ended at (a target or stop-loss hit, a close); null while open or when withdrawn. */
  exitPricePaise: number | null
  /** When the follow-up that ended the call was published. */
  endedAt: Date | null
  /** The targets and stop-loss as they stand after any revision. */
  targetsPaise: number[]
  stopLossPaise: number | null
  revised: boolean
  /** How many target-hit follow-ups were published before the call ended (or so far). */
  targetsHit: number
  /** Signed by the call's direction, in basis points; null while open, when withdrawn, or for an exit call. */
  returnBasisPoints: number | null
  /** An exit call opens no position: it is listed but left out of the summary. */
  scored: boolean
}

/** Integer division rounded half away from zero, exact for integers below 2^53. */
function divideRounded(numerator: number, denominator: number): number {
  const magnitude = Math.floor((2 * Math.abs(numerator) + denominator) / (2 * denominator))
  return numerator < 0 ? -magnitude : magnitude
}

/**
 * The return of a call from its entry (a range's midpoint) to `exitPaise`, in basis points, signed
 * by the action's direction: a buy or hold gains when the price rises, a sell when it falls. An exit
 * call has no direction and no return.
 */
export function callReturnBasisPoints(
  call: Pick<CallTerms, 'action' | 'entryLowPaise' | 'entryHighPaise'>,
  exitPaise: number,
): number | null {
  if (call.action === 'EXIT') return null
  // Twice the midpoint, so a range of odd paise stays exact: (exit - mid) / mid = (2 exit - 2 mid) / 2 mid.
  const twiceEntry = call.entryLowPaise + (call.entryHighPaise ?? call.entryLowPaise)
  const direction = call.action === 'SELL' ? -1 : 1
  return divideRounded(direction * BASIS_POINTS_PER_UNIT * (2 * exitPaise - twiceEntry), twiceEntry)
}

/**
 * A call's outcome from its published follow-ups, read in publication order until one ends it:
 * a withdrawal, a stop-loss hit or a close ends it (as they end it for follow-ups), and so does
 * the target hit that reaches its last target (the n-th target hit of a call with n targets, the
 * targets as last revised). Earlier target hits leave it open. Corrections change no figure.
 */
export function callOutcome(call: CallTerms, followUps: readonly TrackRecordFollowUp[]): CallOutcome {
  let targetsPaise = call.targetsPaise
  let stopLossPaise = call.stopLossPaise
  let revised = false
  let targetsHit = 0
  const scored = call.action !== 'EXIT'
  const ended = (outcome: CallOutcomeKind, exitPricePaise: number | null, endedAt: Date): CallOutcome => ({
    outcome,
    exitPricePaise,
    endedAt,
    targetsPaise,
    stopLossPaise,
    revised,
    targetsHit,
    returnBasisPoints: exitPricePaise === null ? null : callReturnBasisPoints(call, exitPricePaise),
    scored,
  })
  for (const followUp of followUps) {
    switch (followUp.kind) {
      case 'TARGET_REVISED':
        targetsPaise = followUp.targetsPaise
        revised = true
        break
      case 'STOP_LOSS_REVISED':
        stopLossPaise = followUp.stopLossPaise
        revised = true
        break
      case 'TARGET_HIT':
        targetsHit++
        if (targetsHit >= targetsPaise.length) return ended('TARGET_HIT', followUp.pricePaise, followUp.publishedAt)
        break
      case 'STOP_LOSS_HIT':
        return ended('STOP_LOSS_HIT', followUp.pricePaise, followUp.publishedAt)
      case 'CLOSED':
        return ended('CLOSED', followUp.pricePaise, followUp.publishedAt)
      case 'WITHDRAWAL':
        return ended('WITHDRAWN', null, followUp.publishedAt)
      case 'CORRECTION':
        break
    }
  }
  return {
    outcome: 'OPEN',
    exitPricePaise: null,
    endedAt: null,
    targetsPaise,
    stopLossPaise,
    revised,
    targetsHit,
    returnBasisPoints: null,
    scored,
  }
}

export type TrackRecordSummary = {
  /** Every call listed, exit calls included. */
  calls: number
  /** Exit calls: listed, not scored. */
  notScored: number
  open: number
  /** Scored calls that have ended: target hit, stop-loss hit, closed or withdrawn. */
  closed: number
  targetHit: number
  stopLossHit: number
  closedAtPrice: number
  withdrawn: number
  /** Target-hit calls over closed calls (withdrawals count as closed, not hit); null with none closed. */
  hitRateBasisPoints: number | null
  /** The mean return of the closed calls that have an exit price (withdrawals have none); null with none. */
  averageReturnBasisPoints: number | null
}

export function trackRecordSummary(outcomes: readonly CallOutcome[]): TrackRecordSummary {
  const scored = outcomes.filter((outcome) => outcome.scored)
  const count = (kind: CallOutcomeKind) => scored.filter((outcome) => outcome.outcome === kind).length
  const open = count('OPEN')
  const closed = scored.length - open
  const targetHit = count('TARGET_HIT')
  const returns = scored.flatMap((outcome) => (outcome.returnBasisPoints === null ? [] : [outcome.returnBasisPoints]))
  return {
    calls: outcomes.length,
    notScored: outcomes.length - scored.length,
    open,
    closed,
    targetHit,
    stopLossHit: count('STOP_LOSS_HIT'),
    closedAtPrice: count('CLOSED'),
    withdrawn: count('WITHDRAWN'),
    hitRateBasisPoints: closed ? divideRounded(BASIS_POINTS_PER_UNIT * targetHit, closed) : null,
    averageReturnBasisPoints: returns.length
      ? divideRounded(
          returns.reduce((total, value) => total + value, 0),
          returns.length,
        )
      : null,
  }
}

/** 1234 -> "+12.34%", -50 -> "-0.50%", 0 -> "0.00%". */
export function formatBasisPoints(basisPoints: number, signed = true): string {
  const magnitude = Math.abs(basisPoints)
  const text = `${Math.floor(magnitude / BASIS_POINTS_PER_PERCENT)}.${String(magnitude % BASIS_POINTS_PER_PERCENT).padStart(2, '0')}%`
  if (basisPoints < 0) return `-${text}`
  return signed && basisPoints > 0 ? `+${text}` : text
}
