import { beforeEach, describe, expect, it } from 'vitest'
import type { ComplaintSource } from '~/domain/complaint-board'
import { indiaMidnight } from '~/domain/dates'
import { loader as publicBoardLoader } from '~/routes/complaint-board'
import {
  complaintMonthAwaitingPublication,
  complaintMonthToPublish,
  publishComplaintMonth,
  saveComplaintMonth,
} from '~/server/complaints/board-publishing.server'
import { prisma } from '~/server/db.server'
import { signedInUser } from '../support/sessions'

// The board computed from the complaint register (docs/regulatory.md, Complaint board), with the clock injected.

let sequence = 0
async function registerComplaint(
  source: ComplaintSource,
  receivedOn: string,
  resolvedOn: string | null = null,
  impersonation = false,
) {
  sequence += 1
  await prisma.complaint.create({
    data: {
      reference: `CMP-2025-${String(sequence).padStart(6, '0')}`,
      source,
      category: 'OTHER',
      text: 'A complaint.',
      impersonation,
      status: resolvedOn ? 'RESOLVED' : 'RECEIVED',
      // At 23:00 India time (17:30 UTC): the month is India's.
      receivedAt: new Date(indiaMidnight(receivedOn).getTime() + 23 * 60 * 60_000),
      resolvedAt: resolvedOn ? new Date(indiaMidnight(resolvedOn).getTime() + 60 * 60_000) : null,
      dueOn: new Date(`${receivedOn}T00:00:00Z`),
    },
  })
}

/** 10:00 IST on an India date. */
const at = (isoDate: string) => new Date(indiaMidnight(isoDate).getTime() + 10 * 60 * 60_000)

