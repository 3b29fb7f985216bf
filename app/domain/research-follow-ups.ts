import { callProblems, formatCallPrice, type CallTerms, type FactLine } from './research-calls'

// Follow-ups (docs/research.md): a published item is never edited; a correction, a withdrawal or,
// for a call, a revision or an outcome is a new signed record that names its original and goes to
// the original's roll.

export const FOLLOW_UP_KINDS = [
  'CORRECTION',
  'WITHDRAWAL',
  'TARGET_REVISED',
  'STOP_LOSS_REVISED',
  'TARGET_HIT',
  'STOP_LOSS_HIT',
  'CLOSED',
] as const
export type FollowUpKind = (typeof FOLLOW_UP_KINDS)[number]

/** What a follow-up is called on its page, its title and its original's notice. */
export const FOLLOW_UP_WORDS: Record<FollowUpKind, string> = {
  CORRECTION: 'Correction',
  WITHDRAWAL: 'Withdrawal',
  TARGET_REVISED: 'Target revised',
  STOP_LOSS_REVISED: 'Stop-loss revised',
  TARGET_HIT: 'Target hit',
  STOP_LOSS_HIT: 'Stop-loss hit',
  CLOSED: 'Closed',
}

/** Follow-ups that end their original: once one is published, nothing but a correction may follow. */
const ENDING: readonly FollowUpKind[] = ['WITHDRAWAL', 'STOP_LOSS_HIT', 'CLOSED']

/** Whether a published follow-up has ended the original (withdrawn, stopped out or closed). */
export const endsOriginal = (publishedKinds: readonly FollowUpKind[]) =>
  publishedKinds.some((kind) => ENDING.includes(kind))

/**
 * A report can be corrected or withdrawn; a call also revised, hit or closed. After an ending
 * follow-up (`publishedKinds`: the original's published follow-ups) only a correction may follow.
 */
export function followUpKindsFor(
  originalKind: 'REPORT' | 'CALL',
  publishedKinds: readonly FollowUpKind[] = [],
): readonly FollowUpKind[] {
  if (endsOriginal(publishedKinds)) return ['CORRECTION']
  return originalKind === 'CALL' ? FOLLOW_UP_KINDS : ['CORRECTION', 'WITHDRAWAL']
}

/** The follow-up as signed: its kind and the figures it carries (only those its kind uses). */
export type FollowUpRecord = {
  originalId: string
  kind: FollowUpKind
  /** New targets (TARGET_REVISED); empty otherwise. */
  targetsPaise: number[]
  /** New stop-loss (STOP_LOSS_REVISED). */
  stopLossPaise: number | null
  /** The price a target or stop-loss was hit at, or the call closed at. */
  pricePaise: number | null
}

export type FollowUpFigures = Omit<FollowUpRecord, 'originalId'>
export type FollowUpField = 'kind' | 'targets' | 'stopLoss' | 'price'
export type FollowUpProblem = { field: FollowUpField; message: string }

const PRICED: readonly FollowUpKind[] = ['TARGET_HIT', 'STOP_LOSS_HIT', 'CLOSED']

/** Keeps only the figures the kind uses, so nothing stray is signed. */
export function followUpFigures(
  kind: FollowUpKind,
  typed: { targetsPaise: number[]; stopLossPaise: number | null; pricePaise: number | null },
): FollowUpFigures {
  return {
    kind,
    targetsPaise: kind === 'TARGET_REVISED' ? typed.targetsPaise : [],
    stopLossPaise: kind === 'STOP_LOSS_REVISED' ? typed.stopLossPaise : null,
    pricePaise: PRICED.includes(kind) ? typed.pricePaise : null,
  }
}

/**
 * What is wrong with a follow-up of `original` (null: the original is a report) given its
 * published follow-ups' kinds: its kind must fit the original and what has happened to it, a
 * revision obeys the call's direction rule, an outcome names its price.
 */
export function followUpProblems(
  original: CallTerms | null,
  figures: FollowUpFigures,
  publishedKinds: readonly FollowUpKind[] = [],
): FollowUpProblem[] {
  if (!followUpKindsFor(original ? 'CALL' : 'REPORT', publishedKinds).includes(figures.kind))
    return [{ field: 'kind', message: kindRefusal(original ? 'call' : 'report', publishedKinds) }]
  if (!original) return []
  switch (figures.kind) {
    case 'TARGET_REVISED':
      return callProblems({ ...original, targetsPaise: figures.targetsPaise })
        .filter((problem) => problem.field === 'targets')
        .map(({ message }) => ({ field: 'targets', message }))
    case 'STOP_LOSS_REVISED':
      return callProblems({ ...original, stopLossPaise: figures.stopLossPaise })
        .filter((problem) => problem.field === 'stopLoss')
        .map(({ message }) => ({ field: 'stopLoss', message }))
    case 'TARGET_HIT':
    case 'STOP_LOSS_HIT':
    case 'CLOSED':
      return figures.pricePaise === null ? [{ field: 'price', message: 'Enter the price.' }] : []
    default:
      return []
  }
}

function kindRefusal(originalKind: 'report' | 'call', publishedKinds: readonly FollowUpKind[]): string {
  if (publishedKinds.includes('WITHDRAWAL'))
    return `This ${originalKind} was withdrawn: only a correction can follow it.`
  if (endsOriginal(publishedKinds))
    return 'This call has ended (stop-loss hit or closed): only a correction can follow it.'
  return 'A report can only be corrected or withdrawn.'
}

/** A follow-up's figures as printed on its page and in its e-mail. */
export function followUpLines(followUp: FollowUpFigures): FactLine[] {
  const lines: FactLine[] = [{ label: 'What this is', value: FOLLOW_UP_WORDS[followUp.kind] }]
  if (followUp.targetsPaise.length)
    lines.push({ label: 'New targets', value: followUp.targetsPaise.map(formatCallPrice).join(', ') })
  if (followUp.stopLossPaise !== null)
    lines.push({ label: 'New stop-loss', value: formatCallPrice(followUp.stopLossPaise) })
  if (followUp.pricePaise !== null)
    lines.push({
      label: followUp.kind === 'CLOSED' ? 'Closed at' : 'Price',
      value: formatCallPrice(followUp.pricePaise),
    })
  return lines
}

/** "Correction: Banks: steady margins". */
export const followUpTitle = (kind: FollowUpKind, originalTitle: string) => `${FOLLOW_UP_WORDS[kind]}: ${originalTitle}`
