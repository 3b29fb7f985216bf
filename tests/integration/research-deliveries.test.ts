import { describe, expect, it, vi } from 'vitest'
import { customerData } from '~/server/account/your-data.server'
import { prisma } from '~/server/db.server'
import { MailDeliveryError, type Email } from '~/server/messaging/mail.server'
import { createResearchDraft } from '~/server/research/items.server'
import { publishResearchItem } from '~/server/research/publishing.server'
import {
  RESEARCH_DELIVERY_ATTEMPTS,
  RESEARCH_DELIVERY_CLAIM_MS,
  RESEARCH_DELIVERY_CONCURRENCY,
  researchDeliveryBackoffMs,
  sendDueResearchDeliveries,
} from '~/server/research/deliveries.server'
import { createService } from '../support/payment-fixtures'
import { signedInUser } from '../support/sessions'

const DAY_MS = 86_400_000

async function publishedTo(customers: number, { withoutEmail = 0 } = {}) {
  const service = await createService('Deliveries', 100_000, 30)
  const now = new Date()
  const readers = await Promise.all(Array.from({ length: customers }, () => signedInUser({ completeProfile: true })))
  const plain = await Promise.all(Array.from({ length: withoutEmail }, () => signedInUser({ completeProfile: true })))
  for (const user of plain) await prisma.user.update({ where: { id: user.userId }, data: { email: null } })
  for (const user of [...readers, ...plain])
    await prisma.subscription.create({
      data: {
        userId: user.userId,
        serviceId: service.id,
        startsAt: new Date(now.getTime() - DAY_MS),
        endsAt: new Date(now.getTime() + DAY_MS),
        grantReason: 'deliveries test',
        grantedById: user.userId,
      },
    })
  const admin = await signedInUser({ role: 'ADMIN' })
  const draft = await createResearchDraft(admin.userId, {
    title: 'Cement: <script>alert(1)</script> volumes',
    body: '## Summary\nVolumes rose.\n\n- Capacity up\n- Prices flat',
    serviceIds: [service.id],
    financialInterest: false,
    ownershipOnePercent: false,
    compensationPastYear: false,
    aiToolsUsed: true,
    otherConflict: 'None',
  })
  if (!draft.ok) throw new Error(draft.message)
  const published = await publishResearchItem(draft.id, admin.userId, now)
  if (!published.ok) throw new Error(published.reason)
  return { itemId: draft.id, readers, plain, now }
}

/** Runs the job until nothing of this item is due at `now`. */
async function drain(itemId: string, now: Date, send: (email: Email) => Promise<string | void>) {
  for (let round = 0; round < 20; round++) {
    const due = await prisma.researchDelivery.count({
      where: { itemId, status: 'QUEUED', nextAttemptAt: { lte: now } },
    })
    if (due === 0) return
    await sendDueResearchDeliveries({ now, send })
  }
  throw new Error('deliveries never drained')
}

