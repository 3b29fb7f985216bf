import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { BulkNoticeForm } from '~/domain/bulk-notice'
import { MS_PER_DAY } from '~/domain/dates'
import { reviewBulkNotice, sendBulkNotice } from '~/server/admin/bulk-notices.server'
import { prisma } from '~/server/db.server'
import { sendEmail } from '~/server/messaging/delivery.server'
import { createService } from '../support/payment-fixtures'
import { queuedEmails } from '../support/queued-emails'
import { uniqueMobile } from '../support/sample-customer'

// Notices to chosen customers (issue 28 item 7): counted before, audited with their words, sent once.

async function customer({ email = true, closed = false } = {}) {
  const phone = `+91${uniqueMobile()}`
  return prisma.user.create({
    data: {
      phone,
      name: 'asha rao',
      email: email ? `notice-${randomUUID()}@example.com` : null,
      closedAt: closed ? new Date() : null,
    },
    select: { id: true, phone: true, email: true },
  })
}

async function admin() {
  return prisma.user.create({ data: { phone: `+91${uniqueMobile()}`, role: 'ADMIN' }, select: { id: true } })
}

const words = { subject: 'A change to our service', body: 'From Monday the reports come at 8 am.\n\nThank you.' }
const chosen = (...phones: string[]): BulkNoticeForm => ({ audience: 'CHOSEN', phones: phones.join('\n'), ...words })

describe('a notice to chosen customers', () => {
  it('counts who it reaches, who has no e-mail address, and numbers that are no customer', async () => {
    const [withEmail, withoutEmail] = [await customer(), await customer({ email: false })]
    const review = await reviewBulkNotice(chosen(withEmail.phone, withoutEmail.phone, `+91${uniqueMobile()}`))
    expect(review).toEqual({ reached: 1, withoutEmail: 1, unknownNumbers: 1 })
  })

  it('is audited with its words and recipients and queued once, however often Send is pressed', async () => {
    const [reader, sender] = [await customer(), await admin()]
    const noticeKey = randomUUID()
    const notice = chosen(reader.phone)
    const [first, second] = await Promise.all([
      sendBulkNotice({ notice, noticeKey, adminId: sender.id }),
      sendBulkNotice({ notice, noticeKey, adminId: sender.id }),
    ])
    expect([first.alreadySent, second.alreadySent].sort()).toEqual([false, true])

    const audits = await prisma.auditLog.findMany({ where: { action: 'notice.bulk', subjectId: noticeKey } })
    expect(audits).toHaveLength(1)
    expect(audits[0]).toMatchObject({
      actorId: sender.id,
      after: expect.objectContaining({ audience: 'CHOSEN', ...words, queued: 1, recipientIds: [reader.id] }),
    })
    const queued = await queuedEmails(reader.email!)
    expect(queued).toHaveLength(1)
    expect(queued[0]).toMatchObject({ template: 'bulk-notice', subject: words.subject, userId: reader.id })
    expect(queued[0]!.body).toContain('From Monday the reports come at 8 am.')
  })
})

describe('who a notice reaches', () => {
  it('open accounts only, unless it is for everyone whose data is held (a breach notice)', async () => {
    const [open, closed, sender] = [await customer(), await customer({ closed: true }), await admin()]
    await sendBulkNotice({ notice: { audience: 'OPEN', ...words }, noticeKey: randomUUID(), adminId: sender.id })
    expect(await queuedEmails(open.email!)).toHaveLength(1)
    expect(await queuedEmails(closed.email!)).toHaveLength(0)

    await sendBulkNotice({ notice: { audience: 'HELD', ...words }, noticeKey: randomUUID(), adminId: sender.id })
    const [breachNotice] = await queuedEmails(closed.email!)
    expect(breachNotice).toMatchObject({ userId: closed.id, evenIfClosed: true })
    // The worker sends it though the account is closed (other notices to it are dropped).
    await sendEmail(breachNotice!)
    expect(await prisma.outboxMessage.count({ where: { recipient: closed.email!, subject: words.subject } })).toBe(1)
    await sendEmail({ ...breachNotice!, evenIfClosed: undefined, subject: 'Not for a closed account' })
    expect(
      await prisma.outboxMessage.count({ where: { recipient: closed.email!, subject: 'Not for a closed account' } }),
    ).toBe(0)
  })

  it("a service's running subscribers, not its past ones", async () => {
    const service = await createService(`Notice ${randomUUID().slice(0, 8)}`, 99_900, 30)
    const [running, ended, sender] = [await customer(), await customer(), await admin()]
    const now = new Date()
    for (const [user, endsAt] of [
      [running, new Date(now.getTime() + 5 * MS_PER_DAY)],
      [ended, new Date(now.getTime() - MS_PER_DAY)],
    ] as const)
      await prisma.subscription.create({
        data: {
          userId: user.id,
          serviceId: service.id,
          startsAt: new Date(now.getTime() - 30 * MS_PER_DAY),
          endsAt,
          grantReason: 'test',
          grantedById: sender.id,
        },
      })
    const notice: BulkNoticeForm = { audience: 'SERVICE', serviceId: service.id, ...words }
    expect(await reviewBulkNotice(notice, now)).toEqual({ reached: 1, withoutEmail: 0, unknownNumbers: 0 })
    await sendBulkNotice({ notice, noticeKey: randomUUID(), adminId: sender.id, now })
    expect(await queuedEmails(running.email!)).toHaveLength(1)
    expect(await queuedEmails(ended.email!)).toHaveLength(0)
  })
})
