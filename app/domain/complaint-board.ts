/**
 * SEBI's monthly complaints disclosure for research analysts (Annexure B of the investor charter
 * circulars of 13 Dec 2021 and 2 June 2025): one table for the month, a monthly trend for the
 * financial year (April to March) and an annual trend, built from the figures stored per month and
 * per source. Carried-forward and pending counts are derived from the history, never stored.
 */

export const COMPLAINT_SOURCES = ['DIRECTLY_FROM_INVESTORS', 'SEBI_SCORES', 'OTHER_SOURCES'] as const
export type ComplaintSource = (typeof COMPLAINT_SOURCES)[number]

/** The "Received from" rows, in SEBI's order and words. */
export const COMPLAINT_SOURCE_LABELS: Record<ComplaintSource, string> = {
  DIRECTLY_FROM_INVESTORS: 'Directly from Investors',
  SEBI_SCORES: 'SEBI (SCORES)',
  OTHER_SOURCES: 'Other Sources (if any)',
}

/** A calendar month as "YYYY-MM". */
export type MonthKey = string

/** HAND: figures the admin entered (months before the register); REGISTER: computed from the register and frozen. */
export type ComplaintBoardOrigin = 'HAND' | 'REGISTER'

/** A month the board publishes, with its count of complaints about someone impersonating us. */
export type PublishedComplaintMonth = {
  month: MonthKey
  impersonationComplaints: number
  origin?: ComplaintBoardOrigin
  /** India calendar date ("YYYY-MM-DD") it was published. */
  publishedOn?: string
}

/** SEBI wants a month's figures by the 7th of the next month. */
export const PUBLICATION_DAY = 7

/** The last India date on which `month` is published on time: "2026-10" -> "2026-11-07". */
export const publicationDeadline = (month: MonthKey) => `${nextMonth(month)}-0${PUBLICATION_DAY}`

/** Published (India date) after the 7th of the next month. */
export const isLatePublication = (month: MonthKey, publishedOn: string) => publishedOn > publicationDeadline(month)

/**
 * The days of the next month on which the compliance officer is reminded while a month is not
 * published: the 1st, when it can first be, and the 5th, two days before the deadline.
 */
export const BOARD_REMINDER_DAYS = [1, 5] as const
export type BoardReminderDay = (typeof BOARD_REMINDER_DAYS)[number]

/**
 * The reminder due on the India date `today` (YYYY-MM-DD) for the month that ended before it: the
 * latest reminder day reached, up to the 7th; none after it (the month is late, and the admin's
 * console says so on every page). A store that was down on the 1st sends that reminder when it is
 * back, unless the 5th has come, whose reminder then goes instead.
 */
export function boardReminderDayDue(today: string): BoardReminderDay | null {
  const dayOfMonth = Number(today.slice(8, 10))
  if (dayOfMonth > PUBLICATION_DAY) return null
  return BOARD_REMINDER_DAYS.findLast((day) => day <= dayOfMonth) ?? null
}

/** How the reported month came to be published. */
export type ComplaintBoardPublication = {
  enteredByHand: boolean
  /** "8 December 2026"; null when not known. */
  publishedOn: string | null
  late: boolean
}

/** "2026-12-08" -> "8 December 2026" */
export function dayLabel(isoDate: string): string {
  return `${Number(isoDate.slice(8, 10))} ${monthLabel(isoDate.slice(0, 7))}`
}

export function publicationOf(month: PublishedComplaintMonth): ComplaintBoardPublication {
  return {
    enteredByHand: (month.origin ?? 'HAND') === 'HAND',
    publishedOn: month.publishedOn ? dayLabel(month.publishedOn) : null,
    late: month.publishedOn ? isLatePublication(month.month, month.publishedOn) : false,
  }
}

/** One month's figures from one source. A published month without a source's row had none. */
export type ComplaintFigures = {
  month: MonthKey
  source: ComplaintSource
  received: number
  resolved: number
  /** Of the complaints pending at the end of the month, those received more than 3 months earlier. */
  pendingOverThreeMonths: number
  /** Days taken to resolve each complaint resolved this month, summed (for the average). */
  resolutionDaysTotal: number
}

