import { randomInt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { MS_PER_DAY } from '~/domain/dates'
import { prisma } from '~/server/db.server'
import { markPaymentPaid } from '~/server/payments/core.server'
import { eraseExpiredData, retentionCutoffs } from '~/server/account/retention.server'
import { createSession, getSessionUser, SESSION_EXTEND_AFTER_MS, sessionCookie } from '~/server/session.server'
import type { FileStorage } from '~/server/storage.server'
import { cartItemOf, createPaymentRow, createService, createUser } from '../support/payment-fixtures'

// The retention job with an injected clock: what the privacy policy's table lets us keep stays,
// a minute on either side of each period's end, and a second run finds nothing to do.

const MINUTE = 60_000

/** A storage that remembers what was deleted (deleting a missing file is no error, as the real ones). */
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

/** A customer with every personal detail filled in (createUser adds the KRA's answer). */
async function customer({ client }: { client: boolean }) {
  const id = await createUser()
  await prisma.user.update({
    where: { id },
    data: {
      name: 'Asha Rao',
      email: `asha${randomInt(0, 1e9)}@example.com`,
      dateOfBirth: new Date('1990-01-01'),
      panHash: `hash-${randomInt(0, 1e12)}`,
      panCardKey: `pan-cards/${id}/card.jpg`,
      agreementIp: '10.0.0.1',
      ...(client ? { agreementAcceptedAt: new Date('2019-01-01') } : {}),
    },
  })
  await prisma.familyMember.create({ data: { userId: id, pan: 'ABCPE1234F', relation: 'SPOUSE' } })
  await prisma.correctionRequest.create({
    data: { userId: id, oldValues: { name: 'Asha Rao' }, newValues: { name: 'Asha R' }, reason: 'typo' },
  })
  return id
}

async function paidLongAgo(userId: string, paidAt: Date) {
  const service = await createService('Old', 100_000, 30)
  const payment = await createPaymentRow(userId, [cartItemOf(service)], { createdAt: paidAt })
  await markPaymentPaid(payment.id, { source: 'webhook', paidAt, gatewayPaymentId: `pay_${randomInt(0, 1e12)}` })
  return payment
}

const erasedState = (id: string) =>
  prisma.user.findUniqueOrThrow({
    where: { id },
    select: {
      phone: true,
      name: true,
      email: true,
      dateOfBirth: true,
      pan: true,
      panHash: true,
      panCardKey: true,
      kycStatus: true,
      kycNameOnRecord: true,
      agreementIp: true,
      erasedAt: true,
    },
  })

async function expectErased(id: string, now: Date) {
  expect(await erasedState(id)).toEqual({
    phone: `erased-${id}`,
    name: null,
    email: null,
    dateOfBirth: null,
    pan: null,
    panHash: null,
    panCardKey: null,
    kycStatus: null,
    kycNameOnRecord: null,
    agreementIp: null,
    erasedAt: now,
  })
  expect(await prisma.familyMember.count({ where: { userId: id } })).toBe(0)
  expect(await prisma.correctionRequest.count({ where: { userId: id } })).toBe(0)
  expect(
    await prisma.auditLog.count({ where: { action: 'retention.erase', subjectType: 'User', subjectId: id } }),
  ).toBe(1)
}

async function expectKept(id: string) {
  const row = await erasedState(id)
  expect(row.erasedAt).toBeNull()
  expect(row.phone).toMatch(/^\+91/)
  expect(row.name).toBe('Asha Rao')
  expect(row.panCardKey).not.toBeNull()
  expect(await prisma.correctionRequest.count({ where: { userId: id } })).toBe(1)
}

describe('the retention job', () => {
  it('erases each account when its period ends, a minute early keeps it, and a second run does nothing', async () => {
    const now = new Date(Date.now() + 6 * 365 * MS_PER_DAY) // the clock the job is given
    const cutoffs = retentionCutoffs(now)
    const sixYearsBeforeNow = new Date(now.getTime() - 6 * 365 * MS_PER_DAY)

    // A client who paid 6 years ago and closed just over / just under 5 years ago.
    const closedPast = await customer({ client: true })
    const oldPayment = await paidLongAgo(closedPast, sixYearsBeforeNow)
    await prisma.user.update({
      where: { id: closedPast },
      data: { closedAt: new Date(cutoffs.records.getTime() - MINUTE) },
    })
    const closedInside = await customer({ client: true })
    await paidLongAgo(closedInside, sixYearsBeforeNow)
    await prisma.user.update({
      where: { id: closedInside },
      data: { closedAt: new Date(cutoffs.records.getTime() + MINUTE) },
    })
    // Closed over 5 years ago, but paid (its last transaction) a minute inside the 5 years.
    const recentTransaction = await customer({ client: true })
    await paidLongAgo(recentTransaction, new Date(cutoffs.records.getTime() + MINUTE))
    await prisma.user.update({
      where: { id: recentTransaction },
      data: { closedAt: new Date(cutoffs.records.getTime() - MINUTE) },
    })

    // Closed without ever becoming a client: 90 days.
    const neverClientPast = await customer({ client: false })
    await prisma.user.update({
      where: { id: neverClientPast },
      data: { closedAt: new Date(cutoffs.accountData.getTime() - MINUTE) },
    })
    const neverClientInside = await customer({ client: false })
    await prisma.user.update({
      where: { id: neverClientInside },
      data: { closedAt: new Date(cutoffs.accountData.getTime() + MINUTE) },
    })
    // A client closed just over 90 days ago keeps everything but the family members' PANs.
    const clientClosed90 = await customer({ client: true })
    await prisma.user.update({
      where: { id: clientClosed90 },
      data: { closedAt: new Date(cutoffs.accountData.getTime() - MINUTE) },
    })

    // Open, profile never completed: a year without a sign-in.
    const unfinishedPast = await customer({ client: false })
    await prisma.user.update({
      where: { id: unfinishedPast },
      data: { lastSeenAt: new Date(cutoffs.unfinished.getTime() - MINUTE) },
    })
    const unfinishedInside = await customer({ client: false })
    await prisma.user.update({
      where: { id: unfinishedInside },
      data: { lastSeenAt: new Date(cutoffs.unfinished.getTime() + MINUTE) },
    })
    // Open and complete: never erased, however long unused.
    const openClient = await customer({ client: true })
    await prisma.user.update({ where: { id: openClient }, data: { lastSeenAt: sixYearsBeforeNow } })

    // Acceptances: 6 years old (deleted with the account), and a newer one of an unfinished profile (kept).
    const realNow = Date.now()
    await prisma.acceptance.create({
      data: {
        userId: closedPast,
        kind: 'TERMS',
        version: 'v1',
        textSha256: 'x',
        acceptedAt: new Date(realNow - 6 * 365 * MS_PER_DAY),
      },
    })
    await prisma.acceptance.create({
      data: {
        userId: unfinishedPast,
        kind: 'PERSONAL_DATA',
        version: 'p1',
        textSha256: 'x',
        acceptedAt: new Date(realNow - 2 * 365 * MS_PER_DAY),
      },
    })

    const ledgerBefore = await prisma.ledgerEntry.findMany({
      where: { userId: closedPast },
      select: { id: true, amountPaise: true },
      orderBy: { id: 'asc' },
    })
    expect(ledgerBefore.length).toBeGreaterThan(0)

    const { storage, deleted } = recordingStorage()
    const report = await eraseExpiredData(now, { batchRows: 2, storage })
    expect(report['closed-records-ended']).toBeGreaterThanOrEqual(1)

    await expectErased(closedPast, now)
    await expectErased(neverClientPast, now)
    await expectErased(unfinishedPast, now)
    expect(deleted).toEqual(
      expect.arrayContaining([closedPast, neverClientPast, unfinishedPast].map((id) => `pan-cards/${id}/card.jpg`)),
    )
    for (const id of [closedInside, recentTransaction, neverClientInside, clientClosed90, unfinishedInside, openClient])
      await expectKept(id)
    expect(deleted).not.toContain(`pan-cards/${closedInside}/card.jpg`)
    expect(await prisma.familyMember.count({ where: { userId: clientClosed90 } })).toBe(0)
    expect(await prisma.familyMember.count({ where: { userId: closedInside } })).toBe(0)
    expect(await prisma.familyMember.count({ where: { userId: neverClientInside } })).toBe(1)
    expect(await prisma.familyMember.count({ where: { userId: openClient } })).toBe(1)

    // What the law keeps stays: the ledger's amounts and the payment.
    expect(
      await prisma.ledgerEntry.findMany({
        where: { userId: closedPast },
        select: { id: true, amountPaise: true },
        orderBy: { id: 'asc' },
      }),
    ).toEqual(ledgerBefore)
    expect((await prisma.payment.findUniqueOrThrow({ where: { id: oldPayment.id } })).status).toBe('PAID')
    expect(await prisma.acceptance.count({ where: { userId: closedPast } })).toBe(0)
    expect(await prisma.acceptance.count({ where: { userId: unfinishedPast } })).toBe(1)

    const again = recordingStorage()
    expect(await eraseExpiredData(now, { batchRows: 2, storage: again.storage })).toEqual({
      'closed-records-ended': 0,
      'closed-never-a-client': 0,
      'unfinished-inactive': 0,
      minorLeftovers: 0,
      familyMembers: 0,
      acceptances: 0,
      payments: 0,
      grantedSubscriptions: 0,
      complaints: 0,
      researchItems: 0,
      researchRecords: 0,
      sentMessages: 0,
    })
    expect(again.deleted).toEqual([])
    await expectErased(closedPast, now)
  })

  it('measures inactivity from the last sign-in or use of a session', async () => {
    const id = await createUser()
    const longAgo = new Date('2020-01-01T00:00:00Z')
    await prisma.user.update({ where: { id }, data: { lastSeenAt: longAgo } })
    const signedIn = new Date()
    const cookie = await createSession(id, signedIn)
    expect((await prisma.user.findUniqueOrThrow({ where: { id } })).lastSeenAt).toEqual(signedIn)

    const sessionId = (await sessionCookie.parse(cookie.split(';')[0]!)) as string
    const used = new Date(signedIn.getTime() + SESSION_EXTEND_AFTER_MS + MINUTE)
    const request = new Request('http://localhost/account', {
      headers: { Cookie: await sessionCookie.serialize(sessionId) },
    })
    expect(await getSessionUser(request, used)).not.toBeNull()
    expect((await prisma.user.findUniqueOrThrow({ where: { id } })).lastSeenAt).toEqual(used)
  })
})
