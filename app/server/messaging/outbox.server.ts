import { prisma } from '../db.server'
import { env } from '../env.server'
import { loggerFor } from '~/server/operations/logger.server'

const log = loggerFor('outbox')

/** The dev outbox answers only in demo mode and tests; a deployment (DEMO_MODE=0) gets 404. */
export function isOutboxEnabled(): boolean {
  return env.DEMO_MODE || env.NODE_ENV === 'test'
}

export type OutboxEntry = { channel: 'sms' | 'email' | 'telegram'; recipient: string; subject?: string; body: string }

/**
 * What the dev stand-ins for SMS and e-mail "send": stored for /dev/outbox and printed in the log.
 * Answers the message's id as a provider would (`outbox-<id>`).
 */
export async function recordOutboxMessage(entry: OutboxEntry): Promise<string> {
  if (!isOutboxEnabled()) throw new Error('The dev outbox is disabled outside demo mode')
  const { id } = await prisma.outboxMessage.create({ data: entry, select: { id: true } })
  // The message itself is read at /dev/outbox: a log line keeps no code or address.
  log.info(
    `${entry.channel} to ${entry.recipient}${entry.subject ? `: ${entry.subject}` : ''} (read it at /dev/outbox)`,
  )
  return `outbox-${id}`
}

export async function listOutboxMessages(recipient: string | null, limit = 50) {
  const messages = await prisma.outboxMessage.findMany({
    where: recipient ? { recipient } : {},
    orderBy: { id: 'desc' },
    take: limit,
    select: { id: true, channel: true, recipient: true, subject: true, body: true, createdAt: true },
  })
  return messages.map((message) => ({ ...message, id: Number(message.id), createdAt: message.createdAt.toISOString() }))
}
