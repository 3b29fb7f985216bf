import { randomBytes } from 'node:crypto'
import { createCookie } from 'react-router'
import { MS_PER_DAY } from '~/domain/dates'
import { SESSION_IDLE_DAYS } from '~/domain/sign-in'
import type { KycStatus, Role } from '~/generated/prisma/client'
import { prisma } from './db.server'
import { env } from './env.server'
import { serverSecret } from './secrets.server'

export const SESSION_TTL_MS = SESSION_IDLE_DAYS * MS_PER_DAY
/** The rolling expiry is pushed forward at most once a day, not written on every request. */
export const SESSION_EXTEND_AFTER_MS = 24 * 60 * 60_000
/** Browsers cap cookie lifetimes at 400 days; the Session row decides the real expiry. */
const SESSION_COOKIE_MAX_AGE_SECONDS = 400 * 24 * 60 * 60

const secureCookies = !env.DEMO_MODE

export const sessionCookie = createCookie(secureCookies ? '__Host-session' : 'session', {
  httpOnly: true,
  secure: secureCookies,
  sameSite: 'lax',
  path: '/',
  maxAge: SESSION_COOKIE_MAX_AGE_SECONDS,
  secrets: [serverSecret('session-cookie')],
})

export type SessionUser = {
  id: string
  phone: string
  role: Role
  name: string | null
  email: string | null
  dateOfBirth: Date | null
  pan: string | null
  panCardKey: string | null
  agreementAcceptedAt: Date | null
  /** The KRA's last answer (app/server/kyc/kra.server.ts); paying needs VALIDATED or REGISTERED. */
  kycStatus: KycStatus | null
  /** The TERMS version last accepted (the cache of the latest TERMS acceptance). */
  agreementVersion: string | null
}

const sessionUserSelect = {
  id: true,
  phone: true,
  role: true,
  name: true,
  email: true,
  dateOfBirth: true,
  pan: true,
  panCardKey: true,
  agreementAcceptedAt: true,
  kycStatus: true,
  agreementVersion: true,
} as const

/** Starts a session for `userId`; returns the Set-Cookie header to send. */
export async function createSession(userId: string, now = new Date()): Promise<string> {
  const id = randomBytes(32).toString('base64url')
  await prisma.$transaction([
    prisma.session.create({
      data: { id, userId, expiresAt: new Date(now.getTime() + SESSION_TTL_MS), createdAt: now },
    }),
    // What the retention job measures inactivity by (app/server/account/retention.server.ts).
    prisma.user.update({ where: { id: userId }, data: { lastSeenAt: now } }),
  ])
  return sessionCookie.serialize(id)
}

// Root and route loaders of one request share a single lookup.
const userByRequest = new WeakMap<Request, Promise<SessionUser | null>>()

/** The signed-in user of `request`, or null; extends a live session's expiry (rolling). */
export function getSessionUser(request: Request, now = new Date()): Promise<SessionUser | null> {
  let lookup = userByRequest.get(request)
  if (!lookup) {
    lookup = lookUpSessionUser(request, now)
    userByRequest.set(request, lookup)
  }
  return lookup
}

async function lookUpSessionUser(request: Request, now: Date): Promise<SessionUser | null> {
  const sessionId: unknown = await sessionCookie.parse(request.headers.get('Cookie'))
  if (typeof sessionId !== 'string') return null
  const session = await prisma.session.findUnique({
    where: { id: sessionId },
    select: { expiresAt: true, user: { select: { ...sessionUserSelect, closedAt: true } } },
  })
  if (!session || session.expiresAt <= now) return null
  // Closing an account deletes its sessions; a closed account's row never signs anyone in regardless.
  const { closedAt, ...user } = session.user
  if (closedAt) return null
  if (session.expiresAt.getTime() - now.getTime() < SESSION_TTL_MS - SESSION_EXTEND_AFTER_MS) {
    await prisma.session.update({
      where: { id: sessionId },
      data: { expiresAt: new Date(now.getTime() + SESSION_TTL_MS), user: { update: { lastSeenAt: now } } },
    })
  }
  return user
}

/** Ends the session of `request` (deletes its row); returns the Set-Cookie header that clears the cookie. */
export async function destroySession(request: Request): Promise<string> {
  const sessionId: unknown = await sessionCookie.parse(request.headers.get('Cookie'))
  if (typeof sessionId === 'string') await prisma.session.deleteMany({ where: { id: sessionId } })
  return sessionCookie.serialize('', { maxAge: 0 })
}
