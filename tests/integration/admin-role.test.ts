import { randomInt } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { applyAdminPhones, DEMO_ADMIN_PHONE, requireAdmin, roleForPhone } from '~/server/auth/admin-role.server'
import { signInWithVerifiedCode } from '~/server/auth/sign-in.server'
import { prisma } from '~/server/db.server'
import { env } from '~/server/env.server'
import { stopJobs } from '~/server/jobs/queue.server'
import { requestOtp } from '~/server/auth/one-time-codes.server'
import { createSession } from '~/server/session.server'
import { getRequest } from '../support/route-requests'

afterAll(() => stopJobs())

const uniquePhone = () => `+919${String(randomInt(0, 1e9)).padStart(9, '0')}`
const uniqueIp = () => `10.3.${randomInt(256)}.${randomInt(256)}`

/** Signs in as `phone` with the code it was sent, as /auth does. */
async function signIn(phone: string): Promise<string> {
  const ip = uniqueIp()
  await requestOtp({ phone, ip })
  const [job] = await prisma.$queryRaw<{ data: { code: string } }[]>`
    SELECT data FROM pgboss.job WHERE name = 'send-sms' AND data->>'to' = ${phone} ORDER BY created_on DESC LIMIT 1`
  return signInWithVerifiedCode({ phone, code: job!.data.code, ip })
}

const roleOf = async (phone: string) => (await prisma.user.findUniqueOrThrow({ where: { phone } })).role

async function isAdminSession(userId: string): Promise<boolean> {
  return requireAdmin(getRequest('/admin', await createSession(userId))).then(
    () => true,
    () => false,
  )
}

describe('ADMIN_PHONES decides who is an admin', () => {
  it('makes a listed number an admin and any other a customer', () => {
    expect(roleForPhone('+919811100001', ['+919811100001'])).toBe('ADMIN')
    expect(roleForPhone('+919811100002', ['+919811100001'])).toBe('CUSTOMER')
  })

  it('gives the ADMIN role at sign-in to a listed number (the demo admin here)', async () => {
    expect(env.DEMO_MODE).toBe(true)
    const userId = await signIn(DEMO_ADMIN_PHONE)
    expect(await roleOf(DEMO_ADMIN_PHONE)).toBe('ADMIN')
    expect(await isAdminSession(userId)).toBe(true)
  })

  it('takes the ADMIN role away at sign-in from a number no longer listed', async () => {
    const phone = uniquePhone()
    await prisma.user.create({ data: { phone, role: 'ADMIN' } })
    const userId = await signIn(phone)
    expect(await roleOf(phone)).toBe('CUSTOMER')
    expect(await isAdminSession(userId)).toBe(false)
  })

  it('is applied to existing accounts at start: listed ones become admins, the others stop being admins at once', async () => {
    const listed = uniquePhone()
    const dropped = uniquePhone()
    const customer = uniquePhone()
    await prisma.user.create({ data: { phone: listed } })
    const droppedUser = await prisma.user.create({ data: { phone: dropped, role: 'ADMIN' } })
    await prisma.user.create({ data: { phone: customer } })
    expect(await isAdminSession(droppedUser.id)).toBe(true)

    const applied = await applyAdminPhones([listed])
    expect(applied.promoted).toBe(1)
    expect(applied.demoted).toBeGreaterThanOrEqual(1)
    expect([await roleOf(listed), await roleOf(dropped), await roleOf(customer)]).toEqual([
      'ADMIN',
      'CUSTOMER',
      'CUSTOMER',
    ])
    // An open session of the dropped admin no longer reaches the console.
    expect(await isAdminSession(droppedUser.id)).toBe(false)
    expect(await applyAdminPhones([listed])).toEqual({ promoted: 0, demoted: 0 })
  })
})
