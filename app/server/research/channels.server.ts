import { createHash, randomBytes } from 'node:crypto'
import { TELEGRAM_LINK_TTL_MS } from '~/domain/research-channels'
import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'
import type { Prisma } from '~/generated/prisma/client'
import { researchSmsEnabled } from '../messaging/sms.server'
import { telegramBot } from '../messaging/telegram-bot.server'

// A customer's research channels (docs/research.md, "Channels"): e-mail, SMS and Telegram beside
// the site, which is always on. No row in research_channel_choices means the defaults: e-mail on
// (with an address), SMS off, Telegram off until linked. Every change is audited as the customer's.

export type ResearchChannels = {
  email: { chosen: boolean; address: string | null }
  sms: { chosen: boolean; available: boolean; phone: string }
  telegram: { chosen: boolean; available: boolean; linkedAt: string | null }
}

export async function researchChannelsOf(userId: string): Promise<ResearchChannels> {
  const user = await prisma.user.findUniqueOrThrow({
    where: { id: userId },
    select: {
      email: true,
      phone: true,
      researchChannelChoice: { select: { email: true, sms: true, telegram: true, telegramLinkedAt: true } },
    },
  })
  const choice = user.researchChannelChoice
  return {
    email: { chosen: (choice?.email ?? true) && Boolean(user.email), address: user.email || null },
    sms: { chosen: choice?.sms ?? false, available: researchSmsEnabled(), phone: user.phone },
    telegram: {
      chosen: choice?.telegram ?? false,
      available: (await telegramBot()) !== null,
      linkedAt: choice?.telegramLinkedAt?.toISOString() ?? null,
    },
  }
}

export type ChannelChoice = { email: boolean; sms: boolean; telegram: boolean }

/** Writes the customer's choice; Telegram stays off while it is not linked (the table's CHECK). */
export async function chooseResearchChannels(userId: string, wanted: ChannelChoice, now = new Date()) {
  return prisma.$transaction(async (tx) => {
    const before = await tx.researchChannelChoice.findUnique({ where: { userId } })
    const after = { ...wanted, telegram: wanted.telegram && Boolean(before?.telegramChatId) }
    // Not an upsert: PostgreSQL checks the insert's row (Telegram on, no chat) before the conflict.
    if (before) await tx.researchChannelChoice.update({ where: { userId }, data: after })
    else await tx.researchChannelChoice.create({ data: { userId, ...after } })
    await recordAudit(
      tx,
      {
        actorId: userId,
        action: 'account.research-channels',
        subjectType: 'User',
        subjectId: userId,
        before: before
          ? { email: before.email, sms: before.sms, telegram: before.telegram }
          : { email: true, sms: false, telegram: false },
        after,
      },
      now,
    )
    return after
  })
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/**
 * A one-time deep link for the customer to press Start in Telegram: only its hash is kept, and
 * making a new one voids the customer's earlier unused ones.
 */
export async function startTelegramLink(userId: string, now = new Date()): Promise<string | null> {
  const bot = await telegramBot()
  if (!bot) return null
  const token = randomBytes(24).toString('base64url')
  await prisma.$transaction([
    prisma.telegramLinkToken.deleteMany({ where: { userId, usedAt: null } }),
    prisma.telegramLinkToken.create({
      data: {
        tokenSha256: sha256(token),
        userId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + TELEGRAM_LINK_TTL_MS),
      },
    }),
  ])
  return `https://t.me/${bot.username}?start=${token}`
}

export type LinkOutcome = { ok: true; userId: string } | { ok: false; reason: 'unknown-or-used' | 'expired' }

/**
 * "/start <token>": spends the token (once, whoever asks first) and links the chat to its customer,
 * moving it from any other account it was linked to. Telegram turns on with the link.
 */
export async function linkTelegramChat(token: string, chatId: string, now = new Date()): Promise<LinkOutcome> {
  return prisma.$transaction(async (tx) => {
    const spent = await tx.$queryRaw<{ user_id: string; expired: boolean }[]>`
      UPDATE telegram_link_tokens SET used_at = ${now}::timestamptz
      WHERE token_sha256 = ${sha256(token)} AND used_at IS NULL
      RETURNING user_id::text AS user_id, expires_at <= ${now}::timestamptz AS expired`
    const found = spent[0]
    if (!found) return { ok: false, reason: 'unknown-or-used' } as const
    if (found.expired) return { ok: false, reason: 'expired' } as const
    const elsewhere = await tx.researchChannelChoice.findFirst({ where: { telegramChatId: chatId } })
    if (elsewhere && elsewhere.userId !== found.user_id)
      await unlinkIn(tx, elsewhere.userId, 'moved to another account', now)
    const linked = { telegramChatId: chatId, telegramLinkedAt: now, telegram: true }
    await tx.researchChannelChoice.upsert({
      where: { userId: found.user_id },
      create: { userId: found.user_id, ...linked },
      update: linked,
    })
    await recordAudit(
      tx,
      {
        actorId: found.user_id,
        action: 'account.telegram-linked',
        subjectType: 'User',
        subjectId: found.user_id,
        before: null,
        after: { linkedAt: now.toISOString() },
      },
      now,
    )
    return { ok: true, userId: found.user_id } as const
  })
}

async function unlinkIn(tx: Prisma.TransactionClient, userId: string, reason: string, now: Date): Promise<boolean> {
  const { count } = await tx.researchChannelChoice.updateMany({
    where: { userId, telegramChatId: { not: null } },
    data: { telegramChatId: null, telegramLinkedAt: null, telegram: false },
  })
  if (count === 0) return false
  await recordAudit(
    tx,
    {
      actorId: userId,
      action: 'account.telegram-unlinked',
      subjectType: 'User',
      subjectId: userId,
      before: null,
      after: { reason },
    },
    now,
  )
  return true
}

/** Unlinking from /account ("unlinked by the customer"), /stop, or a 403 from Telegram (the bot was blocked). */
export function unlinkTelegram(userId: string, reason: string, now = new Date()): Promise<boolean> {
  return prisma.$transaction((tx) => unlinkIn(tx, userId, reason, now))
}

/** /stop from a chat: unlinks whoever it is linked to; false when nobody. */
export async function unlinkTelegramChat(chatId: string, now = new Date()): Promise<boolean> {
  const linked = await prisma.researchChannelChoice.findUnique({ where: { telegramChatId: chatId } })
  return linked ? unlinkTelegram(linked.userId, 'stopped in Telegram (/stop)', now) : false
}
