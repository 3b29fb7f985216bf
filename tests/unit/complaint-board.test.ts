import { describe, expect, it } from 'vitest'
import {
  boardReminderDayDue,
  buildComplaintBoard,
  financialYearLabel,
  financialYearStart,
  monthLabel,
  type ComplaintFigures,
  type ComplaintSource,
} from '~/domain/complaint-board'

const figures = (
  month: string,
  source: ComplaintSource,
  counts: Partial<Omit<ComplaintFigures, 'month' | 'source'>>,
): ComplaintFigures => ({
  month,
  source,
  received: 0,
  resolved: 0,
  pendingOverThreeMonths: 0,
  resolutionDaysTotal: 0,
  ...counts,
})

const published = (...months: string[]) => months.map((month) => ({ month, impersonationComplaints: 0 }))

describe('buildComplaintBoard', () => {
  it('has nothing to show before a month is published', () => {
    expect(buildComplaintBoard([], [figures('2024-11', 'SEBI_SCORES', { received: 1 })])).toBeNull()
  })

  it("shows a published month without figures as zeros in SEBI's three rows", () => {
    const board = buildComplaintBoard(published('2024-11'), [])!
    expect(board.monthEnding).toBe('November 2024')
    expect(board.lastDayOfMonth).toBe('30 November 2024')
    expect(board.monthTable.rows.map((row) => [row.serial, row.receivedFrom])).toEqual([
      [1, 'Directly from Investors'],
      [2, 'SEBI (SCORES)'],
      [3, 'Other Sources (if any)'],
    ])
    const zeros = {
      pendingAtEndOfLastMonth: 0,
      received: 0,
      resolved: 0,
      totalPending: 0,
      pendingOverThreeMonths: 0,
      averageResolutionDays: 0,
    }
    for (const row of board.monthTable.rows) expect(row).toMatchObject(zeros)
    expect(board.monthTable.total).toEqual(zeros)
    expect(board.impersonationComplaints).toBe(0)
    expect(board.monthlyTrend.financialYear).toBe('2024-25')
    expect(board.monthlyTrend.rows.map((row) => row.period)).toEqual([
      'April 2024',
      'May 2024',
      'June 2024',
      'July 2024',
      'August 2024',
      'September 2024',
      'October 2024',
      'November 2024',
    ])
    expect(board.monthlyTrend.total).toEqual({ carriedForward: 0, received: 0, resolved: 0, pending: 0 })
    expect(board.annualTrend.rows).toEqual([
      { serial: 1, period: '2024-25', carriedForward: 0, received: 0, resolved: 0, pending: 0 },
    ])
  })

  it('carries pending complaints forward per source and totals the month table', () => {
    const board = buildComplaintBoard(
      [...published('2024-09', '2024-10'), { month: '2024-11', impersonationComplaints: 2 }],
      [
        figures('2024-09', 'DIRECTLY_FROM_INVESTORS', { received: 3, resolved: 1, resolutionDaysTotal: 4 }),
        figures('2024-10', 'DIRECTLY_FROM_INVESTORS', { received: 1, resolved: 2, resolutionDaysTotal: 10 }),
        figures('2024-10', 'SEBI_SCORES', { received: 2 }),
        figures('2024-11', 'DIRECTLY_FROM_INVESTORS', {
          received: 2,
          resolved: 2,
          resolutionDaysTotal: 5,
          pendingOverThreeMonths: 0,
        }),
        figures('2024-11', 'SEBI_SCORES', { received: 1, resolved: 3, resolutionDaysTotal: 30 }),
      ],
    )!
    const [direct, scores, other] = board.monthTable.rows
    expect(direct).toEqual({
      serial: 1,
      receivedFrom: 'Directly from Investors',
      pendingAtEndOfLastMonth: 1,
      received: 2,
      resolved: 2,
      totalPending: 1,
      pendingOverThreeMonths: 0,
      averageResolutionDays: 2.5,
    })
    expect(scores).toMatchObject({
      pendingAtEndOfLastMonth: 2,
      received: 1,
      resolved: 3,
      totalPending: 0,
      averageResolutionDays: 10,
    })
    expect(other).toMatchObject({
      pendingAtEndOfLastMonth: 0,
      received: 0,
      resolved: 0,
      totalPending: 0,
      averageResolutionDays: 0,
    })
    // The total's average is over all complaints resolved this month, not an average of averages.
    expect(board.monthTable.total).toEqual({
      pendingAtEndOfLastMonth: 3,
      received: 3,
      resolved: 5,
      totalPending: 1,
      pendingOverThreeMonths: 0,
      averageResolutionDays: 7,
    })
    expect(board.impersonationComplaints).toBe(2)
  })

  it('builds the monthly trend from April of the financial year with opening and closing balances in the total', () => {
    const board = buildComplaintBoard(published('2025-01', '2025-02'), [
      figures('2024-03', 'SEBI_SCORES', { received: 2 }),
      figures('2024-05', 'DIRECTLY_FROM_INVESTORS', { received: 4, resolved: 1 }),
      figures('2025-02', 'OTHER_SOURCES', { received: 1, resolved: 3 }),
    ])!
    expect(board.monthlyTrend.financialYear).toBe('2024-25')
    const rows = board.monthlyTrend.rows
    expect(rows).toHaveLength(11)
    expect(rows[0]).toEqual({
      serial: 1,
      period: 'April 2024',
      carriedForward: 2,
      received: 0,
      resolved: 0,
      pending: 2,
    })
    expect(rows[1]).toEqual({ serial: 2, period: 'May 2024', carriedForward: 2, received: 4, resolved: 1, pending: 5 })
    expect(rows[10]).toEqual({
      serial: 11,
      period: 'February 2025',
      carriedForward: 5,
      received: 1,
      resolved: 3,
      pending: 3,
    })
    expect(board.monthlyTrend.total).toEqual({ carriedForward: 2, received: 5, resolved: 4, pending: 3 })
  })

  it('builds one annual row per financial year since the first figures', () => {
    const board = buildComplaintBoard(published('2025-05'), [
      figures('2024-03', 'SEBI_SCORES', { received: 2 }),
      figures('2024-05', 'DIRECTLY_FROM_INVESTORS', { received: 4, resolved: 1 }),
      figures('2025-03', 'DIRECTLY_FROM_INVESTORS', { resolved: 2 }),
      figures('2025-04', 'OTHER_SOURCES', { received: 1, resolved: 1 }),
    ])!
    expect(board.annualTrend.rows).toEqual([
      { serial: 1, period: '2023-24', carriedForward: 0, received: 2, resolved: 0, pending: 2 },
      { serial: 2, period: '2024-25', carriedForward: 2, received: 4, resolved: 3, pending: 3 },
      { serial: 3, period: '2025-26', carriedForward: 3, received: 1, resolved: 1, pending: 3 },
    ])
    expect(board.annualTrend.total).toEqual({ carriedForward: 0, received: 7, resolved: 4, pending: 3 })
    expect(board.monthlyTrend.rows.map((row) => row.period)).toEqual(['April 2025', 'May 2025'])
  })

  it('reports the latest published month and ignores figures entered for later months', () => {
    const board = buildComplaintBoard(published('2024-10', '2024-11'), [
      figures('2024-12', 'SEBI_SCORES', { received: 9 }),
    ])!
    expect(board.monthEnding).toBe('November 2024')
    expect(board.monthTable.total.received).toBe(0)
    expect(board.annualTrend.total.received).toBe(0)
  })

  it('refuses a malformed month', () => {
    expect(() => buildComplaintBoard(published('2024-13'), [])).toThrow(RangeError)
  })
})

describe('months and financial years', () => {
  it('labels months and financial years the way the board shows them', () => {
    expect(monthLabel('2025-03')).toBe('March 2025')
    expect(financialYearStart('2025-03')).toBe(2024)
    expect(financialYearStart('2025-04')).toBe(2025)
    expect(financialYearLabel(2024)).toBe('2024-25')
    expect(financialYearLabel(2099)).toBe('2099-00')
  })
})

describe('boardReminderDayDue', () => {
  it.each([
    ['2026-11-01', 1],
    ['2026-11-04', 1],
    ['2026-11-05', 5],
    ['2026-11-07', 5],
    ['2026-11-08', null],
    ['2026-11-30', null],
  ])('on %s is the reminder of day %s', (today, day) => {
    expect(boardReminderDayDue(today)).toBe(day)
  })
})