export type MonthTableCounts = {
  pendingAtEndOfLastMonth: number
  received: number
  resolved: number
  totalPending: number
  pendingOverThreeMonths: number
  /** Days, to one decimal; 0 when nothing was resolved. */
  averageResolutionDays: number
}
export type MonthTableRow = MonthTableCounts & { serial: number; receivedFrom: string }

export type TrendCounts = { carriedForward: number; received: number; resolved: number; pending: number }
export type TrendRow = TrendCounts & { serial: number; period: string }

export type ComplaintBoard = {
  /** "2024-11": the month it reports. */
  reportedMonth: MonthKey
  publication: ComplaintBoardPublication
  /** "November 2024" */
  monthEnding: string
  /** "30 November 2024" */
  lastDayOfMonth: string
  monthTable: { rows: MonthTableRow[]; total: MonthTableCounts }
  impersonationComplaints: number
  /** April of the reporting month's financial year up to the reporting month. */
  monthlyTrend: { financialYear: string; rows: TrendRow[]; total: TrendCounts }
  /** Every financial year from the first published one up to the reporting month. */
  annualTrend: { rows: TrendRow[]; total: TrendCounts }
}

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const

const FIRST_MONTH_OF_FINANCIAL_YEAR = 4

const MONTH_KEY_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/

export const isMonthKey = (text: string): text is MonthKey => MONTH_KEY_PATTERN.test(text)

function parseMonth(month: MonthKey): { year: number; month: number } {
  const match = MONTH_KEY_PATTERN.exec(month)
  if (!match) throw new RangeError(`a month must be YYYY-MM, got ${month}`)
  return { year: Number(match[1]), month: Number(match[2]) }
}

const monthKey = (year: number, month: number): MonthKey => `${year}-${String(month).padStart(2, '0')}`

export function nextMonth(month: MonthKey): MonthKey {
  const { year, month: number } = parseMonth(month)
  return number === 12 ? monthKey(year + 1, 1) : monthKey(year, number + 1)
}

export function previousMonth(month: MonthKey): MonthKey {
  const { year, month: number } = parseMonth(month)
  return number === 1 ? monthKey(year - 1, 12) : monthKey(year, number - 1)
}

/** "2024-11" -> "November 2024" */
export function monthLabel(month: MonthKey): string {
  const { year, month: number } = parseMonth(month)
  return `${MONTH_NAMES[number - 1]} ${year}`
}

/** The year in which the financial year holding `month` starts: "2025-02" -> 2024. */
export function financialYearStart(month: MonthKey): number {
  const { year, month: number } = parseMonth(month)
  return number >= FIRST_MONTH_OF_FINANCIAL_YEAR ? year : year - 1
}

/** 2024 -> "2024-25" */
export function financialYearLabel(startYear: number): string {
  return `${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}`
}

function lastDayLabel(month: MonthKey): string {
  const { year, month: number } = parseMonth(month)
  const lastDay = new Date(Date.UTC(year, number, 0)).getUTCDate()
  return `${lastDay} ${monthLabel(month)}`
}

/** Days, to one decimal; 0 when nothing was resolved. */
export const averageResolutionDays = (resolutionDaysTotal: number, resolved: number) =>
  resolved === 0 ? 0 : Math.round((resolutionDaysTotal / resolved) * 10) / 10

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0)

/** Complaints from `source` still pending when `month` began: everything received before it, less everything resolved. */
export function pendingAtStartOfMonth(figures: ComplaintFigures[], month: MonthKey, source?: ComplaintSource): number {
  return sum(
    figures
      .filter((row) => row.month < month && (source === undefined || row.source === source))
      .map((row) => row.received - row.resolved),
  )
}

