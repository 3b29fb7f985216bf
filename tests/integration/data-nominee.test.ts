import { describe, expect, it } from 'vitest'
import { NOMINEE_UNREACHABLE_MESSAGE } from '~/domain/data-nominee'
import { UNFINISHED_ACCOUNT_ERASE_DAYS } from '~/content/legal/rules'
import * as nomineeRoute from '~/routes/account.nominee'
import { customerData } from '~/server/account/your-data.server'
import { eraseExpiredData } from '~/server/account/retention.server'
import { prisma } from '~/server/db.server'
import { formRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

const DAY_MS = 24 * 60 * 60_000

function post(cookie: string, fields: Record<string, string>) {
  return nomineeRoute.action(routeArgs(formRequest('/account/nominee', fields, cookie)))
}

const auditOf = (userId: string) =>
  prisma.auditLog.findMany({
    where: { subjectType: 'User', subjectId: userId, action: { startsWith: 'account.data-nominee' } },
    orderBy: { id: 'asc' },
    select: { actorId: true, action: true, before: true, after: true },
  })

describe('a nominee for data rights (/account/nominee)', () => {
  it('is named, replaced and removed by the customer, each change audited without the third person’s details', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const named = await post(cookie, {
      intent: 'save',
      name: 'Meera Rao',
      relationship: 'Spouse',
      phone: '98765 43210',
      email: '',
    })
    expect(named).toBeInstanceOf(Response)
    expect((named as Response).headers.get('Location')).toBe('/account#nominee')
    expect(await prisma.dataNominee.findUnique({ where: { userId } })).toMatchObject({
      name: 'Meera Rao',
      relationship: 'Spouse',
      phone: '+919876543210',
      email: null,
    })

    await post(cookie, { intent: 'save', name: 'Ravi Rao', relationship: 'Son', phone: '', email: 'ravi@example.in' })
    expect((await customerData(userId, new Date()))!.dataNominee).toMatchObject({
      name: 'Ravi Rao',
      relationship: 'Son',
      phone: null,
      email: 'ravi@example.in',
    })

    await post(cookie, { intent: 'remove' })
    expect(await prisma.dataNominee.count({ where: { userId } })).toBe(0)
    expect((await customerData(userId, new Date()))!.dataNominee).toBeNull()

    const audit = await auditOf(userId)
    expect(audit).toEqual([
      {
        actorId: userId,
        action: 'account.data-nominee',
        before: null,
        after: { relationship: 'Spouse', phone: true, email: false },
      },
      {
        actorId: userId,
        action: 'account.data-nominee',
        before: { relationship: 'Spouse', phone: true, email: false },
        after: { relationship: 'Son', phone: false, email: true },
      },
      {
        actorId: userId,
        action: 'account.data-nominee-removed',
        before: { relationship: 'Son', phone: false, email: true },
        after: null,
      },
    ])
    expect(JSON.stringify(audit)).not.toMatch(/Meera|Ravi|98765|example\.in/)
  })

  it('refuses a nominee nobody can reach, with the message on the mobile field and what was typed kept', async () => {
    const { userId, cookie } = await signedInUser({ completeProfile: true })
    const refused = (await post(cookie, { intent: 'save', name: 'Meera Rao', relationship: 'Spouse' })) as unknown as {
      init: { status: number }
      data: { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }
    }
    expect(refused.init.status).toBe(400)
    expect(refused.data.result.error.phone).toEqual([NOMINEE_UNREACHABLE_MESSAGE])
    expect(refused.data.result.initialValue).toMatchObject({ name: 'Meera Rao', relationship: 'Spouse' })
    expect(await prisma.dataNominee.count({ where: { userId } })).toBe(0)
    expect(await auditOf(userId)).toEqual([])
  })

  it('is erased with the account’s personal data by the retention job', async () => {
    const { userId, cookie } = await signedInUser()
    await post(cookie, { intent: 'save', name: 'Meera Rao', relationship: 'Mother', email: 'meera@example.in' })
    const now = new Date()
    await prisma.user.update({
      where: { id: userId },
      data: { lastSeenAt: new Date(now.getTime() - (UNFINISHED_ACCOUNT_ERASE_DAYS + 1) * DAY_MS) },
    })
    await eraseExpiredData(now)
    expect((await prisma.user.findUniqueOrThrow({ where: { id: userId } })).erasedAt).not.toBeNull()
    expect(await prisma.dataNominee.count({ where: { userId } })).toBe(0)
  })
})
