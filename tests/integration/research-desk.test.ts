import { randomInt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import * as adminItemRoute from '~/routes/admin/research-item'
import * as adminListRoute from '~/routes/admin/research'
import { prisma } from '~/server/db.server'
import { MailDeliveryError } from '~/server/messaging/mail.server'
import { sendDueResearchDeliveries } from '~/server/research/deliveries.server'
import { decodeCursor } from '~/domain/keyset'
import { researchItemsForAdmin } from '~/server/research/admin-list.server'
import { retryFailedDeliveries } from '~/server/research/delivery-log.server'
import { createResearchDraft } from '~/server/research/items.server'
import { publishResearchItem } from '~/server/research/publishing.server'
import { countResearchReach } from '~/server/research/reach.server'
import {
  cancelResearchSchedule,
  publishDueScheduledResearch,
  scheduleResearchItem,
} from '~/server/research/scheduling.server'
import { createService } from '../support/payment-fixtures'
import { formRequest, getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

const DAY_MS = 86_400_000

const nextPage = (cursor: string | null) => ({ direction: 'after' as const, key: decodeCursor(cursor!, 'uuid')! })
const MINUTE_MS = 60_000

async function subscribe(userId: string, serviceId: string, startsAt: Date, endsAt: Date) {
  await prisma.subscription.create({
    data: { userId, serviceId, startsAt, endsAt, grantReason: 'desk test', grantedById: userId },
  })
}

/** A service with `readers` running subscribers (`withoutEmail` of them with no address) and a draft for it. */
async function draftWithReaders(readers: number, { withoutEmail = 0, now = new Date() } = {}) {
  const service = await createService('Desk', 100_000, 30)
  const customers = await Promise.all(Array.from({ length: readers }, () => signedInUser({ completeProfile: true })))
  for (const customer of customers.slice(0, withoutEmail))
    await prisma.user.update({ where: { id: customer.userId }, data: { email: null } })
  for (const customer of customers)
    await subscribe(customer.userId, service.id, new Date(now.getTime() - DAY_MS), new Date(now.getTime() + DAY_MS))
  const admin = await signedInUser({ role: 'ADMIN' })
  const draft = await createResearchDraft(admin.userId, {
    title: 'Steel: prices firm',
    body: 'Prices held.',
    serviceIds: [service.id],
    financialInterest: false,
    ownershipOnePercent: false,
    compensationPastYear: false,
    aiToolsUsed: false,
    otherConflict: 'None',
  })
  if (!draft.ok) throw new Error(draft.message)
  return { service, customers, admin, itemId: draft.id, now }
}

describe('scheduling research', () => {
  it('refuses a past time, a time beyond the horizon and a malformed one (400)', async () => {
    const { admin, itemId } = await draftWithReaders(0)
    for (const publishAt of ['2020-01-01T09:00', '2999-01-01T09:00', 'tomorrow', '2026-02-31T09:00', '']) {
      const response = (await adminItemRoute.action(
        routeArgs(formRequest(`/admin/research/${itemId}`, { intent: 'schedule', publishAt }, admin.cookie), {
          itemId,
        }),
      )) as { init: ResponseInit | null; data: { message: string } }
      expect(response.init?.status, publishAt).toBe(400)
      expect(response.data.message).toMatch(/passed|at most 90 days|Enter the date/)
    }
    expect(await prisma.researchItem.findUniqueOrThrow({ where: { id: itemId } })).toMatchObject({
      status: 'DRAFT',
      scheduledAt: null,
    })
  })

  it('publishes a due scheduled item once when two job runs start at the same moment', async () => {
    const { admin, itemId, now } = await draftWithReaders(3)
    const at = new Date(now.getTime() + 5 * MINUTE_MS)
    expect(await scheduleResearchItem(itemId, admin.userId, at, now)).toEqual({ ok: true })
    // Not due yet: the job leaves it.
    expect(await publishDueScheduledResearch(now)).toEqual({ published: 0 })
    expect((await prisma.researchItem.findUniqueOrThrow({ where: { id: itemId } })).status).toBe('SCHEDULED')

    const runAt = new Date(at.getTime() + 10_000)
    const runs = await Promise.all([publishDueScheduledResearch(runAt), publishDueScheduledResearch(runAt)])
    expect(runs.map((run) => run.published).sort()).toEqual([0, 1])
    const item = await prisma.researchItem.findUniqueOrThrow({ where: { id: itemId } })
    expect(item).toMatchObject({ status: 'PUBLISHED', publishedAt: runAt, scheduledAt: at })
    expect(await prisma.researchRollEntry.count({ where: { itemId } })).toBe(3)
    expect(await prisma.researchDelivery.count({ where: { itemId } })).toBe(3)
    const audits = await prisma.auditLog.findMany({ where: { subjectId: itemId }, orderBy: { id: 'asc' } })
    expect(audits.map((entry) => entry.action)).toEqual(['research.draft', 'research.schedule', 'research.publish'])
    expect(audits[2]).toMatchObject({ actorId: admin.userId, before: { status: 'SCHEDULED' } })
  })

  it('takes a cancelled schedule back to a draft, which the job then leaves alone', async () => {
    const { admin, itemId, now } = await draftWithReaders(1)
    const at = new Date(now.getTime() + MINUTE_MS)
    await scheduleResearchItem(itemId, admin.userId, at, now)
    expect(await scheduleResearchItem(itemId, admin.userId, at, now)).toEqual({ ok: false, reason: 'not-draft' })
    const cancel = await adminItemRoute.action(
      routeArgs(formRequest(`/admin/research/${itemId}`, { intent: 'cancel-schedule' }, admin.cookie), { itemId }),
    )
    expect((cancel as Response).status).toBe(302)
    expect(await prisma.researchItem.findUniqueOrThrow({ where: { id: itemId } })).toMatchObject({
      status: 'DRAFT',
      scheduledAt: null,
    })
    expect(await cancelResearchSchedule(itemId, admin.userId)).toEqual({ ok: false, reason: 'not-scheduled' })
    await publishDueScheduledResearch(new Date(at.getTime() + MINUTE_MS))
    expect((await prisma.researchItem.findUniqueOrThrow({ where: { id: itemId } })).status).toBe('DRAFT')
    expect(await prisma.auditLog.count({ where: { subjectId: itemId, action: 'research.unschedule' } })).toBe(1)
  })

  it('schedules through the item page and says when', async () => {
    const { admin, itemId } = await draftWithReaders(0)
    const response = (await adminItemRoute.action(
      routeArgs(
        formRequest(`/admin/research/${itemId}`, { intent: 'schedule', publishAt: '2099-01-01T09:30' }, admin.cookie),
        {
          itemId,
        },
      ),
    )) as { init: ResponseInit | null }
    // 2099 is beyond the horizon; a time an hour from now is not.
    expect(response.init?.status).toBe(400)
    const inAnHour = new Date(Date.now() + 60 * MINUTE_MS + 5.5 * 60 * MINUTE_MS).toISOString().slice(0, 16)
    const scheduled = await adminItemRoute.action(
      routeArgs(formRequest(`/admin/research/${itemId}`, { intent: 'schedule', publishAt: inAnHour }, admin.cookie), {
        itemId,
      }),
    )
    expect((scheduled as Response).status).toBe(302)
    const item = await prisma.researchItem.findUniqueOrThrow({ where: { id: itemId } })
    expect(item.status).toBe('SCHEDULED')
    expect(item.scheduledAt).toEqual(new Date(`${inAnHour}:00+05:30`))
  })
})

describe('the preview’s reach', () => {
  it('counts per channel exactly the roll that publishing then takes', async () => {
    const { service, customers, admin, itemId, now } = await draftWithReaders(4, { withoutEmail: 1 })
    // Not entitled: an ended subscriber and a closed account.
    const [ended, closed] = await Promise.all([1, 2].map(() => signedInUser({ completeProfile: true })))
    await subscribe(ended!.userId, service.id, new Date(now.getTime() - 2 * DAY_MS), new Date(now.getTime() - DAY_MS))
    await subscribe(closed!.userId, service.id, new Date(now.getTime() - DAY_MS), new Date(now.getTime() + DAY_MS))
    await prisma.user.update({ where: { id: closed!.userId }, data: { closedAt: now } })

    // One customer with an address takes research on Telegram instead of by e-mail.
    await prisma.researchChannelChoice.create({
      data: {
        userId: customers.at(-1)!.userId,
        email: false,
        telegram: true,
        telegramChatId: String(randomInt(1, 2 ** 40)),
      },
    })

    const reach = await countResearchReach(itemId, now)
    expect(reach).toEqual({
      site: 4,
      channels: [
        { channel: 'EMAIL', customers: 2 },
        { channel: 'SMS', customers: 0 },
        { channel: 'TELEGRAM', customers: 1 },
      ],
    })
    const page = await adminItemRoute.loader(
      routeArgs(getRequest(`/admin/research/${itemId}`, admin.cookie), { itemId }),
    )
    expect(page.reach).toEqual({
      site: 4,
      channels: [
        { label: 'E-mail', customers: 2 },
        { label: 'SMS', customers: 0 },
        { label: 'Telegram', customers: 1 },
      ],
    })

    const published = await publishResearchItem(itemId, admin.userId, now)
    expect(published).toMatchObject({ ok: true, rollSize: reach.site })
    for (const { channel, customers: reached } of reach.channels)
      expect(await prisma.researchDelivery.count({ where: { itemId, channel } }), channel).toBe(reached)
    expect(customers).toHaveLength(4)
    // The size is kept with the item at publication: the list and the item page read it, not a count.
    expect(await prisma.researchItem.findUnique({ where: { id: itemId }, select: { rollSize: true } })).toEqual({
      rollSize: 4,
    })
    const listed = await researchItemsForAdmin({ serviceId: service.id })
    expect(listed.rows.map((row) => [row.id, row.rollSize])).toEqual([[itemId, 4]])
    const itemPage = await adminItemRoute.loader(
      routeArgs(getRequest(`/admin/research/${itemId}`, admin.cookie), { itemId }),
    )
    expect(itemPage.rollSize).toBe(4)
  })
})

describe('the delivery log', () => {
  it('counts deliveries per channel and state, pages the roll and retries the failed ones, audited', async () => {
    const { admin, itemId, now } = await draftWithReaders(3)
    await publishResearchItem(itemId, admin.userId, now)
    const refused = async () => {
      throw new MailDeliveryError('550 mailbox unavailable', false)
    }
    await sendDueResearchDeliveries({ now, send: refused })
    expect(await prisma.researchDelivery.count({ where: { itemId, status: 'FAILED' } })).toBe(3)

    const page = await adminItemRoute.loader(
      routeArgs(getRequest(`/admin/research/${itemId}`, admin.cookie), { itemId }),
    )
    expect(page.deliveryLog?.counts).toEqual([
      { channel: 'EMAIL', label: 'E-mail', queued: 0, sent: 0, delivered: 0, failed: 3 },
    ])
    expect(page.deliveryLog?.failed.map((row) => row.reason)).toEqual(Array(3).fill('550 mailbox unavailable'))
    expect(page.deliveryLog?.roll).toHaveLength(3)

    const retry = await adminItemRoute.action(
      routeArgs(formRequest(`/admin/research/${itemId}`, { intent: 'retry' }, admin.cookie), { itemId }),
    )
    expect((retry as Response).status).toBe(302)
    const rows = await prisma.researchDelivery.findMany({ where: { itemId } })
    expect(rows.every((row) => row.status === 'QUEUED' && row.attempts === 0 && row.failedAt === null)).toBe(true)
    expect(
      await prisma.auditLog.findFirst({ where: { subjectId: itemId, action: 'research.retry-deliveries' } }),
    ).toMatchObject({ actorId: admin.userId, after: { status: 'QUEUED', deliveries: 3 } })
    // Nothing failed now: a second Retry changes nothing.
    expect(await retryFailedDeliveries(itemId, admin.userId)).toBe(0)
  })
})

describe('the research list', () => {
  it('filters by status and service and pages by keyset; a malformed filter is named, not a crash', async () => {
    const { service, admin, itemId } = await draftWithReaders(0)
    const second = await createResearchDraft(admin.userId, {
      title: 'Steel: second look',
      body: 'Still firm.',
      serviceIds: [service.id],
      financialInterest: false,
      ownershipOnePercent: false,
      compensationPastYear: false,
      aiToolsUsed: false,
      otherConflict: 'None',
    })
    if (!second.ok) throw new Error(second.message)
    await publishResearchItem(itemId, admin.userId)

    const list = (query: string) =>
      adminListRoute.loader(routeArgs(getRequest(`/admin/research?${query}`, admin.cookie)))
    const drafts = await list(`serviceId=${service.id}&status=DRAFT`)
    expect(drafts.items.map((item) => item.id)).toEqual([second.id])
    const published = await list(`serviceId=${service.id}&status=PUBLISHED&kind=REPORT`)
    expect(published.items.map((item) => item.id)).toEqual([itemId])

    const malformed = await list(`serviceId=nope&status=LOST&from=2026-13-45&to=2026-02-31`)
    expect(malformed.ignored).toEqual(['service', 'status', 'from date', 'to date'])

    // Newest first by date: the published item (published now) before the draft (written earlier).
    const first = await researchItemsForAdmin({ serviceId: service.id }, null, 1)
    expect(first.rows.map((row) => row.id)).toEqual([itemId])
    const next = await researchItemsForAdmin({ serviceId: service.id }, nextPage(first.next), 1)
    expect(next.rows.map((row) => row.id)).toEqual([second.id])
    expect(next.next).toBeNull()
    expect(next.previous).not.toBeNull()
  })
})
