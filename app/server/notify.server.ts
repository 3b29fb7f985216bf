import { enqueueEmail } from './jobs.server'

export type CustomerNotice = { email: string | null; subject: string; body: string }

/**
 * Tells a customer what the team did, by e-mail through the job queue (retried there). Called after
 * the change it reports has committed; never fails the admin's action: the change is done, the
 * notice is secondary, and a failure to queue it is logged.
 */
export async function notifyCustomer({ email, subject, body }: CustomerNotice): Promise<boolean> {
  if (!email) {
    console.warn(`[notify] no e-mail address for "${subject}"; not sent`)
    return false
  }
  try {
    await enqueueEmail({ to: email, subject, body })
    return true
  } catch (error) {
    console.error(`[notify] could not queue "${subject}" to ${email}: ${error instanceof Error ? error.message : String(error)}`)
    return false
  }
}
