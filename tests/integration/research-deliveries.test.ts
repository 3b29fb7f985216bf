import { describe, expect, it } from 'vitest'
import { customerData } from '~/server/account/your-data.server'
import { prisma } from '~/server/db.server'
import { MailDeliveryError, type Email } from '~/server/messaging/mail.server'
import { createResearchDraft } from '~/server/research/items.server'
import { publishResearchItem } from '~/server/research/publishing.server'
import {
  RESEARCH_DELIVERY_ATTEMPTS,
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