/** Builds the three tables, or null when no month has been published yet. */
export function buildComplaintBoard(
  months: PublishedComplaintMonth[],
  figures: ComplaintFigures[],
): ComplaintBoard | null {
  if (months.length === 0) return null
  for (const { month } of months) parseMonth(month)
  for (const { month } of figures) parseMonth(month)

  const published = [...months].sort((a, b) => a.month.localeCompare(b.month))
  // Month keys compare as text in calendar order.
  const reporting = published.at(-1)!
  const upToReporting = figures.filter((row) => row.month <= reporting.month)
  const figuresOf = (month: MonthKey, source?: ComplaintSource) =>
    upToReporting.filter((row) => row.month === month && (source === undefined || row.source === source))
  const netBefore = (month: MonthKey, source?: ComplaintSource) => pendingAtStartOfMonth(upToReporting, month, source)

  const monthRows: MonthTableRow[] = COMPLAINT_SOURCES.map((source, index) => {
    const rows = figuresOf(reporting.month, source)
    const pendingAtEndOfLastMonth = netBefore(reporting.month, source)
    const received = sum(rows.map((row) => row.received))
    const resolved = sum(rows.map((row) => row.resolved))
    return {
      serial: index + 1,
      receivedFrom: COMPLAINT_SOURCE_LABELS[source],
      pendingAtEndOfLastMonth,
      received,
      resolved,
      totalPending: pendingAtEndOfLastMonth + received - resolved,
      pendingOverThreeMonths: sum(rows.map((row) => row.pendingOverThreeMonths)),
      averageResolutionDays: averageResolutionDays(sum(rows.map((row) => row.resolutionDaysTotal)), resolved),
    }
  })
  const reportingRows = figuresOf(reporting.month)
  const monthTotal: MonthTableCounts = {
    pendingAtEndOfLastMonth: sum(monthRows.map((row) => row.pendingAtEndOfLastMonth)),
    received: sum(monthRows.map((row) => row.received)),
    resolved: sum(monthRows.map((row) => row.resolved)),
    totalPending: sum(monthRows.map((row) => row.totalPending)),
    pendingOverThreeMonths: sum(monthRows.map((row) => row.pendingOverThreeMonths)),
    averageResolutionDays: averageResolutionDays(
      sum(reportingRows.map((row) => row.resolutionDaysTotal)),
      sum(reportingRows.map((row) => row.resolved)),
    ),
  }

  const trendRow = (serial: number, period: string, from: MonthKey, to: MonthKey): TrendRow => {
    const rows = upToReporting.filter((row) => row.month >= from && row.month <= to)
    const carriedForward = netBefore(from)
    const received = sum(rows.map((row) => row.received))
    const resolved = sum(rows.map((row) => row.resolved))
    return { serial, period, carriedForward, received, resolved, pending: carriedForward + received - resolved }
  }
  // Opening balance of the first row, flows of all rows, closing balance of the last row.
  const trendTotal = (rows: TrendRow[]): TrendCounts => ({
    carriedForward: rows[0]!.carriedForward,
    received: sum(rows.map((row) => row.received)),
    resolved: sum(rows.map((row) => row.resolved)),
    pending: rows.at(-1)!.pending,
  })

  const reportingYear = financialYearStart(reporting.month)
  const monthlyRows: TrendRow[] = []
  for (
    let month = monthKey(reportingYear, FIRST_MONTH_OF_FINANCIAL_YEAR);
    month <= reporting.month;
    month = nextMonth(month)
  ) {
    monthlyRows.push(trendRow(monthlyRows.length + 1, monthLabel(month), month, month))
  }

  const firstMonth = [published[0]!.month, ...upToReporting.map((row) => row.month)].sort()[0]!
  const annualRows: TrendRow[] = []
  for (let year = financialYearStart(firstMonth); year <= reportingYear; year++) {
    const lastMonth = year === reportingYear ? reporting.month : monthKey(year + 1, FIRST_MONTH_OF_FINANCIAL_YEAR - 1)
    annualRows.push(
      trendRow(
        annualRows.length + 1,
        financialYearLabel(year),
        monthKey(year, FIRST_MONTH_OF_FINANCIAL_YEAR),
        lastMonth,
      ),
    )
  }

  return {
    reportedMonth: reporting.month,
    publication: publicationOf(reporting),
    monthEnding: monthLabel(reporting.month),
    lastDayOfMonth: lastDayLabel(reporting.month),
    monthTable: { rows: monthRows, total: monthTotal },
    impersonationComplaints: reporting.impersonationComplaints,
    monthlyTrend: {
      financialYear: financialYearLabel(reportingYear),
      rows: monthlyRows,
      total: trendTotal(monthlyRows),
    },
    annualTrend: { rows: annualRows, total: trendTotal(annualRows) },
  }
}
