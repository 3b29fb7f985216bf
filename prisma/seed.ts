import { COMPLAINT_SOURCES, nextMonth, previousMonth, type MonthKey } from '../app/domain/complaint-board'
import { lastEndedMonth } from '../app/domain/complaint-board-form'
import { complaintDueOn, complaintReference } from '../app/domain/complaints'
import { indiaIsoDate, indiaMidnight, MS_PER_DAY } from '../app/domain/dates'
import { storeRegisterMonth } from '../app/server/complaints/board-from-register.server'
import type { ComplaintSource, PrismaClient } from '~/generated/prisma/client'
import { loggerFor } from '../app/server/operations/logger.server'

const log = loggerFor('seed')

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
    delivery: 'Two to four stock ideas a week, as each is published',
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
    delivery: 'A pre-market note every trading day, and option strategies before each weekly expiry',
  },
  {
    name: 'Swing Trading Ideas',
    description: ['Positional ideas held for one to four weeks', 'Weekly review of open ideas'],
    pricePaise: rupees(1_499),
    durationDays: 30,
    riskLevel: 'HIGH',
    delivery: 'New positional ideas as they arise and a review every week',
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
    delivery: 'The model portfolio reviewed every quarter, and company reports as they are published',
  },
  {
    name: 'Commodity Insights',
    description: ['Gold, silver and crude oil outlook twice a week', 'Levels to watch for MCX contracts'],
    pricePaise: rupees(1_999),
    durationDays: 30,
    riskLevel: 'VERY_HIGH',
    delivery: 'An outlook twice a week',
  },
] as const

/** Seeds the demo catalogue and complaint board on the first start only: each when its table is empty. */
export async function seedDemoData(prisma: PrismaClient, now = new Date()): Promise<void> {
  await seedDemoServices(prisma)
  await seedDemoComplaintBoard(prisma, now)
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
  log.info(`Seeded ${DEMO_SERVICES.length} demo services`)
}

/** The original store's board, entered by hand: no complaints at all, April to November 2024. */
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

/** The demo register's first month: every month from it to the last ended one is published from the register. */
export const DEMO_FIRST_REGISTER_MONTH: MonthKey = '2024-12'

/**
 * The demo register's complaints, dated by the last ended month (the one the board reports), so its
 * table reads the same whenever the demo starts: [source, months before the last ended one, day
 * received, days to resolve (null: pending), impersonation].
 */
const DEMO_COMPLAINTS: [ComplaintSource, number, number, number | null, boolean][] = [
  ['DIRECTLY_FROM_INVESTORS', 4, 24, 6, false],
  ['DIRECTLY_FROM_INVESTORS', 2, 10, 12, false],
  ['SEBI_SCORES', 1, 17, 9, false],
  ['DIRECTLY_FROM_INVESTORS', 0, 12, 4, false],
  ['DIRECTLY_FROM_INVESTORS', 0, 20, null, true],
  ['DIRECTLY_FROM_INVESTORS', 0, 22, null, false],
  ['OTHER_SOURCES', 0, 24, null, false],
]

/** Published on the 5th of the next month (on time), or now if that is still to come. */
const demoPublishedAt = (month: MonthKey, now: Date) => {
  const fifth = new Date(indiaMidnight(`${nextMonth(month)}-05`).getTime() + 10 * 60 * 60_000)
  return fifth < now ? fifth : now
}

async function seedDemoComplaintBoard(prisma: PrismaClient, now = new Date()): Promise<void> {
  if ((await prisma.complaintBoardMonth.count()) > 0) return
  const firstDay = (month: string) => new Date(`${month}-01T00:00:00Z`)
  const lastEnded = lastEndedMonth(now)
  await prisma.$transaction(
    async (tx) => {
      await tx.complaintBoardMonth.createMany({
        data: DEMO_COMPLAINT_BOARD_MONTHS.map((month) => ({
          month: firstDay(month),
          origin: 'HAND' as const,
          publishedAt: demoPublishedAt(month, now),
        })),
      })
      await tx.complaintFigures.createMany({
        data: DEMO_COMPLAINT_BOARD_MONTHS.flatMap((month) =>
          COMPLAINT_SOURCES.map((source) => ({ month: firstDay(month), source })),
        ),
      })
      if ((await tx.complaint.count()) === 0) {
        for (const [index, [source, monthsBefore, day, daysToResolve, impersonation]] of DEMO_COMPLAINTS.entries()) {
          let month = lastEnded
          for (let step = 0; step < monthsBefore; step++) month = previousMonth(month)
          // 11:30 in India.
          const receivedAt = new Date(
            indiaMidnight(`${month}-${String(day).padStart(2, '0')}`).getTime() + 6 * 60 * 60_000,
          )
          const resolvedAt = daysToResolve === null ? null : new Date(receivedAt.getTime() + daysToResolve * MS_PER_DAY)
          await tx.complaint.create({
            data: {
              reference: complaintReference(receivedAt.getUTCFullYear(), 900_000 + index),
              source,
              sourceReference: source === 'DIRECTLY_FROM_INVESTORS' ? null : `DEMO-${index + 1}`,
              category: 'SERVICE_DEFICIENCY',
              text: 'A demo complaint: the research report for the week did not arrive.',
              impersonation,
              complainantName: 'Demo Complainant',
              status: resolvedAt ? 'RESOLVED' : 'RECEIVED',
              receivedAt,
              resolvedAt,
              dueOn: new Date(`${complaintDueOn('SERVICE_DEFICIENCY', indiaIsoDate(receivedAt), [])}T00:00:00Z`),
            },
          })
        }
      }
      for (let month = DEMO_FIRST_REGISTER_MONTH; month <= lastEnded; month = nextMonth(month)) {
        await storeRegisterMonth(tx, month, demoPublishedAt(month, now))
      }
    },
    { timeout: 60_000 },
  )
  log.info(
    `Seeded the demo complaint board (hand-entered months to ${DEMO_COMPLAINT_BOARD_MONTHS.at(-1)}, from the register to ${lastEnded})`,
  )
}
