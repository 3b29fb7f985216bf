import { recordOutboxMessage, isOutboxEnabled } from './outbox.server'

export type CustomerNotice = { email: string | null; subject: string; body: string }

/**
 * E-mail to a customer. There is no mail provider yet: demo mode and tests record it in the dev
 * outbox; a deployment logs that it could not send. Called after the change it reports has
 * committed, and never fails the admin's action (the change is done; the notice is secondary).
 */
export async function notifyCustomer({ email, subject, body }: CustomerNotice): Promise<boolean> {
  if (!email) {
    console.warn(`[mail] no e-mail address for "${subject}"; not sent`)
    return false
  }
  try {
    if (!isOutboxEnabled()) {
      console.warn(`[mail] no mail provider configured; "${subject}" to ${email} not sent`)
      return false
    }
    await recordOutboxMessage({ channel: 'email', recipient: email, subject, body })
    return true
  } catch (error) {
    console.error(`[mail] "${subject}" to ${email} failed: ${error instanceof Error ? error.message : String(error)}`)
    return false
  }
}
