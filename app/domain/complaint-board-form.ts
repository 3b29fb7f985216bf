import { z } from 'zod'
import {
  averageResolutionDays,
  COMPLAINT_SOURCES,
  isMonthKey,
  monthLabel,
  nextMonth,
  pendingAtStartOfMonth,
  previousMonth,
  type ComplaintFigures,
  type ComplaintSource,
  type MonthKey,
} from './complaint-board'
import { indiaIsoDate } from './dates'

/*
 * The admin's data entry for the complaint board. Only what cannot be derived is entered: per
 * source, the complaints received and resolved, those pending for more than three months, and the
 * days the resolved ones took in total (SEBI's average is that total over the number resolved).
 * Pending at the start and at the end of the month come from the history (complaint-board.ts).
 */

/** Guards against a typing mistake, not regulatory limits (SEBI sets none). */
export const COMPLAINTS_PER_SOURCE_PER_MONTH_MAX = 10_000
export const IMPERSONATION_COMPLAINTS_PER_MONTH_MAX = 10_000
/** Ten years: a longer average for the complaints resolved in a month is a typing mistake. */
export const RESOLUTION_DAYS_PER_COMPLAINT_MAX = 3_650
/** SEBI's circular of 13 December 2021 started the monthly disclosure: no board month before it. */
export const EARLIEST_COMPLAINT_BOARD_MONTH: MonthKey = '2021-12'

/** What is stored for one month and one source. */
export type SourceFigures = Pick<
  ComplaintFigures,
  'received' | 'resolved' | 'pendingOverThreeMonths' | 'resolutionDaysTotal'
>
export type SourceFigureField = keyof SourceFigures

/** The form's labels, also used to name a field in a message about another month. */
export const SOURCE_FIGURE_LABELS: Record<SourceFigureField, string> = {
  received: 'Received',
  resolved: 'Resolved',
  pendingOverThreeMonths: 'Pending for more than 3 months',
  resolutionDaysTotal: 'Days taken to resolve them, in total',
}
export type FigureProblem = { field: SourceFigureField; message: string }

const formatCount = (count: number) => count.toLocaleString('en-IN')

/** Pending at the end of the month, given what was pending when it began. */
export const pendingAtEndOfMonth = (pendingAtStart: number, figures: Pick<SourceFigures, 'received' | 'resolved'>) =>
  pendingAtStart + figures.received - figures.resolved

/**
 * Why one source's figures for a month cannot be right, given the complaints from that source
 * pending when the month began; empty when they can be.
 */
export function sourceFigureProblems(pendingAtStart: number, figures: SourceFigures): FigureProblem[] {
  const problems: FigureProblem[] = []
  const toResolve = pendingAtStart + figures.received
  if (figures.resolved > toResolve) {
    problems.push({
      field: 'resolved',
      message: `Cannot be more than ${formatCount(toResolve)}, the ${formatCount(pendingAtStart)} pending at the start of the month plus the ${formatCount(figures.received)} received.`,
    })
  }
  const pendingAtEnd = Math.max(0, pendingAtEndOfMonth(pendingAtStart, figures))
  if (figures.pendingOverThreeMonths > pendingAtEnd) {
    problems.push({
      field: 'pendingOverThreeMonths',
      message: `Cannot be more than ${formatCount(pendingAtEnd)}, the number pending at the end of the month.`,
    })
  }
  if (figures.resolved === 0 && figures.resolutionDaysTotal > 0) {
    problems.push({
      field: 'resolutionDaysTotal',
      message: 'No complaint was resolved this month, so there are no days to count: enter 0.',
    })
  } else if (figures.resolutionDaysTotal > figures.resolved * RESOLUTION_DAYS_PER_COMPLAINT_MAX) {
    problems.push({
      field: 'resolutionDaysTotal',
      message: `That is more than ${formatCount(RESOLUTION_DAYS_PER_COMPLAINT_MAX)} days for each complaint resolved; check for a typing mistake.`,
    })
  }
  return problems
}

const count = (missing: string, max: number) =>
  z
    .number({ error: missing })
    .int('Enter a whole number.')
    .min(0, 'Enter 0 or more.')
    .max(max, `At most ${formatCount(max)}; check for a typing mistake.`)

