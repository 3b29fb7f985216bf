import { beforeEach, describe, expect, it } from 'vitest'
import { loader } from '~/routes/complaint-board'
import { prisma } from '~/server/db.server'
import { seedDemoData } from '../../prisma/seed'

const firstDay = (month: string) => new Date(`${month}-01T00:00:00Z`)

beforeEach(async () => {
  await prisma.complaintBoardMonth.deleteMany()
  await prisma.complaint.deleteMany()
})

describe('/complaint-board loader', () => {
  it('has no board before any month is published', async () => {
    expect((await loader()).board).toBeNull()
  })

  it('shows a published month without stored figures as zeros', async () => {
    await prisma.complaintBoardMonth.create({ data: { month: firstDay('2025-06') } })
    const { board } = await loader()
    expect(board!.monthEnding).toBe('June 2025')
    expect(
      board!.monthTable.rows.map((row) => [row.receivedFrom, row.received, row.resolved, row.totalPending]),
    ).toEqual([
      ['Directly from Investors', 0, 0, 0],
      ['SEBI (SCORES)', 0, 0, 0],
      ['Other Sources (if any)', 0, 0, 0],
    ])
    expect(board!.monthlyTrend.rows.map((row) => row.period)).toEqual(['April 2025', 'May 2025', 'June 2025'])
    expect(board!.annualTrend.total).toEqual({ carriedForward: 0, received: 0, resolved: 0, pending: 0 })
  })

  it('totals the stored figures of the latest published month and carries the earlier ones forward', async () => {
    for (const month of ['2025-05', '2025-06'])
      await prisma.complaintBoardMonth.create({ data: { month: firstDay(month) } })
    await prisma.complaintBoardMonth.create({ data: { month: firstDay('2025-07'), impersonationComplaints: 1 } })
    await prisma.complaintFigures.createMany({
      data: [
        { month: firstDay('2025-05'), source: 'SEBI_SCORES', received: 2 },
        {
          month: firstDay('2025-06'),
          source: 'DIRECTLY_FROM_INVESTORS',
          received: 3,
          resolved: 1,
          resolutionDaysTotal: 6,
        },
        {
          month: firstDay('2025-07'),
          source: 'DIRECTLY_FROM_INVESTORS',
          received: 1,
          resolved: 2,
          resolutionDaysTotal: 8,
        },
        {
          month: firstDay('2025-07'),
          source: 'SEBI_SCORES',
          resolved: 2,
          resolutionDaysTotal: 40,
          pendingOverThreeMonths: 0,
        },
      ],
    })
    const { board } = await loader()
    expect(board!.monthEnding).toBe('July 2025')
    expect(board!.impersonationComplaints).toBe(1)
    expect(board!.monthTable.total).toEqual({
      pendingAtEndOfLastMonth: 4,
      received: 1,
      resolved: 4,
      totalPending: 1,
      pendingOverThreeMonths: 0,
      averageResolutionDays: 12,
    })
    expect(board!.monthlyTrend.total).toEqual({ carriedForward: 0, received: 6, resolved: 5, pending: 1 })
  })

  it('shows the demo board: hand-entered zeros to November 2024, then the register up to the month before today', async () => {
    // 25 November 2026 (India): the demo reports October 2026, published on time.
    await seedDemoData(prisma, new Date('2026-11-25T06:00:00Z'))
    const { board } = await loader()
    expect(board!.lastDayOfMonth).toBe('31 October 2026')
    expect(board!.publication).toEqual({ enteredByHand: false, publishedOn: '5 November 2026', late: false })
    expect(
      board!.monthTable.rows.map((row) => [row.receivedFrom, row.received, row.resolved, row.totalPending]),
    ).toEqual([
      ['Directly from Investors', 2, 1, 1],
      ['SEBI (SCORES)', 0, 0, 0],
      ['Other Sources (if any)', 1, 0, 1],
    ])
    expect(board!.monthTable.total.averageResolutionDays).toBe(4)
    expect(board!.impersonationComplaints).toBe(1)
    expect(board!.monthlyTrend.financialYear).toBe('2026-27')
    expect(board!.monthlyTrend.rows).toHaveLength(7)
    expect(board!.annualTrend.rows.map((row) => [row.period, row.received, row.resolved, row.pending])).toEqual([
      ['2024-25', 0, 0, 0],
      ['2025-26', 0, 0, 0],
      ['2026-27', 6, 4, 2],
    ])
    const months = await prisma.complaintBoardMonth.findMany({ orderBy: { month: 'asc' }, select: { origin: true } })
    expect(months.map((month) => month.origin)).toEqual([...Array(8).fill('HAND'), ...Array(23).fill('REGISTER')])
  })

  it('seeds the demo relative to the clock: a month later, the next month', async () => {
    await seedDemoData(prisma, new Date('2027-01-03T06:00:00Z'))
    const { board } = await loader()
    expect(board!.monthEnding).toBe('December 2026')
    expect(board!.publication.publishedOn).toBe('3 January 2027')
  })
})

describe('database constraints', () => {
  it('refuses a month that is not its first day, negative counts and figures of an unpublished month', async () => {
    await expect(
      prisma.complaintBoardMonth.create({ data: { month: new Date('2025-06-15T00:00:00Z') } }),
    ).rejects.toThrow()
    await prisma.complaintBoardMonth.create({ data: { month: firstDay('2025-06') } })
    await expect(
      prisma.complaintFigures.create({ data: { month: firstDay('2025-06'), source: 'OTHER_SOURCES', received: -1 } }),
    ).rejects.toThrow()
    await expect(
      prisma.complaintFigures.create({ data: { month: firstDay('2025-07'), source: 'OTHER_SOURCES' } }),
    ).rejects.toThrow()
  })
})
