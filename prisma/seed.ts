import { COMPLAINT_SOURCES } from '../app/domain/complaint-board'
import type { PrismaClient } from '~/generated/prisma/client'

const rupees = (amount: number) => amount * 100

export const DEMO_SERVICES = [
  {
    name: 'Equity Premium',
    description: [
      'Two to four large-cap and mid-cap stock ideas a week with entry, target and stop-loss',
      'Research rationale published with every recommendation',
    ],
    pricePaise: rupees(2_999),
    durationDays: 30,
    riskLevel: 'HIGH',
    delivery: 'Two to four stock ideas a week on this website and by e-mail, as each is published',
  },
  {
    name: 'Equity Premium+',
    description: [
      'Everything in Equity Premium',
      'Index and stock option strategies for the weekly expiry',
      'Pre-market notes on trading days',
    ],
    pricePaise: rupees(7_999),
    durationDays: 90,
    riskLevel: 'VERY_HIGH',
    delivery:
      'A pre-market note every trading day, and option strategies before each weekly expiry, on this website and by e-mail',
  },
  {
    name: 'Swing Trading Ideas',
    description: ['Positional ideas held for one to four weeks', 'Weekly review of open ideas'],
    pricePaise: rupees(1_499),
    durationDays: 30,
    riskLevel: 'HIGH',
    delivery: 'New positional ideas as they arise and a review every week, on this website and by e-mail',
  },
  {
    name: 'Long-Term Portfolio Research',
    description: [
      'A model portfolio of 15 to 20 companies reviewed every quarter',
      'Company research reports with valuation and key risks',
    ],
    pricePaise: rupees(9_999),
    durationDays: 365,
    riskLevel: 'MODERATE',
    delivery: 'The model portfolio reviewed every quarter, and company reports as they are published, on this website',
  },
  {
    name: 'Commodity Insights',
    description: ['Gold, silver and crude oil outlook twice a week', 'Levels to watch for MCX contracts'],
    pricePaise: rupees(1_999),
    durationDays: 30,
    riskLevel: 'VERY_HIGH',
    delivery: 'An outlook twice a week, on this website and by e-mail',
  },
] as const

/** Seeds the demo catalogue and complaint board on the first start only: each when its table is empty. */
export async function seedDemoData(prisma: PrismaClient): Promise<void> {
  await seedDemoServices(prisma)
  await seedDemoComplaintBoard(prisma)
}

async function seedDemoServices(prisma: PrismaClient): Promise<void> {
  if ((await prisma.service.count()) > 0) return
  await prisma.service.createMany({
    data: DEMO_SERVICES.map((service, index) => ({
      ...service,
      description: [...service.description],
      sortOrder: index,
    })),
    skipDuplicates: true,
  })
  console.log(`Seeded ${DEMO_SERVICES.length} demo services`)
}

/** The original store's board: no complaints at all, April to November 2024 (the month ending November 2024). */
export const DEMO_COMPLAINT_BOARD_MONTHS = [
  '2024-04',
  '2024-05',
  '2024-06',
  '2024-07',
  '2024-08',
  '2024-09',
  '2024-10',
  '2024-11',
] as const

async function seedDemoComplaintBoard(prisma: PrismaClient): Promise<void> {
  if ((await prisma.complaintBoardMonth.count()) > 0) return
  const firstDay = (month: string) => new Date(`${month}-01T00:00:00Z`)
  await prisma.$transaction([
    prisma.complaintBoardMonth.createMany({
      data: DEMO_COMPLAINT_BOARD_MONTHS.map((month) => ({ month: firstDay(month) })),
    }),
    prisma.complaintFigures.createMany({
      data: DEMO_COMPLAINT_BOARD_MONTHS.flatMap((month) =>
        COMPLAINT_SOURCES.map((source) => ({ month: firstDay(month), source })),
      ),
    }),
  ])
  console.log(`Seeded the demo complaint board (${DEMO_COMPLAINT_BOARD_MONTHS.length} months, no complaints)`)
}
