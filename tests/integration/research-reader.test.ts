import { describe, expect, it } from 'vitest'
import * as researchItemRoute from '~/routes/research.item'
import * as researchListRoute from '~/routes/research'
import { currentAgreement } from '~/server/account/agreement-document.server'
import { businessDetails } from '~/server/business.server'
import { prisma } from '~/server/db.server'
import { CUSTOMER_RESEARCH_PAGE_SIZE } from '~/domain/research-list'
import { researchItemForCustomer, researchPageFor } from '~/server/research/delivered.server'
import { eraseExpiredData } from '~/server/account/retention.server'
import { createFollowUpDraft } from '~/server/research/follow-ups.server'
import { createResearchDraft } from '~/server/research/items.server'
import { RESEARCH_KEPT_YEARS, researchRetentionCutoff } from '~/domain/research-retention'
import { publishResearchItem } from '~/server/research/publishing.server'
import { createService } from '../support/payment-fixtures'
import { getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'
import { thrownStatus } from '../support/research-forms'

// The reader's side of research (docs/research.md, decision 040): the roll asks for the terms in
// force, the archive follows a running subscription, the list filters, pages and marks what is unread.

const DAY_MS = 86_400_000
const daysFromNow = (days: number) => new Date(Date.now() + days * DAY_MS)

async function subscribe(userId: string, serviceId: string, startsAt: Date, endsAt: Date) {
  return prisma.subscription.create({
    data: { userId, serviceId, startsAt, endsAt, grantReason: 'research reader test', grantedById: userId },
  })
}

/** A published item for `serviceIds`, published at `at`. */
async function publishedAt(serviceIds: string[], at: Date, title = `Item ${at.toISOString()}`) {
  const admin = await signedInUser({ role: 'ADMIN' })
  const draft = await createResearchDraft(
    admin.userId,
    {
      title,
      body: 'Text.',
      serviceIds,
      financialInterest: false,
      ownershipOnePercent: false,
      compensationPastYear: false,
      aiToolsUsed: false,
      otherConflict: 'None',
    },
    at,
  )
  if (!draft.ok) throw new Error(draft.message)
  const result = await publishResearchItem(draft.id, admin.userId, at)
  if (!result.ok) throw new Error(result.reason)
  return draft.id
}

describe('the roll and the terms in force', () => {
  it('leaves out a subscriber who has not accepted the version in force, and anyone who never accepted terms', async () => {
    const agreement = currentAgreement(businessDetails)
    const oldVersion = 'agreement-reader-old'
    await prisma.termsVersion.createMany({
      data: [
        {
          version: oldVersion,
          textSha256: 'old',
          text: 'old',
          publishedAt: daysFromNow(-90),
          effectiveFrom: daysFromNow(-70),
        },
        {
          version: agreement.version,
          textSha256: agreement.textSha256,
          text: agreement.text,
          publishedAt: daysFromNow(-20),
          effectiveFrom: daysFromNow(-5),
        },
      ],
      skipDuplicates: true,
    })
    const service = await createService('Equity', 100_000, 30)
    const behind = await signedInUser({ completeProfile: true, acceptedTermsVersion: oldVersion })
    const upToDate = await signedInUser({ completeProfile: true })
    const neverAccepted = await signedInUser({ completeProfile: true })
    await prisma.user.update({
      where: { id: neverAccepted.userId },
      data: { agreementAcceptedAt: null, agreementVersion: null },
    })
    for (const customer of [behind, upToDate, neverAccepted])
      await subscribe(customer.userId, service.id, daysFromNow(-1), daysFromNow(30))

    const itemId = await publishedAt([service.id], new Date())
    const roll = await prisma.researchRollEntry.findMany({ where: { itemId }, select: { userId: true } })
    expect(roll.map((row) => row.userId)).toEqual([upToDate.userId])
    // Nor do they read it through the archive until they accept.
    expect(await researchItemForCustomer(behind.userId, itemId)).toBeNull()
    expect(await researchItemForCustomer(upToDate.userId, itemId)).not.toBeNull()
  })
})

describe('what a customer reads', () => {
  it('an ended or refunded subscriber keeps what was delivered and gets 404 for what came after', async () => {
    const service = await createService('Equity', 100_000, 30)
    const ended = await signedInUser({ completeProfile: true })
    const refunded = await signedInUser({ completeProfile: true })
    await subscribe(ended.userId, service.id, daysFromNow(-40), daysFromNow(-10))
    const refundedSubscription = await subscribe(refunded.userId, service.id, daysFromNow(-40), daysFromNow(20))
    const delivered = await publishedAt([service.id], daysFromNow(-20), 'Delivered while running')
    // The refund ends the subscription: a new end now, the sold one kept (app/server/payments/refunds/).
    await prisma.subscription.update({
      where: { id: refundedSubscription.id },
      data: { endsAt: daysFromNow(-5), endedAt: daysFromNow(-5), originalEndsAt: daysFromNow(20) },
    })
    const after = await publishedAt([service.id], daysFromNow(-1), 'Published after the end')

    for (const customer of [ended, refunded]) {
      const shown = await researchItemRoute.loader(
        routeArgs(getRequest(`/research/${delivered}`, customer.cookie), { itemId: delivered }),
      )
      expect(shown.item.title).toBe('Delivered while running')
      expect(
        await thrownStatus(
          researchItemRoute.loader(routeArgs(getRequest(`/research/${after}`, customer.cookie), { itemId: after })),
        ),
      ).toBe(404)
      const list = await researchListRoute.loader(routeArgs(getRequest('/research', customer.cookie)))
      expect(list.items.map((item) => item.title)).toEqual(['Delivered while running'])
    }
  })

  it('a running subscription opens its service archive, on the list and the item page; other services stay closed', async () => {
    const [equity, options] = await Promise.all([
      createService('Equity', 100_000, 30),
      createService('Options', 100_000, 30),
    ])
    const earlier = await publishedAt([equity.id], daysFromNow(-400), 'Equity, a year ago')
    const otherService = await publishedAt([options.id], daysFromNow(-300), 'Options, before')
    const reader = await signedInUser({ completeProfile: true })
    await subscribe(reader.userId, equity.id, daysFromNow(-1), daysFromNow(30))
    const list = await researchListRoute.loader(routeArgs(getRequest('/research', reader.cookie)))
    expect(list.items.map((item) => item.title)).toEqual(['Equity, a year ago'])
    expect(await researchItemForCustomer(reader.userId, earlier)).not.toBeNull()
    expect(
      await thrownStatus(
        researchItemRoute.loader(
          routeArgs(getRequest(`/research/${otherService}`, reader.cookie), { itemId: otherService }),
        ),
      ),
    ).toBe(404)
    // Once it has ended, the archive closes again.
    expect(await researchItemForCustomer(reader.userId, earlier, daysFromNow(31))).toBeNull()
  })

  it('filters by service, pages by key, marks unread until first opened, and shrugs off a bad filter or cursor', async () => {
    const [equity, options] = await Promise.all([
      createService('Equity', 100_000, 30),
      createService('Options', 100_000, 30),
    ])
    const reader = await signedInUser({ completeProfile: true })
    await subscribe(reader.userId, equity.id, daysFromNow(-60), daysFromNow(30))
    await subscribe(reader.userId, options.id, daysFromNow(-60), daysFromNow(30))
    const count = CUSTOMER_RESEARCH_PAGE_SIZE + 3
    const ids: string[] = []
    for (let index = 0; index < count; index++)
      ids.push(await publishedAt([index % 2 ? options.id : equity.id], daysFromNow(-50 + index), `Note ${index}`))
    const newestFirst = [...ids].reverse()

    const load = async (query: string) =>
      researchListRoute.loader(routeArgs(getRequest(`/research${query}`, reader.cookie)))
    for (const query of ['?service=nope', `?service=${equity.id}&service=${options.id}`, '?after=1_2', '?before=%00'])
      expect((await load(query)).items.map((item) => item.id)).toEqual(
        newestFirst.slice(0, CUSTOMER_RESEARCH_PAGE_SIZE),
      )
    expect((await load('?service=nope')).invalidService).toBe(true)
    expect((await load('?after=garbage')).invalidCursor).toBe(true)

    const first = await load('')
    expect(first.items.map((item) => item.id)).toEqual(newestFirst.slice(0, CUSTOMER_RESEARCH_PAGE_SIZE))
    expect(first.previous).toBeNull()
    const second = await load(`?after=${first.next}`)
    expect(second.items.map((item) => item.id)).toEqual(newestFirst.slice(CUSTOMER_RESEARCH_PAGE_SIZE))
    expect(second.next).toBeNull()
    expect((await load(`?before=${second.previous}`)).items.map((item) => item.id)).toEqual(
      first.items.map((item) => item.id),
    )

    const equityOnly = await load(`?service=${equity.id}`)
    expect(equityOnly.items.map((item) => item.id)).toEqual(newestFirst.filter((id) => ids.indexOf(id) % 2 === 0))
    expect(equityOnly.items.every((item) => item.services.join() === equity.name)).toBe(true)

    expect(first.items.every((item) => item.unread)).toBe(true)
    await researchItemRoute.loader(
      routeArgs(getRequest(`/research/${ids.at(-1)}`, reader.cookie), { itemId: ids.at(-1)! }),
    )
    await researchItemRoute.loader(
      routeArgs(getRequest(`/research/${ids.at(-1)}`, reader.cookie), { itemId: ids.at(-1)! }),
    )
    const afterReading = await researchPageFor(reader.userId, { serviceId: null, page: null })
    expect(afterReading.rows.filter((row) => row.readAt !== null).map((row) => row.id)).toEqual([ids.at(-1)])
  })
})

describe('research retention', () => {
  it('erases an item with its roll, deliveries and reads 5 years after publication, and keeps a younger one', async () => {
    const now = new Date()
    const cutoff = researchRetentionCutoff(now)
    expect(RESEARCH_KEPT_YEARS).toBe(5)
    expect(cutoff.getUTCFullYear()).toBe(now.getUTCFullYear() - 5)
    const service = await createService('Equity', 100_000, 30)
    const reader = await signedInUser({ completeProfile: true })
    await subscribe(reader.userId, service.id, new Date(cutoff.getTime() - 10 * DAY_MS), daysFromNow(30))
    const old = await publishedAt([service.id], new Date(cutoff.getTime() - DAY_MS), 'Over five years old')
    const young = await publishedAt([service.id], new Date(cutoff.getTime() + DAY_MS), 'Just under five years old')
    for (const itemId of [old, young]) {
      await researchItemRoute.loader(routeArgs(getRequest(`/research/${itemId}`, reader.cookie), { itemId }))
      expect(await prisma.researchDelivery.count({ where: { itemId } })).toBe(1)
    }

    const report = await eraseExpiredData(now)
    expect(report).toMatchObject({ researchItems: 1, researchRecords: 3 })
    expect(await prisma.researchItem.findUnique({ where: { id: old } })).toBeNull()
    for (const table of [prisma.researchRollEntry, prisma.researchDelivery, prisma.researchRead] as const)
      expect(await (table as typeof prisma.researchRead).count({ where: { itemId: old } })).toBe(0)
    expect(await prisma.researchItemService.count({ where: { itemId: old } })).toBe(0)
    expect(await prisma.auditLog.count({ where: { action: 'retention.erase', subjectId: old } })).toBe(1)
    expect(await prisma.researchRollEntry.count({ where: { itemId: young } })).toBe(1)
    expect(await prisma.researchRead.count({ where: { itemId: young } })).toBe(1)
    expect(await eraseExpiredData(now)).toMatchObject({ researchItems: 0, researchRecords: 0 })
  })

  it('keeps an old item, and its roll, while a correction of it is younger than 5 years; then erases both', async () => {
    const now = new Date()
    const cutoff = researchRetentionCutoff(now)
    const service = await createService('Equity', 100_000, 30)
    const reader = await signedInUser({ completeProfile: true })
    await subscribe(reader.userId, service.id, new Date(cutoff.getTime() - 10 * DAY_MS), daysFromNow(30))
    const original = await publishedAt([service.id], new Date(cutoff.getTime() - 2 * DAY_MS), 'Corrected later')
    const admin = await signedInUser({ role: 'ADMIN' })
    const correctionAt = new Date(cutoff.getTime() + DAY_MS)
    const correction = await createFollowUpDraft(
      admin.userId,
      original,
      {
        kind: 'CORRECTION',
        body: 'A figure was wrong.',
        targets: [],
        financialInterest: false,
        ownershipOnePercent: false,
        compensationPastYear: false,
        aiToolsUsed: false,
        otherConflict: 'None',
      },
      correctionAt,
    )
    if (!correction.ok) throw new Error(correction.reason)
    expect(await publishResearchItem(correction.id, admin.userId, correctionAt)).toMatchObject({ ok: true })

    await eraseExpiredData(now)
    for (const itemId of [original, correction.id]) {
      expect(await prisma.researchItem.count({ where: { id: itemId } })).toBe(1)
      expect(await prisma.researchRollEntry.count({ where: { itemId } })).toBe(1)
    }

    // Five years after the correction, both go, the correction first.
    const later = new Date(now.getTime() + 2 * DAY_MS)
    await eraseExpiredData(later)
    for (const itemId of [original, correction.id]) {
      expect(await prisma.researchItem.count({ where: { id: itemId } })).toBe(0)
      expect(await prisma.researchRollEntry.count({ where: { itemId } })).toBe(0)
    }
  })
})