function sourceFiguresSchema(pendingAtStart: number) {
  return z
    .object({
      received: count('Enter the number of complaints received; 0 if none.', COMPLAINTS_PER_SOURCE_PER_MONTH_MAX),
      resolved: count('Enter the number of complaints resolved; 0 if none.', COMPLAINTS_PER_SOURCE_PER_MONTH_MAX),
      pendingOverThreeMonths: count(
        'Enter the number pending for more than 3 months; 0 if none.',
        COMPLAINTS_PER_SOURCE_PER_MONTH_MAX,
      ),
      resolutionDaysTotal: count(
        'Enter the days taken to resolve them, in total; 0 if none was resolved.',
        COMPLAINTS_PER_SOURCE_PER_MONTH_MAX * RESOLUTION_DAYS_PER_COMPLAINT_MAX,
      ),
    })
    .superRefine((figures, context) => {
      for (const problem of sourceFigureProblems(pendingAtStart, figures)) {
        context.addIssue({ code: 'custom', path: [problem.field], message: problem.message })
      }
    })
}

/**
 * One month's form: the impersonation count and each source's figures. The rules need what was
 * pending from each source when the month began, so the schema is built for that (the server
 * computes it; the page gets it from the loader).
 */
export function complaintMonthFormSchema(pendingAtStart: Record<ComplaintSource, number>) {
  return z.object({
    impersonationComplaints: count(
      'Enter the number of complaints about impersonation; 0 if none.',
      IMPERSONATION_COMPLAINTS_PER_MONTH_MAX,
    ),
    figures: z.object({
      DIRECTLY_FROM_INVESTORS: sourceFiguresSchema(pendingAtStart.DIRECTLY_FROM_INVESTORS),
      SEBI_SCORES: sourceFiguresSchema(pendingAtStart.SEBI_SCORES),
      OTHER_SOURCES: sourceFiguresSchema(pendingAtStart.OTHER_SOURCES),
    }),
  })
}
export type ComplaintMonthForm = z.infer<ReturnType<typeof complaintMonthFormSchema>>

/** What was pending from each source when `month` began. */
export function pendingAtStartBySource(figures: ComplaintFigures[], month: MonthKey): Record<ComplaintSource, number> {
  return Object.fromEntries(
    COMPLAINT_SOURCES.map((source) => [source, pendingAtStartOfMonth(figures, month, source)]),
  ) as Record<ComplaintSource, number>
}

export type ComplaintHistoryProblem = FigureProblem & { month: MonthKey; source: ComplaintSource }

/**
 * The first month from `fromMonth` on and source, in calendar order, whose figures the rules refuse.
 * A change to one month moves what every later month starts with, so a save checks them all.
 */
export function firstComplaintHistoryProblem(
  figures: ComplaintFigures[],
  fromMonth: MonthKey,
): ComplaintHistoryProblem | null {
  // Month keys compare as text in calendar order.
  const inOrder = figures
    .filter((row) => row.month >= fromMonth)
    .sort(
      (a, b) =>
        a.month.localeCompare(b.month) || COMPLAINT_SOURCES.indexOf(a.source) - COMPLAINT_SOURCES.indexOf(b.source),
    )
  for (const row of inOrder) {
    const [problem] = sourceFigureProblems(pendingAtStartOfMonth(figures, row.month, row.source), row)
    if (problem) return { ...problem, month: row.month, source: row.source }
  }
  return null
}

/** The latest month that has ended in India: only a finished month is published. */
export function lastEndedMonth(now: Date): MonthKey {
  return previousMonth(indiaIsoDate(now).slice(0, 7))
}

/**
 * The month the publish form suggests: the one after the latest published (or the last ended one
 * before the first), null while the board is up to date.
 */
export function suggestedMonthToPublish(latestPublished: MonthKey | null, now: Date): MonthKey | null {
  const lastEnded = lastEndedMonth(now)
  if (latestPublished === null) return lastEnded
  const following = nextMonth(latestPublished)
  return following <= lastEnded ? following : null
}

/** Publishing the next month: which month (checked again by the server) and how, from the register or by hand. */
export const publishComplaintMonthSchema = z.object({
  month: z
    .string({ error: 'Choose the month to publish.' })
    .trim()
    .refine(isMonthKey, 'Enter the month as YYYY-MM, like 2024-12.')
    .refine((month) => month >= EARLIEST_COMPLAINT_BOARD_MONTH, {
      message: `The board starts no earlier than ${monthLabel(EARLIEST_COMPLAINT_BOARD_MONTH)}, when SEBI asked for it.`,
    }),
  path: z.enum(['register', 'hand'], { error: 'Choose how to publish the month.' }),
})

/** The live preview next to a source's inputs: what the board will derive from them. */
export function sourcePreview(
  pendingAtStart: number,
  figures: Pick<SourceFigures, 'received' | 'resolved' | 'resolutionDaysTotal'>,
) {
  return {
    pendingAtEnd: pendingAtEndOfMonth(pendingAtStart, figures),
    averageResolutionDays: averageResolutionDays(figures.resolutionDaysTotal, figures.resolved),
  }
}
