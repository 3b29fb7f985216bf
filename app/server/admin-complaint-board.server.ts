import {
  buildComplaintBoard,
  COMPLAINT_SOURCE_LABELS,
  COMPLAINT_SOURCES,
  isMonthKey,
  monthLabel,
  pendingAtStartOfMonth,
  type ComplaintBoard,
  type ComplaintFigures,
  type ComplaintSource,
  type MonthKey,
} from '~/domain/complaint-board'
import {
  firstComplaintHistoryProblem,
  pendingAtStartBySource,
  SOURCE_FIGURE_LABELS,
  type ComplaintMonthForm,
  type SourceFigures,
} from '~/domain/complaint-board-form'
import { Prisma } from '~/generated/prisma/client'
import { recordAudit } from './audit.server'
import { firstDayOf, readComplaintHistory, type ComplaintHistory } from './complaint-board.server'
import { prisma } from './db.server'

export type ComplaintMonthSummary = {
  month: MonthKey
  label: string
  received: number
  resolved: number
  pendingAtEnd: number
  impersonationComplaints: number
}

export type ComplaintMonthForAdmin = {
  month: MonthKey
  label: string
  impersonationComplaints: number
  figures: Record<ComplaintSource, SourceFigures>
  pendingAtStart: Record<ComplaintSource, number>
  /** The latest published month: the one /complaint-board reports. */
  latestMonth: MonthKey
  /** The board as /complaint-board showed it when this was the latest month. */
  board: ComplaintBoard
}

export type ComplaintBoardChange =
  { ok: true; changed: boolean } | { ok: false; status: 404 | 409; message: string; field?: 'month' }

const NOT_PUBLISHED: ComplaintBoardChange = {
  ok: false,
  status: 404,
  message: 'That month is not on the complaint board.',
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0)

/** A source without a stored row had no complaints that month. */
function figuresOfMonth(figures: ComplaintFigures[], month: MonthKey): Record<ComplaintSource, SourceFigures> {
  return Object.fromEntries(
    COMPLAINT_SOURCES.map((source) => {
      const row = figures.find((figure) => figure.month === month && figure.source === source)
      return [
        source,
        {
          received: row?.received ?? 0,
          resolved: row?.resolved ?? 0,
          pendingOverThreeMonths: row?.pendingOverThreeMonths ?? 0,
          resolutionDaysTotal: row?.resolutionDaysTotal ?? 0,
        },
      ]
    }),
  ) as Record<ComplaintSource, SourceFigures>
}

/** The published months, newest first, with their totals over the three sources. */
export async function complaintMonthsForAdmin(): Promise<ComplaintMonthSummary[]> {
  const { months, figures } = await readComplaintHistory()
  return months
    .map(({ month, impersonationComplaints }) => {
      const rows = figures.filter((row) => row.month === month)
      const received = sum(rows.map((row) => row.received))
      const resolved = sum(rows.map((row) => row.resolved))
      return {
        month,
        label: monthLabel(month),
        received,
        resolved,
        pendingAtEnd: pendingAtStartOfMonth(figures, month) + received - resolved,
        impersonationComplaints,
      }
    })
    .sort((a, b) => b.month.localeCompare(a.month))
}

function monthForAdmin({ months, figures }: ComplaintHistory, month: MonthKey): ComplaintMonthForAdmin | null {
  const published = months.find((row) => row.month === month)
  if (!published) return null
  return {
    month,
    label: monthLabel(month),
    impersonationComplaints: published.impersonationComplaints,
    figures: figuresOfMonth(figures, month),
    pendingAtStart: pendingAtStartBySource(figures, month),
    // Month keys compare as text in calendar order.
    latestMonth: months.reduce((latest, row) => (row.month > latest ? row.month : latest), month),
    board: buildComplaintBoard(
      months.filter((row) => row.month <= month),
      figures,
    )!,
  }
}

/** One published month's stored figures, what each source started it with, and the board as of that month; null if not published. */
export async function complaintMonthForAdmin(month: string): Promise<ComplaintMonthForAdmin | null> {
  if (!isMonthKey(month)) return null
  return monthForAdmin(await readComplaintHistory(), month)
}

