import { describe, expect, it } from 'vitest'
import { requireAnonymous, requireCompleteProfile, requireUser } from '~/server/auth/sign-in.server'
import { prisma } from '~/server/db.server'
import {
  createSession,
  destroySession,
  getSessionUser,
  SESSION_EXTEND_AFTER_MS,
  SESSION_TTL_MS,
} from '~/server/session.server'
import { getRequest } from '../support/route-requests'

let phoneCounter = 0
async function newUser(profile: Record<string, unknown> = {}) {
  phoneCounter += 1
  return prisma.user.create({ data: { phone: `+91900000${String(phoneCounter).padStart(4, '0')}`, ...profile } })
}

const requestWith = (setCookie: string, path = '/subscriptions') => getRequest(path, setCookie)

async function thrownResponse(promise: Promise<unknown>): Promise<Response> {
  const outcome = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  )
  if (!(outcome instanceof Response)) throw new Error('expected a thrown redirect')
  return outcome
}

describe('sessions', () => {
  it('last 30 days and are extended at most once a day', async () => {
    expect(SESSION_TTL_MS).toBe(30 * 86_400_000)
    expect(SESSION_EXTEND_AFTER_MS).toBe(86_400_000)
  })

  it('identify the user by a signed, HttpOnly cookie that carries only the session id', async () => {
    const user = await newUser()
    const setCookie = await createSession(user.id)
    expect(setCookie).toMatch(/^session=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/)
    expect(setCookie).not.toContain(user.id)
    expect((await getSessionUser(requestWith(setCookie)))?.id).toBe(user.id)
  })

  it('ignore a tampered cookie', async () => {
    const user = await newUser()
    const setCookie = await createSession(user.id)
    const tampered = setCookie.replace(/^session=([^.]+)\./, 'session=ZGlmZmVyZW50.')
    expect(await getSessionUser(requestWith(tampered))).toBeNull()
  })

  it('end after 30 days without use, and roll forward when used', async () => {
    const user = await newUser()
    const start = new Date()
    const setCookie = await createSession(user.id, start)
    const twoDaysLater = new Date(start.getTime() + 2 * 86_400_000)
    expect(await getSessionUser(requestWith(setCookie), twoDaysLater)).not.toBeNull()
    const session = await prisma.session.findFirstOrThrow({ where: { userId: user.id } })
    expect(session.expiresAt.getTime()).toBe(twoDaysLater.getTime() + SESSION_TTL_MS)

    const afterExpiry = new Date(session.expiresAt.getTime())
    expect(await getSessionUser(requestWith(setCookie), afterExpiry)).toBeNull()
  })

  it('end at logout: the row is deleted and the cookie cleared', async () => {
    const user = await newUser()
    const setCookie = await createSession(user.id)
    const cleared = await destroySession(requestWith(setCookie))
    expect(cleared).toMatch(/Max-Age=0/)
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(0)
    expect(await getSessionUser(requestWith(setCookie))).toBeNull()
  })
})

describe('guards', () => {
  it('send a visitor without a session to /auth, remembering the page', async () => {
    const response = await thrownResponse(requireUser(getRequest('/pay?step=2')))
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/auth?redirectTo=%2Fpay%3Fstep%3D2')
  })

  it('send a user with an incomplete profile to /details, remembering the page', async () => {
    const user = await newUser({ name: 'asha rao' })
    const response = await thrownResponse(requireCompleteProfile(requestWith(await createSession(user.id), '/pay')))
    expect(response.headers.get('Location')).toBe('/details?redirectTo=%2Fpay')
  })

  it('let a complete profile through', async () => {
    const user = await newUser({
      name: 'asha rao',
      email: 'asha@example.in',
      dateOfBirth: new Date('2001-05-17'),
      pan: 'ABCPE1234F',
      panCardKey: 'pan-cards/x/1.jpg',
      agreementAcceptedAt: new Date(),
    })
    expect((await requireCompleteProfile(requestWith(await createSession(user.id), '/pay'))).id).toBe(user.id)
  })

  it('send a signed-in user away from /auth to /details, keeping only a same-site redirectTo', async () => {
    const user = await newUser()
    const cookie = await createSession(user.id)
    const own = await thrownResponse(requireAnonymous(requestWith(cookie, '/auth?redirectTo=%2Fpay')))
    expect(own.headers.get('Location')).toBe('/details?redirectTo=%2Fpay')
    const foreign = await thrownResponse(
      requireAnonymous(requestWith(cookie, '/auth?redirectTo=https%3A%2F%2Fevil.example')),
    )
    expect(foreign.headers.get('Location')).toBe('/details')
  })
})

describe('hourly pruning', () => {
  it('deletes ended sessions, and codes and limit events older than a day', async () => {
    const { pruneExpiredRows } = await import('~/server/jobs/prune.server')
    const user = await newUser()
    const now = new Date()
    const dayAndABitAgo = new Date(now.getTime() - 25 * 3_600_000)
    await prisma.session.create({ data: { id: 'ended', userId: user.id, expiresAt: new Date(now.getTime() - 1) } })
    await prisma.session.create({ data: { id: 'live', userId: user.id, expiresAt: new Date(now.getTime() + 60_000) } })
    await prisma.otpChallenge.create({
      data: { phone: user.phone, codeHash: 'x', expiresAt: dayAndABitAgo, createdAt: dayAndABitAgo },
    })
    await prisma.rateLimitEvent.create({ data: { bucket: 'b', key: 'old', createdAt: dayAndABitAgo } })
    await prisma.rateLimitEvent.create({ data: { bucket: 'b', key: 'recent', createdAt: now } })

    await pruneExpiredRows(now)

    expect((await prisma.session.findMany({ where: { userId: user.id } })).map((session) => session.id)).toEqual([
      'live',
    ])
    expect(await prisma.otpChallenge.count({ where: { phone: user.phone } })).toBe(0)
    expect((await prisma.rateLimitEvent.findMany({ where: { bucket: 'b' } })).map((event) => event.key)).toEqual([
      'recent',
    ])
  })
})