describe('research deliveries by e-mail', () => {
  it('queues one EMAIL row per recipient with an e-mail address when an item is published', async () => {
    const { itemId, readers, plain } = await publishedTo(2, { withoutEmail: 1 })
    const rows = await prisma.researchDelivery.findMany({ where: { itemId } })
    expect(rows.map((row) => row.userId).sort()).toEqual(readers.map((reader) => reader.userId).sort())
    expect(rows.every((row) => row.channel === 'EMAIL' && row.status === 'QUEUED' && row.attempts === 0)).toBe(true)
    expect(rows.some((row) => row.userId === plain[0]!.userId)).toBe(false)
  })

  it('names each delivery row by a UUID of version 7, its millisecond first, so a publication appends to the log', async () => {
    const before = Date.now()
    const { itemId } = await publishedTo(3)
    const rows = await prisma.researchDelivery.findMany({ where: { itemId } })
    expect(rows).toHaveLength(3)
    for (const { id } of rows) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      const milliseconds = parseInt(id.replace(/-/g, '').slice(0, 12), 16)
      // The database's clock, not this process's: within a minute of it.
      expect(milliseconds).toBeGreaterThan(before - 60_000)
      expect(milliseconds).toBeLessThan(Date.now() + 60_000)
    }
  })

  it('sends each e-mail once, with the item, its disclosures and signature, when two workers run at once', async () => {
    const { itemId, readers, now } = await publishedTo(4)
    const readerIds = readers.map((reader) => reader.userId)
    const sent: Email[] = []
    const send = async (email: Email) => {
      await new Promise((resolve) => setImmediate(resolve))
      sent.push(email)
      return `msg-${sent.length}`
    }
    await Promise.all([
      sendDueResearchDeliveries({ now, send, batchSize: 2 }),
      sendDueResearchDeliveries({ now, send, batchSize: 2 }),
    ])
    await drain(itemId, now, send)
    const mine = sent.filter((email) => email.subject.startsWith('Research: ') && readerIds.includes(email.userId!))
    expect(mine.map((email) => email.userId).sort()).toEqual([...readerIds].sort())
    const rows = await prisma.researchDelivery.findMany({ where: { itemId } })
    expect(rows.every((row) => row.status === 'SENT' && row.sentAt && row.attempts === 1)).toBe(true)
    expect(rows.every((row) => row.providerMessageId?.startsWith('msg-'))).toBe(true)
    const email = mine[0]!
    expect(email.subject).toContain('Cement: <script>alert(1)</script> volumes')
    expect(email.html).not.toContain('<script>')
    expect(email.html).toContain('&lt;script&gt;')
    expect(email.body).toContain('Capacity up')
    expect(email.body).toContain('Research Analyst')
    expect(email.body).toContain('Artificial intelligence tools used in preparing this report: Yes')
    expect(email.body).toMatch(/Signature fingerprint: [0-9a-f]{4}/i)
    expect(email.body).toContain(`/research/${itemId}`)
  })

  it(`tries e-mails several at once, never more than ${RESEARCH_DELIVERY_CONCURRENCY}`, async () => {
    const { itemId, now } = await publishedTo(RESEARCH_DELIVERY_CONCURRENCY + 4)
    let inFlight = 0
    let most = 0
    await drain(itemId, now, async () => {
      most = Math.max(most, ++inFlight)
      await new Promise((resolve) => setImmediate(resolve))
      inFlight--
      return 'msg-at-once'
    })
    // One run may work on two batches at once, sharing the bound; these rows fit in one.
    expect(most).toBeGreaterThan(1)
    expect(most).toBeLessThanOrEqual(RESEARCH_DELIVERY_CONCURRENCY)
    const rows = await prisma.researchDelivery.findMany({ where: { itemId } })
    expect(rows).toHaveLength(RESEARCH_DELIVERY_CONCURRENCY + 4)
    expect(rows.every((row) => row.status === 'SENT' && row.attempts === 1)).toBe(true)
  })

  it('writes each row its own outcome when one batch is sent, put off and refused', async () => {
    const { itemId, readers, now } = await publishedTo(3)
    const [sentTo, laterTo, refusedTo] = readers.map((reader) => reader.userId)
    await sendDueResearchDeliveries({
      now,
      send: async (email) => {
        if (email.userId === laterTo) throw new MailDeliveryError('SMTP refused: 451 try later', true)
        if (email.userId === refusedTo) throw new MailDeliveryError('SMTP refused: 550 no such mailbox', false)
        return 'msg-sent'
      },
    })
    const rowOf = (userId: string | undefined) =>
      prisma.researchDelivery.findFirstOrThrow({ where: { itemId, userId } })
    expect(await rowOf(sentTo)).toMatchObject({
      status: 'SENT',
      attempts: 1,
      sentAt: now,
      failedAt: null,
      providerMessageId: 'msg-sent',
      lastError: null,
    })
    expect(await rowOf(laterTo)).toMatchObject({
      status: 'QUEUED',
      attempts: 1,
      sentAt: null,
      nextAttemptAt: new Date(now.getTime() + researchDeliveryBackoffMs(1)),
      lastError: expect.stringContaining('451 try later'),
    })
    expect(await rowOf(refusedTo)).toMatchObject({
      status: 'FAILED',
      attempts: 1,
      sentAt: null,
      failedAt: now,
      lastError: expect.stringContaining('550 no such mailbox'),
    })
    const archived = await prisma.sentMessage.findMany({
      where: { userId: { in: [sentTo!, laterTo!, refusedTo!] }, template: 'research' },
    })
    expect(archived).toEqual([
      expect.objectContaining({ userId: sentTo, channel: 'email', providerMessageId: 'msg-sent', sentAt: now }),
    ])
  })

  it('sends again the rows of a worker stalled past its claim, and keeps the outcome written first', async () => {
    const { itemId, readers, now } = await publishedTo(2)
    const readerIds = readers.map((reader) => reader.userId).sort()
    const stalledSends: Array<() => void> = []
    const stalled = sendDueResearchDeliveries({
      now,
      send: (email) =>
        readerIds.includes(email.userId!)
          ? new Promise((resolve) => stalledSends.push(() => resolve('msg-stalled')))
          : Promise.resolve('msg-other'),
    })
    await vi.waitFor(() => expect(stalledSends).toHaveLength(2))
    // Earlier tests' rows put off come due too: only this item's count.
    const resent: Email[] = []
    const sendAgain = async (email: Email) => {
      if (readerIds.includes(email.userId!)) resent.push(email)
      return `msg-again-${resent.length}`
    }
    // Not before its claim runs out.
    await sendDueResearchDeliveries({ now: new Date(now.getTime() + RESEARCH_DELIVERY_CLAIM_MS - 1), send: sendAgain })
    expect(resent).toHaveLength(0)
    const later = new Date(now.getTime() + RESEARCH_DELIVERY_CLAIM_MS)
    await sendDueResearchDeliveries({ now: later, send: sendAgain })
    expect(resent.map((email) => email.userId).sort()).toEqual(readerIds)
    // The stalled worker's sends finish after all: its outcome does not overwrite the one written.
    for (const finish of stalledSends) finish()
    await stalled
    const rows = await prisma.researchDelivery.findMany({ where: { itemId } })
    expect(rows).toHaveLength(2)
    for (const row of rows)
      expect(row).toMatchObject({
        status: 'SENT',
        attempts: 2,
        sentAt: later,
        providerMessageId: expect.stringMatching(/^msg-again-/),
      })
  })

  it('retries a failing send with backoff, then marks it failed with the reason', async () => {
    const { itemId, now } = await publishedTo(1)
    const failing = async () => {
      throw new MailDeliveryError('SMTP refused: 451 try later', true)
    }
    let at = now
    for (let attempt = 1; attempt <= RESEARCH_DELIVERY_ATTEMPTS; attempt++) {
      await drain(itemId, at, failing)
      const row = await prisma.researchDelivery.findFirstOrThrow({ where: { itemId } })
      expect(row.attempts).toBe(attempt)
      if (attempt < RESEARCH_DELIVERY_ATTEMPTS) {
        expect(row.status).toBe('QUEUED')
        expect(row.nextAttemptAt.getTime()).toBe(at.getTime() + researchDeliveryBackoffMs(attempt))
        // Not due again before its backoff.
        await sendDueResearchDeliveries({ now: at, send: failing })
        expect((await prisma.researchDelivery.findFirstOrThrow({ where: { itemId } })).attempts).toBe(attempt)
        at = row.nextAttemptAt
      } else {
        expect(row.status).toBe('FAILED')
        expect(row.failedAt).toEqual(at)
        expect(row.lastError).toContain('451 try later')
      }
    }
  })

  it('marks a permanent refusal failed at once', async () => {
    const { itemId, now } = await publishedTo(1)
    await drain(itemId, now, async () => {
      throw new MailDeliveryError('SMTP refused: 550 no such mailbox', false)
    })
    const row = await prisma.researchDelivery.findFirstOrThrow({ where: { itemId } })
    expect(row).toMatchObject({ status: 'FAILED', attempts: 1 })
    expect(row.lastError).toContain('550 no such mailbox')
  })

  it("includes the customer's deliveries in their data", async () => {
    const { itemId, readers, now } = await publishedTo(1)
    await drain(itemId, now, async () => 'provider-1')
    const data = await customerData(readers[0]!.userId)
    expect(data?.researchDeliveries).toEqual([
      {
        item: 'Cement: <script>alert(1)</script> volumes',
        channel: 'EMAIL',
        status: 'SENT',
        queuedAt: now.toISOString(),
        sentAt: now.toISOString(),
        deliveredAt: null,
        failedAt: null,
        failureReason: null,
      },
    ])
  })
})

describe('research e-mails through the store mail provider', () => {
  it('puts the e-mail in the dev outbox and records its id', async () => {
    const { itemId, readers, now } = await publishedTo(1)
    for (let round = 0; round < 20; round++) {
      const row = await prisma.researchDelivery.findFirstOrThrow({ where: { itemId } })
      if (row.status !== 'QUEUED') break
      await sendDueResearchDeliveries({ now })
    }
    const row = await prisma.researchDelivery.findFirstOrThrow({ where: { itemId } })
    expect(row.status).toBe('SENT')
    expect(row.providerMessageId).toMatch(/^outbox-\d+$/)
    const message = await prisma.outboxMessage.findUniqueOrThrow({
      where: { id: BigInt(row.providerMessageId!.slice('outbox-'.length)) },
    })
    expect(message).toMatchObject({ channel: 'email', subject: 'Research: Cement: <script>alert(1)</script> volumes' })
    expect(message.body).toContain(`/research/${itemId}`)
    expect(readers).toHaveLength(1)
  })
})
