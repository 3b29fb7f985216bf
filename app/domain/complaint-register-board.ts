import {
  COMPLAINT_SOURCES,
  monthLabel,
  nextMonth,
  previousMonth,
  type ComplaintSource,
  type MonthKey,
} from './complaint-board'
import type { SourceFigures } from './complaint-board-form'
import { MS_PER_DAY } from './dates'

/*
 * The complaint board from the register (docs/regulatory.md, Complaint board): one month's Annexure B figures per
 * source, worked out from the complaints themselves, and the rules for publishing months in order.
 * Dates are India calendar dates ("YYYY-MM-DD"); a month is India's calendar month.
 */

/** What the figures need of one complaint in the register. */
export type RegisterComplaint = {
  source: ComplaintSource
  /** India calendar date it was received. */
  receivedOn: string
  /** India calendar date it was resolved; null while it is not. */
  resolvedOn: string | null
  /** Someone impersonated us: counted on its own line only (SEBI's 2025 note allows leaving it out of the table). */
  impersonation: boolean
}

export type RegisterMonthFigures = {
  month: MonthKey
  figures: Record<ComplaintSource, SourceFigures>
  impersonationComplaints: number
}

const lastDayOfMonth = (month: MonthKey) => {
  const [year, number] = month.split('-').map(Number) as [number, number]
  return new Date(Date.UTC(year, number, 0)).toISOString().slice(0, 10)
}

/** The same day three months earlier, the day clamped to the shorter month: 2026-11-30 -> 2026-08-30, 2026-05-31 -> 2026-02-28. */
export function threeMonthsBefore(isoDate: string): string {
  let month = isoDate.slice(0, 7)
  for (let step = 0; step < 3; step++) month = previousMonth(month)
  const lastDay = lastDayOfMonth(month)
  const day = Math.min(Number(isoDate.slice(8)), Number(lastDay.slice(8)))
  return `${month}-${String(day).padStart(2, '0')}`
}

/** Whole days from receipt to resolution (the same day: 0). */
export const resolutionDays = (receivedOn: string, resolvedOn: string) =>
  Math.round((Date.parse(`${resolvedOn}T00:00:00Z`) - Date.parse(`${receivedOn}T00:00:00Z`)) / MS_PER_DAY)

/**
 * Table 1's stored figures for `month`, per source: received in the month, resolved in it
 * (complaints of earlier months included), the days those took in total, and of those pending on
 * its last day, the ones received more than three months before it. Impersonation complaints are
 * counted on their own line, by the month they were received.
 */
export function registerMonthFigures(complaints: readonly RegisterComplaint[], month: MonthKey): RegisterMonthFigures {
  const first = `${month}-01`
  const last = lastDayOfMonth(month)
  const overThreeMonthsBefore = threeMonthsBefore(last)
  const inMonth = (date: string | null) => date !== null && date >= first && date <= last
  const figures = Object.fromEntries(
    COMPLAINT_SOURCES.map((source) => {
      const rows = complaints.filter((complaint) => complaint.source === source && !complaint.impersonation)
      const resolvedInMonth = rows.filter((complaint) => inMonth(complaint.resolvedOn))
      const pendingAtEnd = rows.filter(
        (complaint) => complaint.receivedOn <= last && (complaint.resolvedOn === null || complaint.resolvedOn > last),
      )
      const counts: SourceFigures = {
        received: rows.filter((complaint) => inMonth(complaint.receivedOn)).length,
        resolved: resolvedInMonth.length,
        pendingOverThreeMonths: pendingAtEnd.filter((complaint) => complaint.receivedOn < overThreeMonthsBefore).length,
        resolutionDaysTotal: resolvedInMonth.reduce(
          (total, complaint) => total + resolutionDays(complaint.receivedOn, complaint.resolvedOn!),
          0,
        ),
      }
      return [source, counts]
    }),
  ) as Record<ComplaintSource, SourceFigures>
  return {
    month,
    figures,
    impersonationComplaints: complaints.filter((complaint) => complaint.impersonation && inMonth(complaint.receivedOn))
      .length,
  }
}

export type PublishPath = 'register' | 'hand'

export type NextMonthToPublish = {
  month: MonthKey
  /** How it may be published: from the register, by hand (a month before the register), or either while the register holds nothing yet. */
  paths: PublishPath[]
}

/**
 * The one month that may be published next, or null while the board is up to date. Months publish
 * in order: the one after the latest published; with none yet, the register's first month, else the
 * last ended month. The register covers its first month (its earliest complaint or its first
 * published month) and every month after it; before it, figures are entered by hand.
 */
export function nextMonthToPublish({
  latestPublished,
  firstRegisterMonth,
  lastEnded,
}: {
  latestPublished: MonthKey | null
  firstRegisterMonth: MonthKey | null
  lastEnded: MonthKey
}): NextMonthToPublish | null {
  const month = latestPublished ? nextMonth(latestPublished) : (firstRegisterMonth ?? lastEnded)
  if (month > lastEnded) return null
  if (firstRegisterMonth === null) return { month, paths: ['register', 'hand'] }
  return { month, paths: month >= firstRegisterMonth ? ['register'] : ['hand'] }
}

export const registerCovers = (month: MonthKey, firstRegisterMonth: MonthKey | null) =>
  firstRegisterMonth !== null && month >= firstRegisterMonth

/** Why `month` cannot be published now; null when it can. */
export function publishRefusal({
  month,
  path,
  latestPublished,
  firstRegisterMonth,
  lastEnded,
  alreadyPublished,
}: {
  month: MonthKey
  path: PublishPath
  latestPublished: MonthKey | null
  firstRegisterMonth: MonthKey | null
  lastEnded: MonthKey
  alreadyPublished: boolean
}): string | null {
  if (alreadyPublished) return `${monthLabel(month)} is already published; published figures do not change.`
  if (month > lastEnded)
    return `${monthLabel(month)} has not ended yet: publish it from 1 ${monthLabel(nextMonth(month))}.`
  if (latestPublished !== null && month < latestPublished) {
    return `${monthLabel(month)} is before ${monthLabel(latestPublished)}, the latest published month: months are published in order.`
  }
  if (latestPublished !== null && month !== nextMonth(latestPublished)) {
    return `Publish ${monthLabel(nextMonth(latestPublished))} first: months are published in order and none may be skipped.`
  }
  if (path === 'hand' && registerCovers(month, firstRegisterMonth)) {
    return `${monthLabel(month)} is covered by the complaint register: its figures are computed from it, not entered by hand.`
  }
  return null
}
