import {
  buildComplaintBoard,
  type ComplaintBoard,
  type ComplaintFigures,
  type MonthKey,
  type PublishedComplaintMonth,
} from '~/domain/complaint-board'
import { indiaIsoDate } from '~/domain/dates'
import type { Prisma } from '~/generated/prisma/client'
import { prisma } from '../db.server'

/** A `@db.Date` column comes back as midnight UTC of that day. */
export const monthKeyOf = (date: Date): MonthKey => date.toISOString().slice(0, 7)

/** The `@db.Date` value of a month's first day. */
export const firstDayOf = (month: MonthKey): Date => new Date(`${month}-01T00:00:00Z`)

export type ComplaintHistory = { months: PublishedComplaintMonth[]; figures: ComplaintFigures[] }

/** Every published month and every stored figure, as the domain rules take them. */
export async function readComplaintHistory(client: Prisma.TransactionClient = prisma): Promise<ComplaintHistory> {
  // One after the other: inside a transaction both run on its one connection anyway.
  const months = await client.complaintBoardMonth.findMany({
    select: { month: true, impersonationComplaints: true, origin: true, publishedAt: true },
  })
  const figures = await client.complaintFigures.findMany({
    select: {
      month: true,
      source: true,
      received: true,
      resolved: true,
      pendingOverThreeMonths: true,
      resolutionDaysTotal: true,
    },
  })
  return {
    months: months.map(({ publishedAt, ...row }) => ({
      ...row,
      month: monthKeyOf(row.month),
      publishedOn: indiaIsoDate(publishedAt),
    })),
    figures: figures.map((row) => ({ ...row, month: monthKeyOf(row.month) })),
  }
}

/** The board as published: the latest published month, its financial year and every year before it. */
export async function getComplaintBoard(): Promise<ComplaintBoard | null> {
  const { months, figures } = await readComplaintHistory()
  return buildComplaintBoard(months, figures)
}
