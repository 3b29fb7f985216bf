import { getErrorMessage } from '~/domain/error-message'
import { prisma } from '../db.server'
import { loggerFor } from '../operations/logger.server'

// The archive of sent messages (docs/regulatory.md, "Records"): every e-mail, SMS and Telegram
// message the store sent, with recipient, time, template and body, written once its provider took
// it. Kept 5 years (the retention job), shown on the admin's customer page and in the customer's
// data download.

const log = loggerFor('messaging')

export type SentMessageRecord = {
  userId?: string | null
  channel: 'email' | 'sms' | 'telegram'
  recipient: string
  template: string
  subject?: string | null
  body: string
  /** A one-time code the body carries: archived masked, never readable from the record. */
  secret?: string
  providerMessageId?: string | null
}

/** Newest first, at most this many on the admin's customer page (the data download has them all). */
export const SENT_MESSAGES_SHOWN = 50

const masked = (body: string, secret: string | undefined) =>
  secret ? body.split(secret).join('*'.repeat(secret.length)) : body

/**
 * Records a message its provider has taken. The message is out: a failure here is logged, never
 * thrown, so the send is not retried (and sent twice) for want of its record.
 */
export async function archiveSentMessage(message: SentMessageRecord, sentAt = new Date()): Promise<void> {
  try {
    await prisma.sentMessage.create({
      data: {
        userId: message.userId ?? null,
        channel: message.channel,
        recipient: message.recipient,
        template: message.template,
        subject: message.subject ?? null,
        body: masked(message.body, message.secret),
        providerMessageId: message.providerMessageId || null,
        sentAt,
      },
    })
  } catch (error) {
    log.error(
      { userId: message.userId, channel: message.channel, template: message.template },
      `A sent message was not archived: ${getErrorMessage(error)}`,
    )
  }
}

/** A customer's archived messages, newest first (`take`: at most that many). */
export function sentMessagesOf(userId: string, take?: number) {
  return prisma.sentMessage.findMany({
    where: { userId },
    orderBy: [{ sentAt: 'desc' }, { id: 'desc' }],
    select: { channel: true, recipient: true, template: true, subject: true, body: true, sentAt: true },
    ...(take ? { take } : {}),
  })
}
