import { describe, expect, it } from 'vitest'
import * as adminFollowUpRoute from '~/routes/admin/research-follow-up'
import * as adminItemRoute from '~/routes/admin/research-item'
import * as adminNewRoute from '~/routes/admin/research-new'
import * as researchItemRoute from '~/routes/research.item'
import { prisma } from '~/server/db.server'
import { emailContext } from '~/server/messaging/customer-notices.server'
import { researchEmail } from '~/server/research/deliveries.server'
import { researchItemSelect } from '~/server/research/items.server'
import { publishResearchItem, verifyStoredResearchItem } from '~/server/research/publishing.server'
import { publishDueScheduledResearch, scheduleResearchItem } from '~/server/research/scheduling.server'
import { createService } from '../support/payment-fixtures'
import { formRequest, getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'
import { callForm, DISCLOSURE_ANSWERS, idFrom, thrownStatus } from '../support/research-forms'

const DAY_MS = 86_400_000

type Refused = { init: { status: number }; data: { result: { error: Record<string, string[]> } } }

async function subscribe(userId: string, serviceId: string, now = Date.now()) {
  await prisma.subscription.create({
    data: {
      userId,
      serviceId,
      startsAt: new Date(now - DAY_MS),
      endsAt: new Date(now + 30 * DAY_MS),
      grantReason: 'research calls test',
      grantedById: userId,
    },
  })
}

async function publishedCall(serviceId: string, adminCookie: string, adminId: string) {
  const created = (await adminNewRoute.action(
    routeArgs(formRequest('/admin/research/new', callForm(serviceId), adminCookie)),
  )) as Response
  expect(created.status).toBe(302)
  const itemId = idFrom(created)
  expect(await publishResearchItem(itemId, adminId)).toMatchObject({ ok: true })
  return itemId
}

describe('calls', () => {
  it('are refused without a rationale or with a stop-loss on the wrong side, each message on its field', async () => {
    const service = await createService('Equity', 100_000, 30)
    const admin = await signedInUser({ role: 'ADMIN' })
    const noRationale = (await adminNewRoute.action(
      routeArgs(formRequest('/admin/research/new', callForm(service.id, { body: '' }), admin.cookie)),
    )) as unknown as Refused
    expect(noRationale.init.status).toBe(400)
    expect(noRationale.data.result.error.body).toEqual(['Enter the rationale.'])
    const wrongSide = (await adminNewRoute.action(
      routeArgs(formRequest('/admin/research/new', callForm(service.id, { stopLoss: '1550' }), admin.cookie)),
    )) as unknown as Refused
    expect(wrongSide.init.status).toBe(400)
    expect(wrongSide.data.result.error.stopLoss).toEqual([
      'For a buy call the stop-loss must be below the entry (Rs. 1,500).',
    ])
    expect(await prisma.researchItem.count({ where: { kind: 'CALL' } })).toBe(0)
  })

  it('are signed with their terms, printed on the page and in the e-mail', async () => {
    const service = await createService('Equity', 100_000, 30)
    const admin = await signedInUser({ role: 'ADMIN' })
    const reader = await signedInUser({ completeProfile: true })
    await subscribe(reader.userId, service.id)
    const itemId = await publishedCall(service.id, admin.cookie, admin.userId)

    expect(await prisma.researchItem.findUniqueOrThrow({ where: { id: itemId } })).toMatchObject({
      kind: 'CALL',
      exchange: 'NSE',
      symbol: 'HDFCBANK',
      callAction: 'BUY',
      entryLowPaise: 150_000,
      entryHighPaise: null,
      targetsPaise: [160_000],
      stopLossPaise: 145_000,
      horizon: '3 months',
    })
    expect(await verifyStoredResearchItem(itemId)).toBe('verified')
    // The stop-loss is signed: moving it in the database breaks the signature.
    await prisma.researchItem.update({ where: { id: itemId }, data: { stopLossPaise: 140_000 } })
    expect(await verifyStoredResearchItem(itemId)).toBe('altered')
    await prisma.researchItem.update({ where: { id: itemId }, data: { stopLossPaise: 145_000 } })

    const shown = await researchItemRoute.loader(
      routeArgs(getRequest(`/research/${itemId}`, reader.cookie), { itemId }),
    )
    expect(shown.item.kindWords).toBe('Call')
    expect(shown.item.bodyHeading).toBe('Rationale')
    expect(shown.item.facts).toContainEqual({ label: 'Stop-loss', value: 'Rs. 1,450' })
    const row = await prisma.researchItem.findUniqueOrThrow({ where: { id: itemId }, select: researchItemSelect })
    const email = researchEmail(row, await emailContext())('Asha')
    for (const line of ['Instrument: NSE: HDFCBANK', 'Action: Buy', 'Entry price: Rs. 1,500', 'Target: Rs. 1,600'])
      expect(email.body).toContain(line)
    expect(email.body).toContain('Stop-loss: Rs. 1,450')
    expect(email.body).toContain('Rationale:')
  })
})

describe('follow-ups, corrections and withdrawals', () => {
  it("reach exactly the original's roll, once when published twice at once, and the original links to them", async () => {
    const service = await createService('Equity', 100_000, 30)
    const admin = await signedInUser({ role: 'ADMIN' })
    const other = await signedInUser({ role: 'ADMIN' })
    const early = await signedInUser({ completeProfile: true })
    await subscribe(early.userId, service.id)
    const originalId = await publishedCall(service.id, admin.cookie, admin.userId)
    // Subscribed after the call was published: not on its roll, so not sent its follow-ups either.
    const late = await signedInUser({ completeProfile: true })
    await subscribe(late.userId, service.id)

    const wrongSide = (await adminFollowUpRoute.action(
      routeArgs(
        formRequest(
          `/admin/research/${originalId}/follow-up`,
          { kind: 'STOP_LOSS_REVISED', body: 'Trail the stop.', stopLoss: '1510', ...DISCLOSURE_ANSWERS },
          admin.cookie,
        ),
        { itemId: originalId },
      ),
    )) as unknown as Refused
    expect(wrongSide.init.status).toBe(400)
    expect(wrongSide.data.result.error.stopLoss).toEqual([
      'For a buy call the stop-loss must be below the entry (Rs. 1,500).',
    ])

    const created = (await adminFollowUpRoute.action(
      routeArgs(
        formRequest(
          `/admin/research/${originalId}/follow-up`,
          { kind: 'STOP_LOSS_REVISED', body: 'Trail the stop.', stopLoss: '1480', ...DISCLOSURE_ANSWERS },
          admin.cookie,
        ),
        { itemId: originalId },
      ),
    )) as Response
    expect(created.status).toBe(302)
    const followUpId = idFrom(created)
    expect(await prisma.researchItem.findUniqueOrThrow({ where: { id: followUpId } })).toMatchObject({
      kind: 'FOLLOW_UP',
      status: 'DRAFT',
      originalId,
      followUpKind: 'STOP_LOSS_REVISED',
      stopLossPaise: 148_000,
      title: 'Stop-loss revised: Buy HDFC Bank',
    })

    const now = new Date()
    const results = await Promise.all([
      publishResearchItem(followUpId, admin.userId, now),
      publishResearchItem(followUpId, other.userId, new Date(now.getTime() + 1)),
    ])
    expect(results.filter((result) => result.ok)).toEqual([{ ok: true, rollSize: 1, publishedAt: expect.any(Date) }])
    const roll = await prisma.researchRollEntry.findMany({ where: { itemId: followUpId }, select: { userId: true } })
    expect(roll).toEqual([{ userId: early.userId }])
    const deliveries = await prisma.researchDelivery.findMany({
      where: { itemId: followUpId },
      select: { userId: true, channel: true, status: true },
    })
    expect(deliveries).toEqual([{ userId: early.userId, channel: 'EMAIL', status: 'QUEUED' }])
    expect(await verifyStoredResearchItem(followUpId)).toBe('verified')
    const followUpRow = await prisma.researchItem.findUniqueOrThrow({
      where: { id: followUpId },
      select: researchItemSelect,
    })
    const email = researchEmail(followUpRow, await emailContext())('Asha')
    expect(email.subject).toBe('Research: Stop-loss revised: Buy HDFC Bank')
    expect(email.body).toContain('Stop-loss revised of: Buy HDFC Bank')
    expect(email.body).toContain('New stop-loss: Rs. 1,480')

    const original = await researchItemRoute.loader(
      routeArgs(getRequest(`/research/${originalId}`, early.cookie), { itemId: originalId }),
    )
    expect(original.item.followUps).toEqual([
      expect.objectContaining({
        id: followUpId,
        kindWords: 'Stop-loss revised',
        title: 'Stop-loss revised: Buy HDFC Bank',
      }),
    ])
    const followUp = await researchItemRoute.loader(
      routeArgs(getRequest(`/research/${followUpId}`, early.cookie), { itemId: followUpId }),
    )
    expect(followUp.item.original).toEqual({ id: originalId, title: 'Buy HDFC Bank' })
    expect(followUp.item.facts).toContainEqual({ label: 'New stop-loss', value: 'Rs. 1,480' })
    // Not sent to a later subscriber, who can still read it in the service's archive (decision 040).
    const inArchive = await researchItemRoute.loader(
      routeArgs(getRequest(`/research/${followUpId}`, late.cookie), { itemId: followUpId }),
    )
    expect(inArchive.item.id).toBe(followUpId)
    const adminPage = await adminItemRoute.loader(
      routeArgs(getRequest(`/admin/research/${originalId}`, admin.cookie), { itemId: originalId }),
    )
    expect(adminPage.item.followUps.map((item) => item.id)).toEqual([followUpId])
  })

  it('are written only for a published report or call: not a draft, not a follow-up, not a report hit', async () => {
    const service = await createService('Equity', 100_000, 30)
    const admin = await signedInUser({ role: 'ADMIN' })
    const post = (itemId: string, fields: Record<string, string>) =>
      adminFollowUpRoute.action(
        routeArgs(
          formRequest(`/admin/research/${itemId}/follow-up`, { ...DISCLOSURE_ANSWERS, ...fields }, admin.cookie),
          {
            itemId,
          },
        ),
      )
    const draft = (await adminNewRoute.action(
      routeArgs(formRequest('/admin/research/new', callForm(service.id), admin.cookie)),
    )) as Response
    const draftId = idFrom(draft)
    expect(await thrownStatus(post(draftId, { kind: 'CORRECTION', body: 'Oops.' }))).toBe(404)
    expect(
      await thrownStatus(
        adminFollowUpRoute.loader(
          routeArgs(getRequest(`/admin/research/nope/follow-up`, admin.cookie), { itemId: 'nope' }),
        ),
      ),
    ).toBe(404)

    await publishResearchItem(draftId, admin.userId)
    const withdrawal = (await post(draftId, { kind: 'WITHDRAWAL', body: 'Results delayed.' })) as Response
    const withdrawalId = idFrom(withdrawal)
    expect(await thrownStatus(post(withdrawalId, { kind: 'CORRECTION', body: 'Again.' }))).toBe(404)

    const report = (await adminNewRoute.action(
      routeArgs(
        formRequest(
          '/admin/research/new',
          { title: 'Banks', body: 'Margins held.', serviceIds: service.id, ...DISCLOSURE_ANSWERS },
          admin.cookie,
        ),
      ),
    )) as Response
    const reportId = idFrom(report)
    await publishResearchItem(reportId, admin.userId)
    const hit = (await post(reportId, { kind: 'TARGET_HIT', body: 'Hit.', price: '10' })) as unknown as Refused
    expect(hit.init.status).toBe(400)
    expect(hit.data.result.error.kind).toEqual(['A report can only be corrected or withdrawn.'])
    const correction = (await post(reportId, {
      kind: 'CORRECTION',
      body: 'The margin was 3.1%, not 3.4%.',
    })) as Response
    expect(correction.status).toBe(302)
    const correctionId = idFrom(correction)
    await publishResearchItem(correctionId, admin.userId)
    expect(await verifyStoredResearchItem(correctionId)).toBe('verified')
    expect(await verifyStoredResearchItem(reportId)).toBe('verified')
  })

  it('after a call has ended (closed or stopped out) are only corrections, however they were drafted or scheduled', async () => {
    const service = await createService('Equity', 100_000, 30)
    const admin = await signedInUser({ role: 'ADMIN' })
    const subscriber = await signedInUser({ completeProfile: true })
    await subscribe(subscriber.userId, service.id)
    const callId = await publishedCall(service.id, admin.cookie, admin.userId)
    const post = (fields: Record<string, string>) =>
      adminFollowUpRoute.action(
        routeArgs(
          formRequest(`/admin/research/${callId}/follow-up`, { ...DISCLOSURE_ANSWERS, ...fields }, admin.cookie),
          { itemId: callId },
        ),
      )
    // Drafted (and one scheduled) while the call runs, published only after it is closed.
    const revision = idFrom((await post({ kind: 'TARGET_REVISED', body: 'Raise it.', targets: '1700' })) as Response)
    const scheduled = idFrom((await post({ kind: 'TARGET_HIT', body: 'Hit.', price: '1600' })) as Response)
    const closedAt = new Date()
    expect(await scheduleResearchItem(scheduled, admin.userId, new Date(closedAt.getTime() + 60_000))).toEqual({
      ok: true,
    })
    const close = idFrom((await post({ kind: 'CLOSED', body: 'Booked.', price: '1580' })) as Response)
    expect(await publishResearchItem(close, admin.userId, closedAt)).toMatchObject({ ok: true })

    expect(await publishResearchItem(revision, admin.userId)).toEqual({ ok: false, reason: 'original-ended' })
    expect(await prisma.researchItem.findUniqueOrThrow({ where: { id: revision } })).toMatchObject({
      status: 'DRAFT',
      publishedAt: null,
    })
    expect(await prisma.researchRollEntry.count({ where: { itemId: revision } })).toBe(0)
    expect(await publishDueScheduledResearch(new Date(closedAt.getTime() + 120_000))).toEqual({ published: 0 })
    expect(await prisma.researchItem.findUniqueOrThrow({ where: { id: scheduled } })).toMatchObject({
      status: 'DRAFT',
      scheduledAt: null,
    })

    const hit = (await post({ kind: 'TARGET_HIT', body: 'Hit.', price: '1600' })) as unknown as Refused
    expect(hit.init.status).toBe(400)
    expect(hit.data.result.error.kind).toEqual([
      'This call has ended (stop-loss hit or closed): only a correction can follow it.',
    ])
    const page = await adminFollowUpRoute.loader(
      routeArgs(getRequest(`/admin/research/${callId}/follow-up`, admin.cookie), { itemId: callId }),
    )
    expect(page.kinds).toEqual(['CORRECTION'])
    const correction = idFrom((await post({ kind: 'CORRECTION', body: 'Closed at 1,580, not 1,850.' })) as Response)
    expect(await publishResearchItem(correction, admin.userId)).toMatchObject({ ok: true, rollSize: 1 })
  })
})
