import { beforeEach, describe, expect, it } from 'vitest'
import * as monthRoute from '~/routes/admin/complaint-board-month'
import * as listRoute from '~/routes/admin/complaint-board'
import { loader as publicBoardLoader } from '~/routes/complaint-board'
import { saveComplaintMonth } from '~/server/complaints/board-publishing.server'
import { prisma } from '~/server/db.server'
import { formRequest, getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

type Handler = (args: { request: Request; params: object; context: object }) => Promise<unknown>
type Reply = {
  init: { status: number }
  data: { result: { initialValue: Record<string, unknown>; error: Record<string, string[] | null> } }
}

const firstDay = (month: string) => new Date(`${month}-01T00:00:00Z`)

const call = (handler: unknown, request: Request, params: Record<string, string> = {}) =>
  (handler as Handler)(routeArgs(request, params))

/** The month form's fields, every figure 0 unless given ("SEBI_SCORES.received": "2"). */
function monthFields(figures: Record<string, string> = {}, impersonationComplaints = '0') {
  const fields: Record<string, string> = { impersonationComplaints }
  for (const source of ['DIRECTLY_FROM_INVESTORS', 'SEBI_SCORES', 'OTHER_SOURCES']) {
    for (const name of ['received', 'resolved', 'pendingOverThreeMonths', 'resolutionDaysTotal']) {
      fields[`figures.${source}.${name}`] = figures[`${source}.${name}`] ?? '0'
    }
  }
  return fields
}

const saveMonth = (month: string, fields: Record<string, string>, cookie: string) =>
  call(monthRoute.action, formRequest(`/admin/complaint-board/${month}`, fields, cookie), { month })

beforeEach(async () => {
  await prisma.complaintBoardMonth.deleteMany()
  // October carries two complaints from investors into November.
  await prisma.complaintBoardMonth.createMany({
    data: [{ month: firstDay('2024-10') }, { month: firstDay('2024-11') }],
  })
  await prisma.complaintFigures.create({
    data: { month: firstDay('2024-10'), source: 'DIRECTLY_FROM_INVESTORS', received: 2 },
  })
})

describe('the complaint board admin pages', () => {
  it('answer 404 to a visitor and to a customer, for every loader and action, and change nothing', async () => {
    const { cookie } = await signedInUser({ role: 'CUSTOMER' })
    const auditEntriesBefore = await prisma.auditLog.count()
    for (const sessionCookie of [undefined, cookie]) {
      const calls: [unknown, Request, Record<string, string>][] = [
        [listRoute.loader, getRequest('/admin/complaint-board', sessionCookie), {}],
        [listRoute.action, formRequest('/admin/complaint-board', { month: '2024-12' }, sessionCookie), {}],
        [monthRoute.loader, getRequest('/admin/complaint-board/2024-11', sessionCookie), { month: '2024-11' }],
        [
          monthRoute.action,
          formRequest('/admin/complaint-board/2024-11', monthFields({ 'SEBI_SCORES.received': '1' }), sessionCookie),
          { month: '2024-11' },
        ],
      ]
      for (const [handler, request, params] of calls) {
        await expect(call(handler, request, params)).rejects.toMatchObject({ data: 'Not Found', init: { status: 404 } })
      }
    }
    expect(await prisma.complaintBoardMonth.count()).toBe(2)
    expect(await prisma.complaintFigures.count({ where: { month: firstDay('2024-11') } })).toBe(0)
    expect(await prisma.auditLog.count()).toBe(auditEntriesBefore)
  })

  it('list the months newest first with their totals, and answer 404 for a month not on the board', async () => {
    const { cookie } = await signedInUser({ role: 'ADMIN' })
    const page = (await call(listRoute.loader, getRequest('/admin/complaint-board', cookie))) as {
      months: { month: string; pendingAtEnd: number; publication: { enteredByHand: boolean } }[]
      toPublish: { month: string; paths: string[] }
    }
    expect(page.months.map((month) => [month.month, month.pendingAtEnd])).toEqual([
      ['2024-11', 2],
      ['2024-10', 2],
    ])
    expect(page.months.every((month) => month.publication.enteredByHand)).toBe(true)
    // Nothing in the register yet: the next month may be published from it (zeros) or by hand.
    expect(page.toPublish).toMatchObject({ month: '2024-12', paths: ['register', 'hand'] })
    for (const month of ['2024-12', 'nonsense']) {
      await expect(
        call(monthRoute.loader, getRequest(`/admin/complaint-board/${month}`, cookie), { month }),
      ).rejects.toMatchObject({ init: { status: 404 } })
      await expect(saveMonth(month, monthFields(), cookie)).rejects.toMatchObject({ init: { status: 404 } })
    }
  })

  it('show what each source started the month with', async () => {
    const { cookie } = await signedInUser({ role: 'ADMIN' })
    const page = (await call(monthRoute.loader, getRequest('/admin/complaint-board/2024-11', cookie), {
      month: '2024-11',
    })) as {
      month: { pendingAtStart: Record<string, number>; figures: Record<string, { received: number }> }
    }
    expect(page.month.pendingAtStart).toEqual({ DIRECTLY_FROM_INVESTORS: 2, SEBI_SCORES: 0, OTHER_SOURCES: 0 })
    expect(page.month.figures.SEBI_SCORES).toEqual({
      received: 0,
      resolved: 0,
      pendingOverThreeMonths: 0,
      resolutionDaysTotal: 0,
    })
  })
})

describe('saving a month', () => {
  it('refuses impossible figures with a message per field, keeping what was typed, and saves nothing', async () => {
    const { userId, cookie } = await signedInUser({ role: 'ADMIN' })
    const reply = (await saveMonth(
      '2024-11',
      monthFields(
        {
          'DIRECTLY_FROM_INVESTORS.received': '1',
          'DIRECTLY_FROM_INVESTORS.resolved': '4', // only 2 + 1 to resolve
          'SEBI_SCORES.received': '-1',
          'SEBI_SCORES.resolved': '1.5',
          'OTHER_SOURCES.received': '',
          'OTHER_SOURCES.resolved': '10001',
        },
        'many',
      ),
      cookie,
    )) as Reply
    expect(reply.init.status).toBe(400)
    expect(reply.data.result.error).toMatchObject({
      'figures.DIRECTLY_FROM_INVESTORS.resolved': [
        'Cannot be more than 3, the 2 pending at the start of the month plus the 1 received.',
      ],
      'figures.SEBI_SCORES.received': ['Enter 0 or more.'],
      'figures.SEBI_SCORES.resolved': ['Enter a whole number.'],
      'figures.OTHER_SOURCES.received': ['Enter the number of complaints received; 0 if none.'],
      'figures.OTHER_SOURCES.resolved': ['At most 10,000; check for a typing mistake.'],
      impersonationComplaints: ['Enter the number of complaints about impersonation; 0 if none.'],
    })
    expect(reply.data.result.initialValue).toMatchObject({
      impersonationComplaints: 'many',
      figures: { DIRECTLY_FROM_INVESTORS: { resolved: '4' }, SEBI_SCORES: { received: '-1', resolved: '1.5' } },
    })

    const pendingTooHigh = (await saveMonth(
      '2024-11',
      monthFields({
        'SEBI_SCORES.received': '3',
        'SEBI_SCORES.resolved': '2',
        'SEBI_SCORES.pendingOverThreeMonths': '2',
        'OTHER_SOURCES.resolutionDaysTotal': '5',
      }),
      cookie,
    )) as Reply
    expect(pendingTooHigh.data.result.error).toMatchObject({
      'figures.SEBI_SCORES.pendingOverThreeMonths': [
        'Cannot be more than 1, the number pending at the end of the month.',
      ],
      'figures.OTHER_SOURCES.resolutionDaysTotal': [
        'No complaint was resolved this month, so there are no days to count: enter 0.',
      ],
    })
    expect(await prisma.complaintFigures.count({ where: { month: firstDay('2024-11') } })).toBe(0)
    expect(await prisma.auditLog.count({ where: { actorId: userId } })).toBe(0)
  })

  it('saves the figures, audits who changed what from what to what, and the public board shows them at once', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    expect((await publicBoardLoader()).board!.monthTable.total).toMatchObject({
      pendingAtEndOfLastMonth: 2,
      received: 0,
      resolved: 0,
      totalPending: 2,
    })

    const response = (await saveMonth(
      '2024-11',
      monthFields(
        {
          'DIRECTLY_FROM_INVESTORS.received': '3',
          'DIRECTLY_FROM_INVESTORS.resolved': '4',
          'DIRECTLY_FROM_INVESTORS.pendingOverThreeMonths': '1',
          'DIRECTLY_FROM_INVESTORS.resolutionDaysTotal': '30',
          'SEBI_SCORES.received': '1',
          'SEBI_SCORES.resolved': '1',
          'SEBI_SCORES.resolutionDaysTotal': '12',
        },
        '2',
      ),
      admin.cookie,
    )) as Response
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/admin/complaint-board/2024-11?saved=changed')

    const { board } = await publicBoardLoader()
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
      ['Directly from Investors', 2, 3, 4, 1, 1, 7.5],
      ['SEBI (SCORES)', 0, 1, 1, 0, 0, 12],
      ['Other Sources (if any)', 0, 0, 0, 0, 0, 0],
    ])
    expect(board!.monthTable.total).toEqual({
      pendingAtEndOfLastMonth: 2,
      received: 4,
      resolved: 5,
      totalPending: 1,
      pendingOverThreeMonths: 1,
      averageResolutionDays: 8.4,
    })
    expect(board!.impersonationComplaints).toBe(2)

    const [entry, ...others] = await prisma.auditLog.findMany({ where: { actorId: admin.userId } })
    expect(others).toEqual([])
    expect(entry).toMatchObject({
      action: 'complaint-board.update',
      subjectType: 'ComplaintBoardMonth',
      subjectId: '2024-11',
      before: {
        impersonationComplaints: 0,
        figures: {
          DIRECTLY_FROM_INVESTORS: { received: 0, resolved: 0, pendingOverThreeMonths: 0, resolutionDaysTotal: 0 },
        },
      },
      after: {
        impersonationComplaints: 2,
        figures: {
          DIRECTLY_FROM_INVESTORS: { received: 3, resolved: 4, pendingOverThreeMonths: 1, resolutionDaysTotal: 30 },
          SEBI_SCORES: { received: 1, resolved: 1, pendingOverThreeMonths: 0, resolutionDaysTotal: 12 },
          OTHER_SOURCES: { received: 0, resolved: 0, pendingOverThreeMonths: 0, resolutionDaysTotal: 0 },
        },
      },
    })

    // Saving the same figures again changes nothing and writes no audit entry.
    const again = (await saveMonth(
      '2024-11',
      monthFields(
        {
          'DIRECTLY_FROM_INVESTORS.received': '3',
          'DIRECTLY_FROM_INVESTORS.resolved': '4',
          'DIRECTLY_FROM_INVESTORS.pendingOverThreeMonths': '1',
          'DIRECTLY_FROM_INVESTORS.resolutionDaysTotal': '30',
          'SEBI_SCORES.received': '1',
          'SEBI_SCORES.resolved': '1',
          'SEBI_SCORES.resolutionDaysTotal': '12',
        },
        '2',
      ),
      admin.cookie,
    )) as Response
    expect(again.headers.get('Location')).toBe('/admin/complaint-board/2024-11?saved=unchanged')
    expect(await prisma.auditLog.count({ where: { actorId: admin.userId } })).toBe(1)
  })

  it('refuses a change to an earlier month that would make a later one add up wrongly', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    await saveMonth(
      '2024-11',
      monthFields({ 'DIRECTLY_FROM_INVESTORS.resolved': '2', 'DIRECTLY_FROM_INVESTORS.resolutionDaysTotal': '20' }),
      admin.cookie,
    )

    const reply = (await saveMonth(
      '2024-10',
      monthFields({ 'DIRECTLY_FROM_INVESTORS.received': '1' }),
      admin.cookie,
    )) as Reply
    expect(reply.init.status).toBe(409)
    expect(reply.data.result.error['']).toEqual([
      'Saving this would leave November 2024 wrong (Directly from Investors, Resolved): cannot be more than 1, the 1 pending at the start of the month plus the 0 received. Correct November 2024 first.',
    ])
    expect(
      await prisma.complaintFigures.findUniqueOrThrow({
        where: { month_source: { month: firstDay('2024-10'), source: 'DIRECTLY_FROM_INVESTORS' } },
      }),
    ).toMatchObject({ received: 2 })
    expect(await prisma.auditLog.count({ where: { actorId: admin.userId, subjectId: '2024-10' } })).toBe(0)
  })

  it('checks the history again when it saves: figures that stopped adding up since the form was read are refused', async () => {
    const { userId } = await signedInUser({ role: 'ADMIN' })
    const figures = (received: number, resolved: number) => ({
      received,
      resolved,
      pendingOverThreeMonths: 0,
      resolutionDaysTotal: resolved * 5,
    })
    const zero = figures(0, 0)
    // The form allowed resolving 2 (October's two were pending); meanwhile October was corrected to 1.
    await prisma.complaintFigures.update({
      where: { month_source: { month: firstDay('2024-10'), source: 'DIRECTLY_FROM_INVESTORS' } },
      data: { received: 1 },
    })
    const change = await saveComplaintMonth(userId, '2024-11', {
      impersonationComplaints: 0,
      figures: { DIRECTLY_FROM_INVESTORS: figures(0, 2), SEBI_SCORES: zero, OTHER_SOURCES: zero },
    })
    expect(change).toMatchObject({
      ok: false,
      status: 409,
      message:
        'Directly from Investors, Resolved: cannot be more than 1, the 1 pending at the start of the month plus the 0 received.',
    })
  })
})

