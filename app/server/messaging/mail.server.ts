import nodemailer from 'nodemailer'
import { env } from '../env.server'
import { archiveSentMessage } from './message-archive.server'
import { isOutboxEnabled, recordOutboxMessage } from './outbox.server'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('messaging')

/** `body` is the plain text; `html`, when there is one, goes with it as the HTML alternative; replies go to `replyTo` if set. */
/**
 * `userId`: the account the message is for, when it is dropped once that account is closed (the
 * send-email worker checks); messages about money (payments, refunds, credit notes) and answers to
 * complaints carry none and are sent regardless.
 */
export type Email = {
  to: string
  subject: string
  body: string
  html?: string
  replyTo?: string
  userId?: string
  /** Sent even when `userId`'s account is closed: a notice every holder of data must get (a breach notice). */
  evenIfClosed?: boolean
  /** Which message it is, for the archive of sent messages (message-archive.server.ts). */
  template: string
  /** A one-time code in the body: the archive keeps the body with it masked. */
  secret?: string
}

/** A mail server that takes longer than this to connect, greet or answer is given up on (the job retries). */
export const SMTP_TIMEOUT_MS = 20_000

/** A failed send; `retryable` says whether trying again later can help (connection trouble, 4xx) or not (5xx). */
export class MailDeliveryError extends Error {
  override name = 'MailDeliveryError'
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message)
  }
}

/**
 * Connections to the mail server kept open and sent on at once (docs/limits.md). A connection per
 * message cost 117 ms of handshakes a send on loopback; research goes to 100,000 customers at a time.
 */
export const SMTP_POOL_CONNECTIONS = 4
/** A kept connection the store has not used for this long is closed (a mail server drops idle ones anyway). */
export const SMTP_POOL_IDLE_MS = 60_000

/**
 * `send` answers the provider's message id when it gives one (SMTP does: the Message-ID it used);
 * `close` ends its open connections, at shutdown.
 */
export type MailProvider = { name: string; send(email: Email): Promise<string | void>; close?(): void }

/** SMTP through nodemailer, on a pool of kept connections: `SMTP_URL` (smtp:// or smtps://, credentials in the URL) and `MAIL_FROM`. */
export function smtpMail({
  url,
  from,
  timeoutMs = SMTP_TIMEOUT_MS,
}: {
  url: string
  from: string
  timeoutMs?: number
}): MailProvider {
  const transport = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: SMTP_POOL_CONNECTIONS,
    idleTimeout: SMTP_POOL_IDLE_MS,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  })
  return {
    name: 'smtp',
    close: () => transport.close(),
    async send({ to, subject, body, html, replyTo }) {
      try {
        const info = (await transport.sendMail({ from, to, replyTo, subject, text: body, html })) as {
          messageId?: string
        }
        return info.messageId
      } catch (error) {
        const { responseCode, message } = error as { responseCode?: number; message?: string }
        // An SMTP 5xx is the server's final word (unknown mailbox, refused sender); anything else may pass later.
        const permanent = typeof responseCode === 'number' && responseCode >= 500
        throw new MailDeliveryError(
          `SMTP refused "${subject}" to ${to}: ${responseCode ?? 'no reply code'} ${message ?? String(error)}`,
          !permanent,
        )
      }
    },
  }
}

const outboxMail: MailProvider = {
  name: 'dev outbox',
  send: ({ to, subject, body }) => recordOutboxMessage({ channel: 'email', recipient: to, subject, body }),
}

let configured: MailProvider | null | undefined

/** SMTP when `SMTP_URL` is set (env validation requires MAIL_FROM with it); else the dev outbox in demo mode and tests. */
export function mailProvider(): MailProvider | null {
  if (configured !== undefined) return configured
  if (env.SMTP_URL && env.MAIL_FROM) configured = smtpMail({ url: env.SMTP_URL, from: env.MAIL_FROM })
  else configured = isOutboxEnabled() ? outboxMail : null
  return configured
}

/** Closes the mail provider's connections (at shutdown, once the jobs have stopped); the next send opens it again. */
export function closeMailProvider(): void {
  configured?.close?.()
  configured = undefined
}

/** Sends one e-mail and archives it (false: no provider, not sent); runs in the send-email job (app/server/jobs/workers.server.ts), which retries when this throws a retryable error. */
export async function deliverEmail(email: Email): Promise<boolean> {
  const provider = mailProvider()
  if (!provider) {
    log.warn(`No mail provider configured; "${email.subject}" to ${email.to} not sent`)
    return false
  }
  await archiveSentMessage({
    userId: email.userId,
    channel: 'email',
    recipient: email.to,
    template: email.template,
    subject: email.subject,
    body: email.body,
    secret: email.secret,
    providerMessageId: (await provider.send(email)) || null,
  })
  return true
}