const nextMonthOf = (month: string) => {
  const [year, number] = month.split('-').map(Number) as [number, number]
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`
}

/** Publishes `month` from the register on the 5th of the next month (on time) unless told when. */
async function publish(actorId: string, month: string, publishedOn = `${nextMonthOf(month)}-05`, path = 'register') {
  return publishComplaintMonth(actorId, month, {
    path: path as 'register' | 'hand',
    lastEnded: month,
    now: at(publishedOn),
  })
}

beforeEach(async () => {
  await prisma.complaintBoardMonth.deleteMany()
  await prisma.complaint.deleteMany()
})

describe('the board from a register spanning a financial year', () => {
  it("computes SEBI's three tables month by month, and a published month is frozen", async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    await registerComplaint('DIRECTLY_FROM_INVESTORS', '2025-03-10', '2025-04-02') // 23 days, across the year end
    await registerComplaint('SEBI_SCORES', '2025-06-15', '2025-06-25') // 10 days
    await registerComplaint('DIRECTLY_FROM_INVESTORS', '2025-11-20') // still pending: over 3 months by April
    await registerComplaint('OTHER_SOURCES', '2026-03-28', '2026-04-03') // 6 days, across the year end
    await registerComplaint('DIRECTLY_FROM_INVESTORS', '2026-04-10', '2026-04-11', true) // impersonation: own line

    const toPublish = await complaintMonthToPublish('2026-04')
    expect(toPublish).toMatchObject({ month: '2025-03', paths: ['register'], label: 'March 2025' })
    expect(toPublish!.preview!.monthTable.total).toMatchObject({ received: 1, totalPending: 1 })

    for (let month = '2025-03'; month <= '2026-04'; month = nextMonthOf(month)) {
      expect(await publish(admin.userId, month), month).toEqual({ ok: true, changed: true })
    }

    const { board } = await publicBoardLoader()
    expect(board!.reportedMonth).toBe('2026-04')
    expect(board!.publication).toEqual({ enteredByHand: false, publishedOn: '5 May 2026', late: false })
    expect(
      board!.monthTable.rows.map((row) => [
        row.receivedFrom,
        row.pendingAtEndOfLastMonth,
        row.received,
        row.resolved,
        row.totalPending,
        row.pendingOverThreeMonths,
        row.averageResolutionDays,
      ]),
    ).toEqual([
      ['Directly from Investors', 1, 0, 0, 1, 1, 0],
      ['SEBI (SCORES)', 0, 0, 0, 0, 0, 0],
      ['Other Sources (if any)', 1, 0, 1, 0, 0, 6],
    ])
    expect(board!.monthTable.total).toEqual({
      pendingAtEndOfLastMonth: 2,
      received: 0,
      resolved: 1,
      totalPending: 1,
      pendingOverThreeMonths: 1,
      averageResolutionDays: 6,
    })
    expect(board!.impersonationComplaints).toBe(1)
    expect(board!.monthlyTrend.financialYear).toBe('2026-27')
    expect(
      board!.monthlyTrend.rows.map(({ period, carriedForward, received, resolved, pending }) => [
        period,
        carriedForward,
        received,
        resolved,
        pending,
      ]),
    ).toEqual([['April 2026', 2, 0, 1, 1]])
    expect(
      board!.annualTrend.rows.map(({ period, carriedForward, received, resolved, pending }) => [
        period,
        carriedForward,
        received,
        resolved,
        pending,
      ]),
    ).toEqual([
      ['2024-25', 0, 1, 0, 1],
      ['2025-26', 1, 3, 2, 2],
      ['2026-27', 2, 0, 1, 1],
    ])
    expect(board!.annualTrend.total).toEqual({ carriedForward: 0, received: 4, resolved: 3, pending: 1 })

    // Later changes to the register do not alter a published month.
    await registerComplaint('SEBI_SCORES', '2026-04-20')
    await prisma.complaint.updateMany({
      where: { resolvedAt: null },
      data: { status: 'RESOLVED', resolvedAt: at('2026-04-29') },
    })
    expect((await publicBoardLoader()).board).toEqual(board)
    // ... and cannot be edited by hand.
    expect(
      await saveComplaintMonth(admin.userId, '2026-04', {
        impersonationComplaints: 0,
        figures: {
          DIRECTLY_FROM_INVESTORS: { received: 0, resolved: 0, pendingOverThreeMonths: 0, resolutionDaysTotal: 0 },
          SEBI_SCORES: { received: 1, resolved: 0, pendingOverThreeMonths: 0, resolutionDaysTotal: 0 },
          OTHER_SOURCES: { received: 0, resolved: 0, pendingOverThreeMonths: 0, resolutionDaysTotal: 0 },
        },
      }),
    ).toEqual({
      ok: false,
      status: 409,
      message: 'April 2026 is covered by the complaint register: its published figures do not change.',
    })
    expect(await prisma.auditLog.count({ where: { actorId: admin.userId, action: 'complaint-board.publish' } })).toBe(
      14,
    )
  })
})

describe('publishing a month from the register', () => {
  it('refuses to publish a month twice, even two publications at once', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    await registerComplaint('SEBI_SCORES', '2026-10-02')
    const results = await Promise.all([publish(admin.userId, '2026-10'), publish(admin.userId, '2026-10')])
    expect(results).toContainEqual({ ok: true, changed: true })
    expect(results).toContainEqual({
      ok: false,
      status: 409,
      field: 'month',
      message: 'October 2026 is already published; published figures do not change.',
    })
    expect(await prisma.complaintBoardMonth.count()).toBe(1)
    expect(await prisma.complaintFigures.count()).toBe(3)
  })

  it('refuses to skip a month, with a message naming the one to publish first', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    await registerComplaint('SEBI_SCORES', '2026-08-02')
    expect(await publish(admin.userId, '2026-08')).toEqual({ ok: true, changed: true })
    expect(
      await publishComplaintMonth(admin.userId, '2026-10', {
        path: 'register',
        lastEnded: '2026-10',
        now: at('2026-11-02'),
      }),
    ).toEqual({
      ok: false,
      status: 409,
      field: 'month',
      message: 'Publish September 2026 first: months are published in order and none may be skipped.',
    })
    expect(await prisma.complaintBoardMonth.count()).toBe(1)
    expect(await complaintMonthToPublish('2026-10')).toMatchObject({ month: '2026-09', paths: ['register'] })
  })

  it('publishes a month with no complaints as zeros', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    expect(await publish(admin.userId, '2026-10')).toEqual({ ok: true, changed: true })
    const { board } = await publicBoardLoader()
    expect(board!.monthEnding).toBe('October 2026')
    expect(board!.monthTable.total).toEqual({
      pendingAtEndOfLastMonth: 0,
      received: 0,
      resolved: 0,
      totalPending: 0,
      pendingOverThreeMonths: 0,
      averageResolutionDays: 0,
    })
    expect(await prisma.complaintFigures.count({ where: { received: 0, resolved: 0 } })).toBe(3)
  })

  it('marks a month published after the 7th of the next month as late', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    expect(await publish(admin.userId, '2026-09', '2026-10-07')).toEqual({ ok: true, changed: true })
    expect((await publicBoardLoader()).board!.publication).toEqual({
      enteredByHand: false,
      publishedOn: '7 October 2026',
      late: false,
    })
    expect(await publish(admin.userId, '2026-10', '2026-11-08')).toEqual({ ok: true, changed: true })
    expect((await publicBoardLoader()).board!.publication).toEqual({
      enteredByHand: false,
      publishedOn: '8 November 2026',
      late: true,
    })
  })

  it('asks the admin for the last ended month until it is published', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    expect(await complaintMonthAwaitingPublication('2026-10')).toEqual({ month: '2026-10', label: 'October 2026' })
    await publish(admin.userId, '2026-10')
    expect(await complaintMonthAwaitingPublication('2026-10')).toBeNull()
  })
})

describe('hand-entered months', () => {
  it('are possible before the register and refused for the months it covers', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    await prisma.complaintBoardMonth.create({ data: { month: new Date('2024-10-01T00:00:00Z'), origin: 'HAND' } })
    await registerComplaint('DIRECTLY_FROM_INVESTORS', '2024-12-03')
    expect(await complaintMonthToPublish('2026-10')).toMatchObject({ month: '2024-11', paths: ['hand'] })
    expect(await publish(admin.userId, '2024-11', '2024-12-20', 'hand')).toEqual({ ok: true, changed: true })
    expect((await publicBoardLoader()).board!.publication).toEqual({
      enteredByHand: true,
      publishedOn: '20 December 2024',
      late: true,
    })
    expect(await publish(admin.userId, '2024-12', '2025-01-05', 'hand')).toEqual({
      ok: false,
      status: 409,
      field: 'month',
      message:
        'December 2024 is covered by the complaint register: its figures are computed from it, not entered by hand.',
    })
    expect(await publish(admin.userId, '2024-12')).toEqual({ ok: true, changed: true })
  })
})
