import { beforeEach, describe, expect, it } from 'vitest'
import { loader } from '~/routes/complaint-board'
import { prisma } from '~/server/db.server'
import { seedDemoData } from '../../prisma/seed'

const firstDay = (month: string) => new Date(`${month}-01T00:00:00Z`)

beforeEach(async () => {
  await prisma.complaintBoardMonth.deleteMany()
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

  it('shows the demo board: every figure zero for the month ending November 2024 and financial year 2024-25', async () => {
    await seedDemoData(prisma)
    const { board } = await loader()
    expect(board!.lastDayOfMonth).toBe('30 November 2024')
    expect(board!.monthlyTrend.financialYear).toBe('2024-25')
    expect(board!.monthlyTrend.rows).toHaveLength(8)
    expect(board!.annualTrend.rows.map((row) => row.period)).toEqual(['2024-25'])
    const counts: number[] = []
    JSON.stringify(board, (key, value) =>
      typeof value === 'number' && key !== 'serial' ? (counts.push(value), value) : value,
    )
    expect(counts.length).toBeGreaterThan(50)
    expect(counts.filter((count) => count !== 0)).toEqual([])
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
