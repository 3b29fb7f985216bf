import { prisma } from '~/server/db.server'
import type { Email } from '~/server/messaging/mail.server'

/** E-mails the send-email job queue holds for `to`, oldest first. */
export async function queuedEmails(to: string): Promise<Email[]> {
  const jobs = await prisma.$queryRaw<{ data: Email }[]>`
    SELECT data FROM pgboss.job WHERE name = 'send-email' AND data->>'to' = ${to} ORDER BY created_on`
  return jobs.map((job) => job.data)
}
