import {
  buildComplaintBoard,
  COMPLAINT_SOURCE_LABELS,
  COMPLAINT_SOURCES,
  isMonthKey,
  monthLabel,
  pendingAtStartOfMonth,
  publicationOf,
  type ComplaintBoard,
  type ComplaintBoardOrigin,
  type ComplaintBoardPublication,
  type ComplaintFigures,
  type ComplaintSource,
  type MonthKey,
} from '~/domain/complaint-board'
import {
  nextMonthToPublish,
  registerCovers,
  type NextMonthToPublish,
  type PublishPath,
} from '~/domain/complaint-register-board'
import {
  firstComplaintHistoryProblem,
  pendingAtStartBySource,
  SOURCE_FIGURE_LABELS,
  type ComplaintMonthForm,
  type SourceFigures,
} from '~/domain/complaint-board-form'
import { Prisma } from '~/generated/prisma/client'
import { recordAudit } from '../audit.server'
import { firstDayOf, readComplaintHistory, type ComplaintHistory } from './board-history.server'
import {
  checkPublish,
  computeRegisterMonth,
  firstRegisterMonth,
  latestPublishedMonth,
  storeRegisterMonth,
} from './board-from-register.server'
import { prisma } from '../db.server'

export type ComplaintMonthSummary = {
  month: MonthKey
  label: string
  received: number
  resolved: number
  pendingAtEnd: number
  impersonationComplaints: number
  publication: ComplaintBoardPublication
}

export type ComplaintMonthForAdmin = {
  month: MonthKey
  label: string
  impersonationComplaints: number
  origin: ComplaintBoardOrigin
  publication: ComplaintBoardPublication
  /** Hand-entered figures of a month before the register; a month from the register is frozen. */
  editable: boolean
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
export async function complaintMonthsForAdmin(
  history: ComplaintHistory | null = null,
): Promise<ComplaintMonthSummary[]> {
  const { months, figures } = history ?? (await readComplaintHistory())
  return months
    .map((published) => {
      const { month, impersonationComplaints } = published
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
        publication: publicationOf(published),
      }
    })
    .sort((a, b) => b.month.localeCompare(a.month))
}

function monthForAdmin(
  { months, figures }: ComplaintHistory,
  month: MonthKey,
  firstRegister: MonthKey | null,
): ComplaintMonthForAdmin | null {
  const published = months.find((row) => row.month === month)
  if (!published) return null
  const origin = published.origin ?? 'HAND'
  return {
    month,
    label: monthLabel(month),
    impersonationComplaints: published.impersonationComplaints,
    origin,
    publication: publicationOf(published),
    editable: origin === 'HAND' && !registerCovers(month, firstRegister),
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
  return monthForAdmin(await readComplaintHistory(), month, await firstRegisterMonth(prisma))
}

export type ComplaintMonthToPublish = NextMonthToPublish & {
  label: string
  /** The public board as it will be once the month is published from the register. */
  preview: ComplaintBoard | null
}

/** The month to publish next (the months publish in order) and the board it would make; null while up to date. */
export async function complaintMonthToPublish(
  lastEnded: MonthKey,
  history: ComplaintHistory | null = null,
): Promise<ComplaintMonthToPublish | null> {
  const next = nextMonthToPublish({
    latestPublished: await latestPublishedMonth(prisma),
    firstRegisterMonth: await firstRegisterMonth(prisma),
    lastEnded,
  })
  if (!next) return null
  let preview: ComplaintBoard | null = null
  if (next.paths.includes('register')) {
    const computed = await computeRegisterMonth(prisma, next.month)
    const { months, figures } = history ?? (await readComplaintHistory())
    preview = buildComplaintBoard(
      [...months, { month: next.month, impersonationComplaints: computed.impersonationComplaints, origin: 'REGISTER' }],
      [...figures, ...COMPLAINT_SOURCES.map((source) => ({ month: next.month, source, ...computed.figures[source] }))],
    )
  }
  return { ...next, label: monthLabel(next.month), preview }
}

/** The last ended month while it is not published: the admin layout asks for it from the 1st. */
export async function complaintMonthAwaitingPublication(
  lastEnded: MonthKey,
): Promise<{ month: MonthKey; label: string } | null> {
  const published = await prisma.complaintBoardMonth.count({ where: { month: firstDayOf(lastEnded) } })
  return published > 0 ? null : { month: lastEnded, label: monthLabel(lastEnded) }
}

/**
 * Publishes a month: from the register (its figures computed now and frozen) or, for a month before
 * the register, by hand (with no complaints yet; the admin enters them next). Months publish in
 * order; the month's primary key refuses a second publication, even a simultaneous one.
 */
export async function publishComplaintMonth(
  actorId: string,
  month: MonthKey,
  { path, lastEnded, now = new Date() }: { path: PublishPath; lastEnded: MonthKey; now?: Date },
): Promise<ComplaintBoardChange> {
  try {
    return await prisma.$transaction(async (tx): Promise<ComplaintBoardChange> => {
      const checked = await checkPublish(tx, { month, path, lastEnded })
      if (checked.refusal !== null) return { ok: false, status: 409, field: 'month', message: checked.refusal }
      let after: Prisma.InputJsonValue = { month, origin: 'HAND', impersonationComplaints: 0 }
      if (path === 'register') {
        const computed = await storeRegisterMonth(tx, month, now)
        after = { month, origin: 'REGISTER', ...snapshot(computed.impersonationComplaints, computed.figures) }
      } else {
        await tx.complaintBoardMonth.create({ data: { month: firstDayOf(month), origin: 'HAND', publishedAt: now } })
      }
      await recordAudit(
        tx,
        {
          actorId,
          action: 'complaint-board.publish',
          subjectType: 'ComplaintBoardMonth',
          subjectId: month,
          before: null,
          after,
        },
        now,
      )
      return { ok: true, changed: true }
    })
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      return {
        ok: false,
        status: 409,
        field: 'month',
        message: `${monthLabel(month)} is already published; published figures do not change.`,
      }
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
    const current = monthForAdmin(history, month, await firstRegisterMonth(tx))
    if (!current) return NOT_PUBLISHED
    if (!current.editable) {
      return {
        ok: false,
        status: 409,
        message: `${monthLabel(month)} is covered by the complaint register: its published figures do not change.`,
      }
    }

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
