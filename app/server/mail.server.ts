import { isOutboxEnabled, recordOutboxMessage } from './outbox.server'

export type Email = { to: string; subject: string; body: string }

/**
 * Sends one e-mail. There is no mail provider yet: demo mode and tests record it in the dev
 * outbox; a deployment logs that it could not send (a real SMTP/HTTP provider comes later).
 * Runs in the send-email job (app/server/jobs.server.ts), which retries when this throws.
 */
export async function deliverEmail({ to, subject, body }: Email): Promise<void> {
  if (!isOutboxEnabled()) {
    console.warn(`[mail] no mail provider configured; "${subject}" to ${to} not sent`)
    return
  }
  await recordOutboxMessage({ channel: 'email', recipient: to, subject, body })
}