/**
 * Puts a month on the board with no complaints yet; if it is the latest, /complaint-board reports it
 * from now on. The caller has checked the month has ended (publishComplaintMonthSchema).
 */
export async function publishComplaintMonth(
  actorId: string,
  month: MonthKey,
  now = new Date(),
): Promise<ComplaintBoardChange> {
  try {
    await prisma.$transaction(async (tx) => {
      await tx.complaintBoardMonth.create({ data: { month: firstDayOf(month) } })
      await recordAudit(
        tx,
        {
          actorId,
          action: 'complaint-board.publish',
          subjectType: 'ComplaintBoardMonth',
          subjectId: month,
          before: null,
          after: { month, impersonationComplaints: 0 },
        },
        now,
      )
    })
    return { ok: true, changed: true }
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      return { ok: false, status: 409, field: 'month', message: `${monthLabel(month)} is already on the board.` }
    }
    throw error
  }
}

const snapshot = (impersonationComplaints: number, figures: Record<ComplaintSource, SourceFigures>) => ({
  impersonationComplaints,
  figures: Object.fromEntries(
    COMPLAINT_SOURCES.map((source) => {
      const { received, resolved, pendingOverThreeMonths, resolutionDaysTotal } = figures[source]
      return [source, { received, resolved, pendingOverThreeMonths, resolutionDaysTotal }]
    }),
  ),
})

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1)

/**
 * Saves one month's figures and impersonation count, audited in the same transaction. The form's
 * schema has checked the month on its own; here the whole history from this month on is checked
 * again under a lock, because a change moves what every later month starts with and another admin
 * may have saved in between. /complaint-board reads the tables directly, so it shows the change at once.
 */
export async function saveComplaintMonth(
  actorId: string,
  month: MonthKey,
  form: ComplaintMonthForm,
  now = new Date(),
): Promise<ComplaintBoardChange> {
  if (!isMonthKey(month)) return NOT_PUBLISHED
  return prisma.$transaction(async (tx) => {
    // One save at a time: each checks figures that another save could change underneath it.
    await tx.$queryRaw`SELECT month FROM complaint_board_months FOR UPDATE`
    const history = await readComplaintHistory(tx)
    const current = monthForAdmin(history, month)
    if (!current) return NOT_PUBLISHED

    const before = snapshot(current.impersonationComplaints, current.figures)
    const after = snapshot(form.impersonationComplaints, form.figures)
    if (JSON.stringify(before) === JSON.stringify(after)) return { ok: true, changed: false }

    const figuresAfter = [
      ...history.figures.filter((row) => row.month !== month),
      ...COMPLAINT_SOURCES.map((source) => ({ month, source, ...form.figures[source] })),
    ]
    const problem = firstComplaintHistoryProblem(figuresAfter, month)
    if (problem) {
      const where = `${COMPLAINT_SOURCE_LABELS[problem.source]}, ${SOURCE_FIGURE_LABELS[problem.field]}`
      const message =
        problem.month === month
          ? `${where}: ${lowerFirst(problem.message)}`
          : `Saving this would leave ${monthLabel(problem.month)} wrong (${where}): ${lowerFirst(problem.message)} Correct ${monthLabel(problem.month)} first.`
      return { ok: false, status: 409, message }
    }

    for (const source of COMPLAINT_SOURCES) {
      await tx.complaintFigures.upsert({
        where: { month_source: { month: firstDayOf(month), source } },
        create: { month: firstDayOf(month), source, ...form.figures[source] },
        update: form.figures[source],
      })
    }
    await tx.complaintBoardMonth.update({
      where: { month: firstDayOf(month) },
      data: { impersonationComplaints: form.impersonationComplaints },
    })
    await recordAudit(
      tx,
      {
        actorId,
        action: 'complaint-board.update',
        subjectType: 'ComplaintBoardMonth',
        subjectId: month,
        before,
        after,
      },
      now,
    )
    return { ok: true, changed: true }
  })
}
