import { buildComplaintBoard, type ComplaintBoard, type MonthKey } from '~/domain/complaint-board'
import { prisma } from './db.server'

/** A `@db.Date` column comes back as midnight UTC of that day. */
const monthKeyOf = (date: Date): MonthKey => date.toISOString().slice(0, 7)

/** The board as published: the latest published month, its financial year and every year before it. */
export async function getComplaintBoard(): Promise<ComplaintBoard | null> {
  const [months, figures] = await Promise.all([
    prisma.complaintBoardMonth.findMany({ select: { month: true, impersonationComplaints: true } }),
    prisma.complaintFigures.findMany({
      select: { month: true, source: true, received: true, resolved: true, pendingOverThreeMonths: true, resolutionDaysTotal: true },
    }),
  ])
  return buildComplaintBoard(
    months.map((row) => ({ ...row, month: monthKeyOf(row.month) })),
    figures.map((row) => ({ ...row, month: monthKeyOf(row.month) })),
  )
}
