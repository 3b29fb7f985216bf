import { describe, expect, it } from 'vitest'
import * as adminItemRoute from '~/routes/admin/research-item'
import * as adminNewRoute from '~/routes/admin/research-new'
import * as researchItemRoute from '~/routes/research.item'
import * as researchListRoute from '~/routes/research'
import { prisma } from '~/server/db.server'
import { createResearchDraft } from '~/server/research/items.server'
import { publishResearchItem, verifyStoredResearchItem } from '~/server/research/publishing.server'
import { createService } from '../support/payment-fixtures'
import { formRequest, getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

const DAY_MS = 86_400_000

const DISCLOSURES = {
  financialInterest: false,
  ownershipOnePercent: false,
  compensationPastYear: false,
  aiToolsUsed: true,
  otherConflict: 'None',
} as const

async function subscribe(userId: string, serviceId: string, startsAt: Date, endsAt: Date) {
  await prisma.subscription.create({
    data: { userId, serviceId, startsAt, endsAt, grantReason: 'research test', grantedById: userId },
  })
}

async function thrown(promise: unknown): Promise<Response> {
  try {
    await promise
  } catch (error) {
    if (error instanceof Response) return error
    if (error && typeof error === 'object' && 'init' in error)
      return new Response(null, (error as { init: ResponseInit }).init)
    throw error
  }
  throw new Error('expected a thrown response')
}

/** A draft for `services`, written by a new admin. */
async function draftFor(serviceIds: string[], title = 'Banks: steady margins') {
  const admin = await signedInUser({ role: 'ADMIN' })
  const draft = await createResearchDraft(admin.userId, {
    title,
    body: '## Summary\nMargins held.',
    serviceIds,
    ...DISCLOSURES,
  })
  if (!draft.ok) throw new Error(draft.message)
  return { admin, itemId: draft.id }
}

describe('publishing research', () => {
  it('takes the roll once when two admins publish at the same moment', async () => {
    const service = await createService('Equity', 100_000, 30)
    const now = new Date()
    const customers = await Promise.all([1, 2, 3].map(() => signedInUser({ completeProfile: true })))
    for (const customer of customers)
      await subscribe(customer.userId, service.id, new Date(now.getTime() - DAY_MS), new Date(now.getTime() + DAY_MS))
    const { admin, itemId } = await draftFor([service.id])
    const other = await signedInUser({ role: 'ADMIN' })

    const results = await Promise.all([
      publishResearchItem(itemId, admin.userId, now),
      publishResearchItem(itemId, other.userId, new Date(now.getTime() + 1)),
    ])
    expect(results.filter((result) => result.ok)).toHaveLength(1)
    expect(results.filter((result) => !result.ok)).toEqual([{ ok: false, reason: 'already-published' }])
    expect(await prisma.researchRollEntry.count({ where: { itemId } })).toBe(3)
    expect(await prisma.auditLog.count({ where: { subjectId: itemId, action: 'research.publish' } })).toBe(1)
    const item = await prisma.researchItem.findUniqueOrThrow({ where: { id: itemId } })
    expect(item.status).toBe('PUBLISHED')
    expect(await verifyStoredResearchItem(itemId)).toBe('verified')
  })

  it('rolls only entitled customers: running subscription to one of its services, account open, KYC allowing service', async () => {
    const [equity, options, other] = await Promise.all([
      createService('Equity', 100_000, 30),
      createService('Options', 100_000, 30),
      createService('Commodities', 100_000, 30),
    ])
    const now = new Date()
    const running = [new Date(now.getTime() - DAY_MS), new Date(now.getTime() + DAY_MS)] as const
    const make = () => signedInUser({ completeProfile: true })
    const [onEquity, onOptions, onBoth, ended, notYet, otherService, closed, kycOnHold, noKyc] = await Promise.all(
      Array.from({ length: 9 }, make),
    )
    await subscribe(onEquity!.userId, equity.id, ...running)
    await subscribe(onOptions!.userId, options.id, ...running)
    await subscribe(onBoth!.userId, equity.id, ...running)
    await subscribe(onBoth!.userId, options.id, ...running)
    await subscribe(ended!.userId, equity.id, new Date(now.getTime() - 30 * DAY_MS), new Date(now.getTime() - DAY_MS))
    await subscribe(notYet!.userId, equity.id, new Date(now.getTime() + DAY_MS), new Date(now.getTime() + 30 * DAY_MS))
    await subscribe(otherService!.userId, other.id, ...running)
    for (const customer of [closed, kycOnHold, noKyc]) await subscribe(customer!.userId, equity.id, ...running)
    await prisma.user.update({ where: { id: closed!.userId }, data: { closedAt: now } })
    await prisma.user.update({ where: { id: kycOnHold!.userId }, data: { kycStatus: 'ON_HOLD' } })
    await prisma.user.update({ where: { id: noKyc!.userId }, data: { kycStatus: null } })

    const { admin, itemId } = await draftFor([equity.id, options.id])
    expect(await publishResearchItem(itemId, admin.userId, now)).toMatchObject({ ok: true, rollSize: 3 })
    const roll = await prisma.researchRollEntry.findMany({ where: { itemId }, select: { userId: true } })
    expect(roll.map((row) => row.userId).sort()).toEqual([onEquity!.userId, onOptions!.userId, onBoth!.userId].sort())
  })

  it('keeps every roll row naming a customer who exists: customers are never deleted, whoever asks (decision 063)', async () => {
    const service = await createService('Equity', 100_000, 30)
    const now = new Date()
    const [onRoll, noRecords] = await Promise.all([signedInUser({ completeProfile: true }), signedInUser()])
    await subscribe(onRoll.userId, service.id, new Date(now.getTime() - DAY_MS), new Date(now.getTime() + DAY_MS))
    const { admin, itemId } = await draftFor([service.id])
    expect(await publishResearchItem(itemId, admin.userId, now)).toMatchObject({ ok: true, rollSize: 1 })

    // The roll holds no key to users: nothing may take a customer away, on a roll or not (erasure blanks them).
    for (const userId of [onRoll.userId, noRecords.userId]) {
      await expect(prisma.user.delete({ where: { id: userId } })).rejects.toThrow(/never deleted/)
      await expect(prisma.$executeRaw`DELETE FROM users WHERE id = ${userId}::uuid`).rejects.toThrow(/never deleted/)
    }
    await expect(prisma.$executeRawUnsafe('TRUNCATE users CASCADE')).rejects.toThrow(/never deleted/)
    expect(await prisma.user.count({ where: { id: { in: [onRoll.userId, noRecords.userId] } } })).toBe(2)
    const roll = await prisma.researchRollEntry.findMany({
      where: { itemId },
      select: { user: { select: { id: true } } },
    })
    expect(roll).toEqual([{ user: { id: onRoll.userId } }])
  })

  it('keeps the roll on its item and each delivery on the roll, checked once a statement (decision 063)', async () => {
    const service = await createService('Equity', 100_000, 30)
    const now = new Date()
    const [onRoll, offRoll] = await Promise.all([
      signedInUser({ completeProfile: true }),
      signedInUser({ completeProfile: true }),
    ])
    await subscribe(onRoll.userId, service.id, new Date(now.getTime() - DAY_MS), new Date(now.getTime() + DAY_MS))
    const { admin, itemId } = await draftFor([service.id])
    expect(await publishResearchItem(itemId, admin.userId, now)).toMatchObject({ ok: true, rollSize: 1 })
    expect(await prisma.researchDelivery.count({ where: { itemId, userId: onRoll.userId } })).toBe(1)

    const missingItemId = '00000000-0000-4000-8000-000000000063'
    await expect(
      prisma.$executeRaw`INSERT INTO research_roll (item_id, user_id, delivered_at)
        VALUES (${itemId}::uuid, ${offRoll.userId}::uuid, ${now}), (${missingItemId}::uuid, ${offRoll.userId}::uuid, ${now})`,
    ).rejects.toThrow(/names an item that does not exist/)
    await expect(
      prisma.$executeRaw`INSERT INTO research_deliveries (item_id, user_id, channel, queued_at, next_attempt_at)
        VALUES (${itemId}::uuid, ${offRoll.userId}::uuid, 'EMAIL', ${now}, ${now})`,
    ).rejects.toThrow(/not on the item's roll/)
    await prisma.researchItemService.deleteMany({ where: { itemId } })
    await expect(prisma.$executeRaw`DELETE FROM research_items WHERE id = ${itemId}::uuid`).rejects.toThrow(
      /deleted only after its roll/,
    )
    await expect(prisma.$executeRaw`DELETE FROM research_roll WHERE item_id = ${itemId}::uuid`).rejects.toThrow(
      /deleted only after its deliveries/,
    )
    expect(await prisma.researchRollEntry.count({ where: { itemId } })).toBe(1)
    expect(await prisma.researchRollEntry.count({ where: { userId: offRoll.userId } })).toBe(0)

    // In the retention job's order (deliveries, roll, item) each deletion is allowed.
    await prisma.researchDelivery.deleteMany({ where: { itemId } })
    await prisma.researchRollEntry.deleteMany({ where: { itemId } })
    await prisma.researchItem.delete({ where: { id: itemId } })
  })

  it('fails verification once a published item is altered in the database', async () => {
    const service = await createService('Equity', 100_000, 30)
    const { admin, itemId } = await draftFor([service.id])
    await publishResearchItem(itemId, admin.userId)
    expect(await verifyStoredResearchItem(itemId)).toBe('verified')
    await prisma.researchItem.update({ where: { id: itemId }, data: { body: '## Summary\nBuy everything.' } })
    expect(await verifyStoredResearchItem(itemId)).toBe('altered')
  })
})

describe('the research pages', () => {
  it('the admin writes a report on the form and publishes it; the entitled customer reads it, another gets 404', async () => {
    const service = await createService('Equity', 100_000, 30)
    const admin = await signedInUser({ role: 'ADMIN' })
    const reader = await signedInUser({ completeProfile: true })
    const outsider = await signedInUser({ completeProfile: true })
    await subscribe(reader.userId, service.id, new Date(Date.now() - DAY_MS), new Date(Date.now() + DAY_MS))

    const refused = (await adminNewRoute.action(
      routeArgs(formRequest('/admin/research/new', { title: 'No services', body: 'Text' }, admin.cookie)),
    )) as unknown as { init: { status: number }; data: { result: { error: Record<string, string[]> } } }
    expect(refused.init.status).toBe(400)
    expect(refused.data.result.error.serviceIds).toEqual(['Choose at least one service.'])
    expect(refused.data.result.error.aiToolsUsed).toEqual(['Answer whether AI tools were used.'])

    const created = (await adminNewRoute.action(
      routeArgs(
        formRequest(
          '/admin/research/new',
          {
            title: '<script>alert(1)</script> Banks',
            body: 'Margins held.',
            serviceIds: service.id,
            financialInterest: 'no',
            ownershipOnePercent: 'no',
            compensationPastYear: 'no',
            aiToolsUsed: 'yes',
            otherConflict: 'None',
          },
          admin.cookie,
        ),
      ),
    )) as Response
    expect(created.status).toBe(302)
    const itemId = created.headers.get('Location')!.split('/').pop()!
    expect(await prisma.researchItem.findUniqueOrThrow({ where: { id: itemId } })).toMatchObject({
      status: 'DRAFT',
      title: '<script>alert(1)</script> Banks',
      aiToolsUsed: true,
    })

    const published = (await adminItemRoute.action(
      routeArgs(formRequest(`/admin/research/${itemId}`, { intent: 'publish' }, admin.cookie), { itemId }),
    )) as Response
    expect(published.status).toBe(302)
    const again = (await adminItemRoute.action(
      routeArgs(formRequest(`/admin/research/${itemId}`, { intent: 'publish' }, admin.cookie), { itemId }),
    )) as unknown as { init: { status: number } }
    expect(again.init.status).toBe(409)
    expect(await prisma.researchRollEntry.count({ where: { itemId } })).toBe(1)

    const list = await researchListRoute.loader(routeArgs(getRequest('/research', reader.cookie)))
    expect(list.items.map((item) => item.id)).toEqual([itemId])
    const shown = await researchItemRoute.loader(
      routeArgs(getRequest(`/research/${itemId}`, reader.cookie), { itemId }),
    )
    expect(shown.item.title).toBe('<script>alert(1)</script> Banks')

    expect((await researchListRoute.loader(routeArgs(getRequest('/research', outsider.cookie)))).items).toEqual([])
    const notFound = await thrown(
      researchItemRoute.loader(routeArgs(getRequest(`/research/${itemId}`, outsider.cookie), { itemId })),
    )
    expect(notFound.status).toBe(404)
    const notAnId = await thrown(
      researchItemRoute.loader(routeArgs(getRequest('/research/nope', reader.cookie), { itemId: 'nope' })),
    )
    expect(notAnId.status).toBe(404)
  })
})
