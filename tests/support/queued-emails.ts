import { prisma } from '~/server/db.server'

/** E-mails the send-email job queue holds for `to`, oldest first. */
export async function queuedEmails(to: string): Promise<{ to: string; subject: string; body: string }[]> {
  const jobs = await prisma.$queryRaw<{ data: { to: string; subject: string; body: string } }[]>`
    SELECT data FROM pgboss.job WHERE name = 'send-email' AND data->>'to' = ${to} ORDER BY created_on`
  return jobs.map((job) => job.data)
}
