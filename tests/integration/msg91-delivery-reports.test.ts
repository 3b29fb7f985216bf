import { describe, expect, it } from 'vitest'
import * as webhookRoute from '~/routes/webhooks.msg91'
import { customerData } from '~/server/account/your-data.server'
import { prisma } from '~/server/db.server'
import { deliveryCounts } from '~/server/research/delivery-log.server'
import { createResearchDraft } from '~/server/research/items.server'
import { receiveMsg91Report } from '~/server/research/msg91-reports.server'
import { publishResearchItem } from '~/server/research/publishing.server'
import { createService } from '../support/payment-fixtures'
import { routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

// MSG91's delivery reports (docs/research.md, "Delivery reports"): only with the URL's secret; a
// delivered report marks the research SMS with that request id DELIVERED with its time; a forged
// or unknown id, a failure status, an e-mail row with the same id change nothing.

const SECRET = 'a'.repeat(40)
const DAY_MS = 86_400_000
const now = new Date('2026-11-29T06:00:00.000Z')

/** A published item on two customers' roll with an SMS delivery each, SENT under its MSG91 request id. */
async function sentSms() {
  const service = await createService('Reports', 100_000, 30)
  const readers = [await signedInUser({ completeProfile: true }), await signedInUser({ completeProfile: true })]
  for (const reader of readers)
    await prisma.subscription.create({
      data: {
        userId: reader.userId,
        serviceId: service.id,
        startsAt: new Date(now.getTime() - DAY_MS),
        endsAt: new Date(now.getTime() + DAY_MS),
        grantReason: 'delivery reports test',
        grantedById: reader.userId,
      },
    })
  const admin = await signedInUser({ role: 'ADMIN' })
  const draft = await createResearchDraft(admin.userId, {
    title: 'Steel',
    body: 'Volumes rose.',
    serviceIds: [service.id],
    financialInterest: false,
    ownershipOnePercent: false,
    compensationPastYear: false,
    aiToolsUsed: false,
    otherConflict: 'None',
  })
  if (!draft.ok) throw new Error(draft.message)
  const published = await publishResearchItem(draft.id, admin.userId, now)
  if (!published.ok) throw new Error(published.reason)
  const tag = `${Date.now()}${Math.random().toString(16).slice(2, 8)}`
  const ids = readers.map((_, index) => `req-${tag}-${index}`)
  for (const [index, reader] of readers.entries())
    await prisma.researchDelivery.create({
      data: {
        itemId: draft.id,
        userId: reader.userId,
        channel: 'SMS',
        status: 'SENT',
        attempts: 1,
        queuedAt: now,
        nextAttemptAt: now,
        sentAt: now,
        providerMessageId: ids[index],
      },
    })
  // The e-mail to the first reader carries the same id: a report is only ever about an SMS.
  await prisma.researchDelivery.updateMany({
    where: { itemId: draft.id, userId: readers[0]!.userId, channel: 'EMAIL' },
    data: { status: 'SENT', sentAt: now, providerMessageId: ids[0] },
  })
  return { itemId: draft.id, readers, ids }
}

const v2 = (requestId: string, status: string, date = '2026-11-29 11:31:05') =>
  new URLSearchParams({
    data: JSON.stringify([
      { senderId: 'RSTORE', requestId, report: [{ date, number: '919876543210', status, desc: 'DELIVERED' }] },
    ]),
  }).toString()

const post = (body: string, { secret = SECRET, type = 'application/x-www-form-urlencoded' } = {}) =>
  new Request(`http://localhost/webhooks/msg91?secret=${encodeURIComponent(secret)}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  })

const smsOf = (itemId: string, userId: string) =>
  prisma.researchDelivery.findFirstOrThrow({
    where: { itemId, userId, channel: 'SMS' },
    select: { status: true, deliveredAt: true, sentAt: true },
  })

describe('MSG91 delivery reports', () => {
  it('mark the research SMS delivered with the reported India time, once; the e-mail with the same id is untouched', async () => {
    const { itemId, readers, ids } = await sentSms()
    const answer = await receiveMsg91Report(post(v2(ids[0]!, '1')), SECRET, now)
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual({ ok: true, delivered: 1 })
    // 11:31:05 India time is 06:01:05 UTC; after `now`, so taken as now.
    expect(await smsOf(itemId, readers[0]!.userId)).toEqual({ status: 'DELIVERED', deliveredAt: now, sentAt: now })
    const early = await receiveMsg91Report(post(v2(ids[1]!, '1', '2026-11-29 11:29:00')), SECRET, now)
    expect(await early.json()).toEqual({ ok: true, delivered: 1 })
    expect((await smsOf(itemId, readers[1]!.userId)).deliveredAt).toEqual(new Date('2026-11-29T05:59:00.000Z'))
    expect(
      await prisma.researchDelivery.findFirstOrThrow({
        where: { itemId, userId: readers[0]!.userId, channel: 'EMAIL' },
        select: { status: true },
      }),
    ).toEqual({ status: 'SENT' })
    // A replay changes nothing.
    expect(await (await receiveMsg91Report(post(v2(ids[0]!, '1')), SECRET, now)).json()).toEqual({
      ok: true,
      delivered: 0,
    })
    expect(await deliveryCounts(itemId)).toEqual(
      expect.arrayContaining([{ channel: 'SMS', queued: 0, sent: 0, delivered: 2, failed: 0 }]),
    )
    const data = await customerData(readers[1]!.userId)
    expect(data?.researchDeliveries).toContainEqual(
      expect.objectContaining({ channel: 'SMS', status: 'DELIVERED', deliveredAt: '2026-11-29T05:59:00.000Z' }),
    )
  })

  it('reads MSG91’s JSON reports (webhook v3) too', async () => {
    const { itemId, readers, ids } = await sentSms()
    const body = JSON.stringify({ requestId: ids[1], status: '1', desc: 'DELIVERED', date: '2026-11-29 11:00:00' })
    const answer = await receiveMsg91Report(post(body, { type: 'application/json' }), SECRET, now)
    expect(await answer.json()).toEqual({ ok: true, delivered: 1 })
    expect((await smsOf(itemId, readers[1]!.userId)).deliveredAt).toEqual(new Date('2026-11-29T05:30:00.000Z'))
  })

  it('ignore a forged or unknown id and a failure status; refuse a wrong secret and a body that does not read', async () => {
    const { itemId, readers, ids } = await sentSms()
    expect(await (await receiveMsg91Report(post(v2('req-forged', '1')), SECRET, now)).json()).toEqual({
      ok: true,
      delivered: 0,
    })
    expect(await (await receiveMsg91Report(post(v2(ids[0]!, '2')), SECRET, now)).json()).toEqual({
      ok: true,
      delivered: 0,
    })
    const wrong = await receiveMsg91Report(post(v2(ids[0]!, '1'), { secret: 'b'.repeat(40) }), SECRET, now)
    expect(wrong.status).toBe(401)
    const none = await receiveMsg91Report(
      new Request('http://localhost/webhooks/msg91', { method: 'POST', body: v2(ids[0]!, '1') }),
      SECRET,
      now,
    )
    expect(none.status).toBe(401)
    expect((await receiveMsg91Report(post('not json', { type: 'application/json' }), SECRET, now)).status).toBe(400)
    expect((await receiveMsg91Report(post('x'.repeat(300 * 1024)), SECRET, now)).status).toBe(413)
    for (const reader of readers) expect((await smsOf(itemId, reader.userId)).status).toBe('SENT')
  })

  it('is no endpoint without MSG91_WEBHOOK_SECRET (404), as the route answers here', async () => {
    const { ids } = await sentSms()
    const answer = await webhookRoute.action(routeArgs(post(v2(ids[0]!, '1'))))
    expect(answer.status).toBe(404)
  })
})
