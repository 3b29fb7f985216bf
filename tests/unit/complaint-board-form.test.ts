import { describe, expect, it } from 'vitest'
import { nextMonth, previousMonth, type ComplaintFigures } from '~/domain/complaint-board'
import {
  COMPLAINTS_PER_SOURCE_PER_MONTH_MAX,
  complaintMonthFormSchema,
  EARLIEST_COMPLAINT_BOARD_MONTH,
  firstComplaintHistoryProblem,
  lastEndedMonth,
  pendingAtStartBySource,
  RESOLUTION_DAYS_PER_COMPLAINT_MAX,
  sourceFigureProblems,
  sourcePreview,
} from '~/domain/complaint-board-form'

const figures = (received: number, resolved: number, pendingOverThreeMonths = 0, resolutionDaysTotal = 0) => ({
  received,
  resolved,
  pendingOverThreeMonths,
  resolutionDaysTotal,
})

describe('the limits', () => {
  it('are typing-mistake guards with their units in their names', () => {
    expect(COMPLAINTS_PER_SOURCE_PER_MONTH_MAX).toBe(10_000)
    expect(RESOLUTION_DAYS_PER_COMPLAINT_MAX).toBe(3_650)
    expect(EARLIEST_COMPLAINT_BOARD_MONTH).toBe('2021-12')
  })
})

describe('sourceFigureProblems', () => {
  it('accepts figures that add up, resolving complaints carried from earlier months', () => {
    expect(sourceFigureProblems(2, figures(1, 3, 0, 40))).toEqual([])
    expect(sourceFigureProblems(5, figures(0, 0, 5))).toEqual([])
  })

  it('refuses resolving more than there was to resolve, and more pending over 3 months than pending', () => {
    expect(sourceFigureProblems(2, figures(1, 4))).toEqual([
      {
        field: 'resolved',
        message: 'Cannot be more than 3, the 2 pending at the start of the month plus the 1 received.',
      },
    ])
    expect(sourceFigureProblems(2, figures(1, 2, 2, 10))).toEqual([
      {
        field: 'pendingOverThreeMonths',
        message: 'Cannot be more than 1, the number pending at the end of the month.',
      },
    ])
  })

  it('refuses resolution days with nothing resolved, and more than ten years a complaint', () => {
    expect(sourceFigureProblems(0, figures(1, 0, 0, 3))).toEqual([
      {
        field: 'resolutionDaysTotal',
        message: 'No complaint was resolved this month, so there are no days to count: enter 0.',
      },
    ])
    expect(sourceFigureProblems(0, figures(2, 2, 0, 2 * RESOLUTION_DAYS_PER_COMPLAINT_MAX))).toEqual([])
    expect(sourceFigureProblems(0, figures(2, 2, 0, 2 * RESOLUTION_DAYS_PER_COMPLAINT_MAX + 1))).toEqual([
      {
        field: 'resolutionDaysTotal',
        message: 'That is more than 3,650 days for each complaint resolved; check for a typing mistake.',
      },
    ])
  })
})

describe('complaintMonthFormSchema', () => {
  const zero = { received: 0, resolved: 0, pendingOverThreeMonths: 0, resolutionDaysTotal: 0 }
  const schema = complaintMonthFormSchema({ DIRECTLY_FROM_INVESTORS: 1, SEBI_SCORES: 0, OTHER_SOURCES: 0 })

  it('judges each source against what it started the month with', () => {
    const resolveOne = { ...zero, resolved: 1, resolutionDaysTotal: 4 }
    expect(
      schema.safeParse({
        impersonationComplaints: 0,
        figures: { DIRECTLY_FROM_INVESTORS: resolveOne, SEBI_SCORES: zero, OTHER_SOURCES: zero },
      }).success,
    ).toBe(true)
    const result = schema.safeParse({
      impersonationComplaints: 0,
      figures: { DIRECTLY_FROM_INVESTORS: zero, SEBI_SCORES: resolveOne, OTHER_SOURCES: zero },
    })
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      [
        'figures.SEBI_SCORES.resolved',
        'Cannot be more than 0, the 0 pending at the start of the month plus the 0 received.',
      ],
    ])
  })

  it('refuses counts that are negative, fractional or beyond the limit', () => {
    const result = schema.safeParse({
      impersonationComplaints: COMPLAINTS_PER_SOURCE_PER_MONTH_MAX + 1,
      figures: {
        DIRECTLY_FROM_INVESTORS: { ...zero, received: -1 },
        SEBI_SCORES: { ...zero, received: 0.5 },
        OTHER_SOURCES: zero,
      },
    })
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['impersonationComplaints', 'At most 10,000; check for a typing mistake.'],
      ['figures.DIRECTLY_FROM_INVESTORS.received', 'Enter 0 or more.'],
      ['figures.SEBI_SCORES.received', 'Enter a whole number.'],
    ])
  })
})

describe('the history', () => {
  const row = (month: string, received: number, resolved: number): ComplaintFigures => ({
    month,
    source: 'SEBI_SCORES',
    received,
    resolved,
    pendingOverThreeMonths: 0,
    resolutionDaysTotal: resolved,
  })

  it('carries what was pending into each month, per source', () => {
    expect(pendingAtStartBySource([row('2024-10', 3, 1), row('2024-11', 0, 1)], '2024-12')).toEqual({
      DIRECTLY_FROM_INVESTORS: 0,
      SEBI_SCORES: 1,
      OTHER_SOURCES: 0,
    })
  })

  it('finds the first month, from the one given, that no longer adds up', () => {
    const history = [row('2024-09', 0, 1), row('2024-10', 1, 0), row('2024-11', 0, 2)]
    expect(firstComplaintHistoryProblem(history, '2024-10')).toMatchObject({
      month: '2024-11',
      source: 'SEBI_SCORES',
      field: 'resolved',
    })
    expect(firstComplaintHistoryProblem(history, '2024-09')).toMatchObject({ month: '2024-09' })
    expect(firstComplaintHistoryProblem([row('2024-10', 2, 0), row('2024-11', 0, 2)], '2024-10')).toBeNull()
  })
})

describe('which month to publish', () => {
  it('is one that has ended in India: at 00:30 IST on 1 December, November has', () => {
    expect(lastEndedMonth(new Date('2026-11-30T18:29:00Z'))).toBe('2026-10')
    expect(lastEndedMonth(new Date('2026-11-30T19:00:00Z'))).toBe('2026-11')
    expect(lastEndedMonth(new Date('2027-01-15T00:00:00Z'))).toBe('2026-12')
  })

  it('steps across the year', () => {
    expect(nextMonth('2024-12')).toBe('2025-01')
    expect(previousMonth('2025-01')).toBe('2024-12')
  })
})

describe('sourcePreview', () => {
  it('derives what is pending at the end and the average days, as the board will', () => {
    expect(sourcePreview(2, { received: 3, resolved: 4, resolutionDaysTotal: 30 })).toEqual({
      pendingAtEnd: 1,
      averageResolutionDays: 7.5,
    })
    expect(sourcePreview(0, { received: 0, resolved: 0, resolutionDaysTotal: 0 })).toEqual({
      pendingAtEnd: 0,
      averageResolutionDays: 0,
    })
  })
})
