import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'
import { checkTypedCode, emailChallengeKey, requestEmailCode } from '../auth/one-time-codes.server'
import { notifyEmailChanged } from '../messaging/customer-notices.server'

// A complete profile's e-mail address changes by the customer alone, once a code sent to the new
// address is entered (app/routes/account.email.tsx): the codes are the sign-in codes' (auth/one-time-codes.server.ts).

export type EmailChangeOutcome = { ok: true } | { ok: false; message: string; status: number }

export async function startEmailChange(
  userId: string,
  email: string,
  ip: string,
  now = new Date(),
): Promise<EmailChangeOutcome> {
  const user = await prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } })
  if (user.email === email) return { ok: false, status: 400, message: 'This is already your e-mail address.' }
  const sent = await requestEmailCode({ userId, email, ip, now })
  return sent.ok ? { ok: true } : { ok: false, status: 429, message: sent.message }
}

/**
 * Checks the code sent to `email`; when right, the address becomes the customer's (audited, old and
 * new) and the old address is told, so a change the customer did not make does not go unseen.
 */
export async function confirmEmailChange(
  userId: string,
  { email, code }: { email: string; code: string },
  ip: string,
  now = new Date(),
): Promise<EmailChangeOutcome> {
  const checked = await checkTypedCode({ phone: emailChallengeKey(userId, email), code, ip, now, sentTo: 'address' })
  if (!checked.ok) return checked
  const before = await prisma.$transaction(async (tx) => {
    const before = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, name: true } })
    await tx.user.update({ where: { id: userId }, data: { email } })
    await recordAudit(
      tx,
      {
        actorId: userId,
        action: 'customer.email.change',
        subjectType: 'User',
        subjectId: userId,
        before: { email: before.email },
        after: { email },
      },
      now,
    )
    return before
  })
  if (before.email && before.email !== email)
    await notifyEmailChanged({ oldEmail: before.email, newEmail: email, name: before.name, changedAt: now })
  return { ok: true }
}
