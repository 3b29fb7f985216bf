import { randomInt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { indiaMidnight, MS_PER_DAY } from '~/domain/dates'
import { complaintCutoff } from '~/domain/record-retention'
import { prisma } from '~/server/db.server'
import { markPaymentPaid } from '~/server/payments/core.server'
import { nextDocumentNumber } from '~/server/payments/ledger.server'
import { eraseExpiredData } from '~/server/account/retention.server'
import type { FileStorage } from '~/server/storage.server'
import { cartItemOf, createPaymentRow, createService, createUser, recordTestRefund } from '../support/payment-fixtures'

// The retention job's second half with an injected clock: the records the law keeps longer than
// the account (payments and what hangs off them, complaints) go when their own period ends, and
// nothing else does.

const MS = 1
/** FY 2020-21's GST period ends on 31-12-2027: its records may go from 01-01-2028 India time. */
const FY_2020_21_ERASABLE_FROM = indiaMidnight('2028-01-01')
const LAST_MOMENT_OF_FY_2020_21 = new Date(indiaMidnight('2021-04-01').getTime() - MS)
const FIRST_MOMENT_OF_FY_2021_22 = indiaMidnight('2021-04-01')

function recordingStorage() {
  const deleted: string[] = []
  const storage: FileStorage = {
    kind: 'filesystem',
    put: () => Promise.resolve(),
    putFile: () => Promise.resolve(),
    get: () => Promise.resolve(null),
    delete: (key) => {
      deleted.push(key)
      return Promise.resolve()
    },
  }
  return { storage, deleted }
}

/** Marks an account erased as the retention job does (the parts these rules read). */
async function erase(userId: string, at: Date) {
  await prisma.$executeRaw`UPDATE users SET erased_at = ${at}, closed_at = ${at}, phone = 'erased-' || id::text
    WHERE id = ${userId}::uuid`
}

async function paidAt(userId: string, at: Date, durationDays = 1) {
  const service = await createService(`Old ${randomInt(0, 1e9)}`, 100_000, durationDays)
  const payment = await createPaymentRow(userId, [cartItemOf(service)], { createdAt: at })
  await markPaymentPaid(payment.id, { source: 'webhook', paidAt: at, gatewayPaymentId: `pay_${randomInt(0, 1e12)}` })
  return payment.id
}

const paymentExists = async (id: string) => (await prisma.payment.count({ where: { id } })) === 1

async function complaintResolvedAt(resolvedAt: Date, attachmentKey: string | null = null) {
  const receivedAt = new Date(resolvedAt.getTime() - 10 * MS_PER_DAY)
  return prisma.complaint.create({
    data: {
      reference: `CMP-2000-${String(randomInt(0, 1e6)).padStart(6, '0')}`,
      source: 'DIRECTLY_FROM_INVESTORS',
      category: 'SERVICE_DEFICIENCY',
      text: 'The report never came.',
      complainantName: 'Asha Rao',
      contactPhone: '+919876543210',
      attachmentKey,
      status: 'CLOSED',
      receivedAt,
      dueOn: receivedAt,
      resolvedAt,
      events: {
        create: [
          { status: 'RECEIVED', createdAt: receivedAt },
          { status: 'RESOLVED', message: 'Sent again.', createdAt: resolvedAt },
          { status: 'CLOSED', createdAt: resolvedAt },
        ],
      },
    },
  })
}

describe('the retention job: payment records', () => {
  it('erases an erased account’s payment once its GST period ends, and nothing else', async () => {
    const now = FY_2020_21_ERASABLE_FROM
    const erased = await createUser()
    const lastOfYear = await paidAt(erased, LAST_MOMENT_OF_FY_2020_21)
    await recordTestRefund(lastOfYear, 10_000, { at: LAST_MOMENT_OF_FY_2020_21 })
    await prisma.refund.updateMany({
      where: { paymentId: lastOfYear },
      data: { status: 'PROCESSED', createdAt: LAST_MOMENT_OF_FY_2020_21, processedAt: LAST_MOMENT_OF_FY_2020_21 },
    })
    const firstOfNextYear = await paidAt(erased, FIRST_MOMENT_OF_FY_2021_22)
    const service = await createService('Never paid', 100_000, 30)
    const open = await createPaymentRow(erased, [cartItemOf(service)], { createdAt: new Date('2019-05-01T00:00:00Z') })
    await erase(erased, new Date('2026-01-01T00:00:00Z'))
    // An account that is not erased keeps everything, however old; so does one closed less than 5 years ago.
    const live = await createUser()
    const livePayment = await paidAt(live, new Date('2019-05-01T00:00:00Z'))
    const closed = await createUser()
    const closedPayment = await paidAt(closed, new Date('2019-05-01T00:00:00Z'))
    await prisma.user.update({ where: { id: closed }, data: { closedAt: new Date('2025-06-01T00:00:00Z') } })

    const documents = await prisma.ledgerEntry.findMany({
      where: { paymentId: lastOfYear },
      select: { documentNumber: true },
      orderBy: { id: 'asc' },
    })
    expect(documents).toHaveLength(2) // the invoice and the refund's credit note
    const sequencesBefore = await prisma.documentSequence.findMany({
      orderBy: [{ series: 'asc' }, { financialYear: 'asc' }],
    })

    // A millisecond before the period ends, nothing goes.
    const early = await eraseExpiredData(new Date(now.getTime() - MS), { storage: recordingStorage().storage })
    expect(early.payments).toBe(0)
    expect(await paymentExists(lastOfYear)).toBe(true)

    const report = await eraseExpiredData(now, { batchRows: 1, storage: recordingStorage().storage })
    expect(report.payments).toBe(1)
    expect(await paymentExists(lastOfYear)).toBe(false)
    expect(await prisma.ledgerEntry.count({ where: { paymentId: lastOfYear } })).toBe(0)
    expect(await prisma.refund.count({ where: { paymentId: lastOfYear } })).toBe(0)
    expect(await prisma.subscription.count({ where: { paymentId: lastOfYear } })).toBe(0)
    for (const kept of [firstOfNextYear, open.id, livePayment, closedPayment])
      expect(await paymentExists(kept)).toBe(true)
    expect(await prisma.user.count({ where: { id: erased } })).toBe(1) // the anonymised row stays

    const audit = await prisma.auditLog.findFirstOrThrow({
      where: { action: 'retention.erase', subjectType: 'Payment', subjectId: lastOfYear },
    })
    expect(audit.after).toMatchObject({
      rule: 'payment-records-ended',
      userId: erased,
      documentNumbers: documents.map((row) => row.documentNumber),
    })

    // The counters stay, so the year's next number follows the erased ones instead of repeating them.
    expect(await prisma.documentSequence.findMany({ orderBy: [{ series: 'asc' }, { financialYear: 'asc' }] })).toEqual(
      sequencesBefore,
    )
    const next = await prisma.$transaction((tx) => nextDocumentNumber(tx, 'INV', LAST_MOMENT_OF_FY_2020_21))
    expect(documents.map((row) => row.documentNumber)).not.toContain(next)
    expect(next > documents[0]!.documentNumber).toBe(true)

    // A second run at the same time finds nothing more.
    const again = await eraseExpiredData(now, { storage: recordingStorage().storage })
    expect(again.payments + again.grantedSubscriptions + again.complaints).toBe(0)
  })

  it('takes every due payment of an account that has more than a batch, over several batches', async () => {
    const erased = await createUser()
    const payments = []
    for (const day of ['2019-05-01', '2019-06-01', '2019-07-01', '2019-08-01', '2019-09-01'])
      payments.push(await paidAt(erased, new Date(`${day}T06:00:00Z`)))
    await erase(erased, new Date('2025-03-01T00:00:00Z'))
    const report = await eraseExpiredData(FY_2020_21_ERASABLE_FROM, {
      batchRows: 2,
      storage: recordingStorage().storage,
    })
    expect(report.payments).toBe(5)
    expect(await prisma.payment.count({ where: { id: { in: payments } } })).toBe(0)
  })

  it('erases a granted subscription of an erased account 5 years after it ended', async () => {
    const userId = await createUser()
    const service = await createService('Granted', 100_000, 30)
    const now = new Date('2030-06-01T00:00:00Z')
    const endsJustBefore = new Date('2025-06-01T00:00:00Z').getTime() - MS
    const [before, after] = await Promise.all(
      [endsJustBefore, endsJustBefore + 2 * MS].map((endsAt) =>
        prisma.subscription.create({
          data: {
            userId,
            serviceId: service.id,
            startsAt: new Date(endsAt - 30 * MS_PER_DAY),
            endsAt: new Date(endsAt),
            grantReason: 'goodwill',
            grantedById: userId,
          },
        }),
      ),
    )
    await erase(userId, new Date('2029-01-01T00:00:00Z'))
    const report = await eraseExpiredData(now, { storage: recordingStorage().storage })
    expect(report.grantedSubscriptions).toBe(1)
    expect(await prisma.subscription.count({ where: { id: before!.id } })).toBe(0)
    expect(await prisma.subscription.count({ where: { id: after!.id } })).toBe(1)
  })
})

describe('the retention job: complaints', () => {
  it('erases a complaint, its steps and its attachment 5 years after its last step, not a day earlier', async () => {
    const now = new Date('2031-03-10T12:00:00Z')
    const cutoff = complaintCutoff(now)
    const past = await complaintResolvedAt(new Date(cutoff.getTime() - MS_PER_DAY), 'complaints/past.jpg')
    const inside = await complaintResolvedAt(new Date(cutoff.getTime() + MS_PER_DAY), 'complaints/inside.jpg')
    const stillOpen = await prisma.complaint.create({
      data: {
        reference: `CMP-2000-${String(randomInt(0, 1e6)).padStart(6, '0')}`,
        source: 'DIRECTLY_FROM_INVESTORS',
        category: 'OTHER',
        text: 'Still waiting.',
        status: 'ANSWERED',
        receivedAt: new Date('2020-01-01T00:00:00Z'),
        dueOn: new Date('2020-01-22T00:00:00Z'),
      },
    })
    const { storage, deleted } = recordingStorage()
    const report = await eraseExpiredData(now, { storage })
    expect(report.complaints).toBe(1)
    expect(deleted).toEqual(['complaints/past.jpg'])
    expect(await prisma.complaint.count({ where: { id: past.id } })).toBe(0)
    expect(await prisma.complaintEvent.count({ where: { complaintId: past.id } })).toBe(0)
    expect(await prisma.complaint.count({ where: { id: { in: [inside.id, stillOpen.id] } } })).toBe(2)
    expect(
      await prisma.auditLog.findFirstOrThrow({
        where: { action: 'retention.erase', subjectType: 'Complaint', subjectId: past.id },
      }),
    ).toMatchObject({ after: { rule: 'complaint-records-ended', reference: past.reference } })

    const again = recordingStorage()
    expect((await eraseExpiredData(now, { storage: again.storage })).complaints).toBe(0)
    expect(again.deleted).toEqual([])
  })
})