describe('publishing a month through the page', () => {
  it('by hand puts the next month on the board with no complaints, audited; the public board reports it at once', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    const response = (await call(
      listRoute.action,
      formRequest('/admin/complaint-board', { month: '2024-12', path: 'hand' }, admin.cookie),
    )) as Response
    expect(response.headers.get('Location')).toBe('/admin/complaint-board/2024-12?published=1')
    const { board } = await publicBoardLoader()
    expect(board!.monthEnding).toBe('December 2024')
    expect(board!.publication.enteredByHand).toBe(true)
    expect(board!.monthTable.total.pendingAtEndOfLastMonth).toBe(2)
    expect(
      await prisma.auditLog.findMany({
        where: { actorId: admin.userId },
        select: { action: true, subjectId: true, before: true, after: true },
      }),
    ).toEqual([
      {
        action: 'complaint-board.publish',
        subjectId: '2024-12',
        before: null,
        after: { month: '2024-12', origin: 'HAND', impersonationComplaints: 0 },
      },
    ])
  })

  it('from the register stores the computed figures and goes back to the months', async () => {
    const admin = await signedInUser({ role: 'ADMIN' })
    const response = (await call(
      listRoute.action,
      formRequest('/admin/complaint-board', { month: '2024-12', path: 'register' }, admin.cookie),
    )) as Response
    expect(response.headers.get('Location')).toBe('/admin/complaint-board?published=2024-12')
    const page = (await call(
      listRoute.loader,
      getRequest('/admin/complaint-board?published=2024-12', admin.cookie),
    )) as {
      months: { month: string; publication: { enteredByHand: boolean } }[]
      publishedLabel: string
    }
    expect(page.publishedLabel).toBe('December 2024')
    expect(page.months[0]).toMatchObject({ month: '2024-12', publication: { enteredByHand: false } })
    const odd = (await call(
      listRoute.loader,
      getRequest('/admin/complaint-board?published=2024-13', admin.cookie),
    )) as {
      publishedLabel: string | null
    }
    expect(odd.publishedLabel).toBeNull()
  })

  it('refuses a month already on the board, one skipping a month, one not ended yet, one before the board began and one that is not a month', async () => {
    const { userId, cookie } = await signedInUser({ role: 'ADMIN' })
    const publish = async (month: string, path = 'register') =>
      (await call(listRoute.action, formRequest('/admin/complaint-board', { month, path }, cookie))) as {
        init: { status: number }
        data: { message: string }
      }
    const nextMonth = new Date(Date.now() + 32 * 86_400_000).toISOString().slice(0, 7)
    const cases: [string, string, number, string][] = [
      ['2024-11', 'register', 409, 'November 2024 is already published; published figures do not change.'],
      ['2025-01', 'hand', 409, 'Publish December 2024 first: months are published in order and none may be skipped.'],
      [
        '2024-09',
        'register',
        409,
        'September 2024 is before November 2024, the latest published month: months are published in order.',
      ],
      [nextMonth, 'register', 409, expect.stringMatching(/has not ended yet: publish it from 1 /) as unknown as string],
      ['2021-11', 'hand', 400, 'The board starts no earlier than December 2021, when SEBI asked for it.'],
      ['2024-13', 'register', 400, 'Enter the month as YYYY-MM, like 2024-12.'],
      ['', 'register', 400, 'Choose the month to publish.'],
      ['2024-12', 'nonsense', 400, 'Choose how to publish the month.'],
    ]
    for (const [month, path, status, message] of cases) {
      const reply = await publish(month, path)
      expect(reply.init.status, month).toBe(status)
      expect(reply.data.message, month).toEqual(message)
    }
    expect(await prisma.complaintBoardMonth.count()).toBe(2)
    expect(await prisma.auditLog.count({ where: { actorId: userId } })).toBe(0)
  })
})
