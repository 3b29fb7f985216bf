import { data } from 'react-router'
import type { Role } from '~/generated/prisma/client'
import { prisma } from '../db.server'
import { env } from '../env.server'
import { getSessionUser, type SessionUser } from '../session.server'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('auth')

/** Demo mode's admin, so the admin console can be tried without configuration. */
export const DEMO_ADMIN_PHONE = '+919000000000'

/** The numbers that are admins: ADMIN_PHONES, plus the demo admin in demo mode. */
export function configuredAdminPhones(): string[] {
  return env.DEMO_MODE ? [...env.ADMIN_PHONES, DEMO_ADMIN_PHONE] : env.ADMIN_PHONES
}

/**
 * The configuration alone decides who is an admin (decision 011): a listed number is ADMIN, any
 * other CUSTOMER, at every sign-in, so taking a number off ADMIN_PHONES revokes it.
 */
export function roleForPhone(phone: string, adminPhones = configuredAdminPhones()): Role {
  return adminPhones.includes(phone) ? 'ADMIN' : 'CUSTOMER'
}

/**
 * Brings existing accounts in line with the configuration; every app instance runs it at start, so
 * a number taken off ADMIN_PHONES loses the console with the restart that applies the change, even
 * in a session that is still open.
 */
export async function applyAdminPhones(
  adminPhones = configuredAdminPhones(),
): Promise<{ promoted: number; demoted: number }> {
  const promoted = await prisma.user.updateMany({
    where: { phone: { in: adminPhones }, role: 'CUSTOMER' },
    data: { role: 'ADMIN' },
  })
  const demoted = await prisma.user.updateMany({
    where: { phone: { notIn: adminPhones }, role: 'ADMIN' },
    data: { role: 'CUSTOMER' },
  })
  if (promoted.count || demoted.count) {
    log.info(`ADMIN_PHONES applied: ${promoted.count} made admin, ${demoted.count} no longer admin`)
  }
  return { promoted: promoted.count, demoted: demoted.count }
}

/**
 * The admin console's guard. Anyone who is not an ADMIN, signed in or not, gets the same 404 as an
 * unknown URL: the console does not reveal that it exists (no redirect to sign in).
 */
export async function requireAdmin(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request)
  if (user?.role !== 'ADMIN') throw data('Not Found', { status: 404 })
  return user
}
