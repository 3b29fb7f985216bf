import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eraseExpiredData } from '~/server/account/retention.server'
import { customerData } from '~/server/account/your-data.server'
import { prisma } from '~/server/db.server'
import type { NoticeSms } from '~/server/messaging/sms.server'
import { telegramBot } from '~/server/messaging/telegram-bot.server'
import {
  fakeTelegramWebhookSecret,
  telegramBotApi,
  TelegramDeliveryError,
  type TelegramBot,
} from '~/server/messaging/telegram.server'
import { chooseResearchChannels, researchChannelsOf, startTelegramLink } from '~/server/research/channels.server'
import { sendDueResearchDeliveries } from '~/server/research/deliveries.server'
import { createResearchDraft } from '~/server/research/items.server'
import { publishResearchItem } from '~/server/research/publishing.server'
import { reserveTelegramSlot } from '~/server/research/telegram-pace.server'
import { receiveTelegramUpdate } from '~/server/research/telegram-webhook.server'
import {
  TELEGRAM_BOT_MESSAGES_PER_SECOND,
  TELEGRAM_CHAT_INTERVAL_MS,
  TELEGRAM_LINK_TTL_MS,
} from '~/domain/research-channels'
import { createService } from '../support/payment-fixtures'
import { signedInUser } from '../support/sessions'

const DAY_MS = 86_400_000
let nextUpdateId = 1_000
let nextChatId = 500_000_001

function update(text: string, chatId: number, updateId = nextUpdateId++) {
  return { update_id: updateId, message: { message_id: 1, chat: { id: chatId, type: 'private' }, text } }
}

function post(body: unknown, secret: string | null = fakeTelegramWebhookSecret()) {
  return receiveTelegramUpdate(
    new Request('http://localhost/webhooks/telegram', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(secret === null ? {} : { 'x-telegram-bot-api-secret-token': secret }),
      },
      body: JSON.stringify(body),
    }),
  )
}

const tokenOf = (deepLink: string) => new URL(deepLink).searchParams.get('start')!
const choiceOf = (userId: string) => prisma.researchChannelChoice.findUnique({ where: { userId } })

async function linkedCustomer() {
  const customer = await signedInUser({ completeProfile: true })
  const chatId = nextChatId++
  const answer = await post(update(`/start ${tokenOf((await startTelegramLink(customer.userId))!)}`, chatId))
  expect(await answer.json()).toEqual({ ok: true, handled: 'linked' })
  return { ...customer, chatId: String(chatId) }
}

describe('the Telegram webhook refuses what Telegram did not send', () => {
  it('answers 401 without the secret token or with a wrong one, and links nothing', async () => {
    const customer = await signedInUser({ completeProfile: true })
    const token = tokenOf((await startTelegramLink(customer.userId))!)
    for (const secret of [null, '', 'wrong-secret', `${fakeTelegramWebhookSecret()}x`]) {
      const answer = await post(update(`/start ${token}`, nextChatId), secret)
      expect(answer.status).toBe(401)
    }
    expect(await choiceOf(customer.userId)).toBeNull()
    expect(await prisma.telegramLinkToken.count({ where: { userId: customer.userId, usedAt: { not: null } } })).toBe(0)
  })

  it('ignores a replayed update id', async () => {
    const customer = await signedInUser({ completeProfile: true })
    const first = update(`/start ${tokenOf((await startTelegramLink(customer.userId))!)}`, nextChatId++)
    expect(await (await post(first)).json()).toEqual({ ok: true, handled: 'linked' })
    // The same update id again, now carrying /stop: answered 200 and ignored.
    const replay = { ...update('/stop', first.message.chat.id), update_id: first.update_id }
    expect(await (await post(replay)).json()).toEqual({ ok: true, handled: 'replay' })
    expect((await choiceOf(customer.userId))?.telegramChatId).toBe(String(first.message.chat.id))
  })

  it('refuses a used, an unknown and an expired token', async () => {
    const customer = await signedInUser({ completeProfile: true })
    const token = tokenOf((await startTelegramLink(customer.userId))!)
    expect(await (await post(update(`/start ${token}`, nextChatId++))).json()).toMatchObject({ handled: 'linked' })
    const other = nextChatId++
    expect(await (await post(update(`/start ${token}`, other))).json()).toMatchObject({ handled: 'unknown-or-used' })
    expect(await (await post(update('/start never-issued', other))).json()).toMatchObject({
      handled: 'unknown-or-used',
    })
    const late = await signedInUser({ completeProfile: true })
    const longAgo = new Date(Date.now() - TELEGRAM_LINK_TTL_MS - 1_000)
    const stale = tokenOf((await startTelegramLink(late.userId, longAgo))!)
    expect(await (await post(update(`/start ${stale}`, other))).json()).toMatchObject({ handled: 'expired' })
    expect(await choiceOf(late.userId)).toBeNull()
    expect(await prisma.researchChannelChoice.count({ where: { telegramChatId: String(other) } })).toBe(0)
  })

  it('answers 400 to a body that is not an update and 413 to a huge one', async () => {
    expect((await post({ message: 'no id' })).status).toBe(400)
    const huge = await receiveTelegramUpdate(
      new Request('http://localhost/webhooks/telegram', {
        method: 'POST',
        headers: { 'x-telegram-bot-api-secret-token': fakeTelegramWebhookSecret() },
        body: 'x'.repeat(70_000),
      }),
    )
    expect(huge.status).toBe(413)
  })
})

describe('choosing research channels', () => {
  it('defaults to e-mail only, keeps Telegram off until linked, and audits each change', async () => {
    const customer = await signedInUser({ completeProfile: true })
    expect(await researchChannelsOf(customer.userId)).toMatchObject({
      email: { chosen: true },
      sms: { chosen: false, available: true },
      telegram: { chosen: false, available: true, linkedAt: null },
    })
    expect(await chooseResearchChannels(customer.userId, { email: false, sms: true, telegram: true })).toEqual({
      email: false,
      sms: true,
      telegram: false,
    })
    const audit = await prisma.auditLog.findFirstOrThrow({
      where: { subjectId: customer.userId, action: 'account.research-channels' },
    })
    expect(audit.after).toEqual({ email: false, sms: true, telegram: false })
  })

  it("are in the customer's data download: the defaults, then what they chose", async () => {
    const customer = await signedInUser({ completeProfile: true })
    expect((await customerData(customer.userId))?.researchChannels).toEqual({
      email: true,
      sms: false,
      telegram: false,
      telegramLinkedAt: null,
    })
    await chooseResearchChannels(customer.userId, { email: false, sms: true, telegram: false })
    expect((await customerData(customer.userId))?.researchChannels).toMatchObject({ email: false, sms: true })
  })

  it('links with /start (Telegram on) and unlinks with /stop', async () => {
    const customer = await linkedCustomer()
    expect(await choiceOf(customer.userId)).toMatchObject({ telegram: true, telegramChatId: customer.chatId })
    expect(await (await post(update('/stop', Number(customer.chatId)))).json()).toMatchObject({ handled: 'unlinked' })
    expect(await choiceOf(customer.userId)).toMatchObject({ telegram: false, telegramChatId: null })
    const replies = await prisma.outboxMessage.findMany({ where: { recipient: `telegram:${customer.chatId}` } })
    expect(replies.map((reply) => reply.body)).toEqual([
      expect.stringContaining('Linked.'),
      expect.stringContaining('Unlinked.'),
    ])
  })
})

async function publishTo(userIds: string[], title = 'Steel: <script>alert(1)</script> prices') {
  const service = await createService('Channels', 100_000, 30)
  const now = new Date()
  for (const userId of userIds)
    await prisma.subscription.create({
      data: {
        userId,
        serviceId: service.id,
        startsAt: new Date(now.getTime() - DAY_MS),
        endsAt: new Date(now.getTime() + DAY_MS),
        grantReason: 'channels test',
        grantedById: userId,
      },
    })
  const admin = await signedInUser({ role: 'ADMIN' })
  const draft = await createResearchDraft(admin.userId, {
    title,
    body: '## Summary\nPrices rose.\n\n- Demand up',
    serviceIds: [service.id],
    financialInterest: false,
    ownershipOnePercent: false,
    compensationPastYear: false,
    aiToolsUsed: false,
    otherConflict: 'None',
  })
  if (!draft.ok) throw new Error(draft.message)
  const published = await publishResearchItem(draft.id, admin.userId, now)
  if (!published.ok) throw new Error(published.reason)
  return { itemId: draft.id, now }
}

type Sent = { chatId: string; text: string }
function recordingBot(answer: (chatId: string) => Promise<string> = async () => '42'): TelegramBot & { sent: Sent[] } {
  const sent: Sent[] = []
  return {
    name: 'recording',
    username: 'RecordingBot',
    webhookSecret: 'unused',
    sent,
    async sendMessage(chatId, text) {
      const id = await answer(chatId)
      sent.push({ chatId, text })
      return id
    },
  }
}

/** A clock reading later than every slot booked so far, so a test's first send waits for nothing. */
async function momentAfterEveryBooking() {
  const { nextAtMs } = await prisma.telegramPace.findUniqueOrThrow({ where: { singleton: true } })
  return Math.max(Date.now(), nextAtMs) + DAY_MS
}

async function drain(itemId: string, now: Date, options: Parameters<typeof sendDueResearchDeliveries>[0]) {
  for (let round = 0; round < 20; round++) {
    if (
      (await prisma.researchDelivery.count({ where: { itemId, status: 'QUEUED', nextAttemptAt: { lte: now } } })) === 0
    )
      return
    await sendDueResearchDeliveries({ now, ...options })
  }
  throw new Error('deliveries never drained')
}

describe('publishing and delivering per channel', () => {
  it('queues one row per recipient and chosen channel, in the publishing transaction', async () => {
    const emailOnly = await signedInUser({ completeProfile: true })
    const everything = await linkedCustomer()
    await chooseResearchChannels(everything.userId, { email: true, sms: true, telegram: true })
    const nothing = await signedInUser({ completeProfile: true })
    await chooseResearchChannels(nothing.userId, { email: false, sms: false, telegram: false })
    const { itemId } = await publishTo([emailOnly.userId, everything.userId, nothing.userId])
    const rows = await prisma.researchDelivery.findMany({ where: { itemId }, select: { userId: true, channel: true } })
    const byUser = (userId: string) =>
      rows
        .filter((row) => row.userId === userId)
        .map((row) => row.channel)
        .sort()
    expect(byUser(emailOnly.userId)).toEqual(['EMAIL'])
    expect(byUser(everything.userId)).toEqual(['EMAIL', 'SMS', 'TELEGRAM'])
    expect(byUser(nothing.userId)).toEqual([])
    // The site is always on: all three are on the roll.
    expect(await prisma.researchRollEntry.count({ where: { itemId } })).toBe(3)
  })

  it('sends the SMS notice with a link through the research template, and Telegram as plain text', async () => {
    const customer = await linkedCustomer()
    await chooseResearchChannels(customer.userId, { email: false, sms: true, telegram: true })
    const { itemId, now } = await publishTo([customer.userId])
    const texts: NoticeSms[] = []
    const bot = recordingBot()
    await drain(itemId, now, {
      send: async () => 'mail',
      sms: async (sms) => {
        texts.push(sms)
        return 'msg91-1'
      },
      telegram: bot,
      wait: async () => {},
    })
    const rows = await prisma.researchDelivery.findMany({ where: { itemId }, orderBy: { channel: 'asc' } })
    expect(rows.map((row) => [row.channel, row.status, row.providerMessageId])).toEqual([
      ['SMS', 'SENT', 'msg91-1'],
      ['TELEGRAM', 'SENT', '42'],
    ])
    const sms = texts.find((text) => text.userId === customer.userId)!
    expect(sms.template).toBe('research')
    expect(sms.text).toContain(`/research/${itemId}`)
    expect(sms.text).toContain('Steel: <script>')
    const message = bot.sent.find((entry) => entry.chatId === customer.chatId)!
    expect(message.text).toContain('Steel: <script>alert(1)</script> prices')
    expect(message.text).toContain('- Demand up')
    expect(message.text).toContain(`/research/${itemId}`)
    // Both are in the archive of sent messages, with what was sent.
    const archived = await prisma.sentMessage.findMany({
      where: { userId: customer.userId, template: 'research' },
      orderBy: { channel: 'asc' },
      select: { channel: true, recipient: true, body: true },
    })
    expect(archived).toEqual([
      { channel: 'sms', recipient: expect.stringMatching(/^\+91/), body: sms.text },
      { channel: 'telegram', recipient: customer.chatId, body: expect.stringContaining(`Research item ${itemId}`) },
    ])
  })

  it('marks a delivery to a bot the customer blocked FAILED and unlinks Telegram, not the item', async () => {
    const customer = await linkedCustomer()
    await chooseResearchChannels(customer.userId, { email: true, sms: false, telegram: true })
    const { itemId, now } = await publishTo([customer.userId])
    const bot = recordingBot(async (chatId) => {
      if (chatId === customer.chatId)
        throw new TelegramDeliveryError('Telegram answered 403: Forbidden: bot was blocked by the user', false, true)
      return '1'
    })
    await drain(itemId, now, { send: async () => 'mail-1', telegram: bot, wait: async () => {} })
    const telegram = await prisma.researchDelivery.findFirstOrThrow({ where: { itemId, channel: 'TELEGRAM' } })
    expect(telegram).toMatchObject({ status: 'FAILED', attempts: 1 })
    expect(telegram.lastError).toContain('bot was blocked by the user')
    expect(await prisma.researchDelivery.findFirstOrThrow({ where: { itemId, channel: 'EMAIL' } })).toMatchObject({
      status: 'SENT',
    })
    expect((await prisma.researchItem.findUniqueOrThrow({ where: { id: itemId } })).status).toBe('PUBLISHED')
    expect(await choiceOf(customer.userId)).toMatchObject({ telegram: false, telegramChatId: null })
    expect(
      await prisma.auditLog.count({ where: { subjectId: customer.userId, action: 'account.telegram-unlinked' } }),
    ).toBe(1)
  })

  it('waits a second between two messages to one chat', async () => {
    const customer = await linkedCustomer()
    await chooseResearchChannels(customer.userId, { email: false, sms: false, telegram: true })
    const first = await publishTo([customer.userId])
    const second = await publishTo([customer.userId])
    const waits: number[] = []
    const bot = recordingBot()
    const at = await momentAfterEveryBooking()
    await drain(first.itemId, second.now, { telegram: bot, wait: async (ms) => void waits.push(ms), clock: () => at })
    await drain(second.itemId, second.now, { telegram: bot, wait: async (ms) => void waits.push(ms), clock: () => at })
    expect(bot.sent.filter((entry) => entry.chatId === customer.chatId)).toHaveLength(2)
    // Both in one run: the second waited for the chat's interval.
    expect(waits).toContain(TELEGRAM_CHAT_INTERVAL_MS)
  })

  it('keeps one pace for the bot across instances: sends booked at once go 1/30 s apart', async () => {
    const customers = await Promise.all([1, 2, 3, 4, 5].map(() => linkedCustomer()))
    const at = await momentAfterEveryBooking()
    // Each booking in its own transaction on its own connection, as instances running the job at once would.
    const waits = (await Promise.all(customers.map(({ chatId }) => reserveTelegramSlot(chatId, at)))).sort(
      (a, b) => a - b,
    )
    expect(waits[0]).toBe(0)
    for (const [index, wait] of waits.slice(1).entries())
      expect(wait - waits[index]!).toBeCloseTo(1000 / TELEGRAM_BOT_MESSAGES_PER_SECOND)
    // The chats booked are each held for their interval too.
    expect(await reserveTelegramSlot(customers[0]!.chatId, at)).toBeGreaterThanOrEqual(TELEGRAM_CHAT_INTERVAL_MS)
  })

  it('keeps the pace when a batch tries its Telegram sends at once: each books its own slot', async () => {
    const customers = await Promise.all([1, 2, 3, 4, 5, 6].map(() => linkedCustomer()))
    for (const { userId } of customers)
      await chooseResearchChannels(userId, { email: false, sms: false, telegram: true })
    const { itemId, now } = await publishTo(customers.map(({ userId }) => userId))
    const chats = new Set(customers.map(({ chatId }) => chatId))
    const booked: number[] = []
    let booking = 0
    let mostBooking = 0
    const bot = recordingBot()
    const at = await momentAfterEveryBooking()
    await drain(itemId, now, {
      telegram: bot,
      wait: async () => {},
      clock: () => at,
      pace: async (chatId, nowMs) => {
        mostBooking = Math.max(mostBooking, ++booking)
        const waitMs = await reserveTelegramSlot(chatId, nowMs)
        booking--
        if (chats.has(chatId)) booked.push(waitMs)
        return waitMs
      },
    })
    expect(bot.sent.filter(({ chatId }) => chats.has(chatId))).toHaveLength(6)
    expect(mostBooking).toBeGreaterThan(1)
    const waits = booked.sort((a, b) => a - b)
    expect(waits[0]).toBe(0)
    for (const [index, wait] of waits.slice(1).entries())
      expect(wait - waits[index]!).toBeCloseTo(1000 / TELEGRAM_BOT_MESSAGES_PER_SECOND)
  })

  it('puts the fake bot’s messages in the dev outbox', async () => {
    const customer = await linkedCustomer()
    await chooseResearchChannels(customer.userId, { email: false, sms: false, telegram: true })
    const { itemId, now } = await publishTo([customer.userId], 'Outbox item')
    await drain(itemId, now, { wait: async () => {} })
    const row = await prisma.researchDelivery.findFirstOrThrow({ where: { itemId } })
    expect(row).toMatchObject({ status: 'SENT', channel: 'TELEGRAM' })
    const message = await prisma.outboxMessage.findFirstOrThrow({
      where: { recipient: `telegram:${customer.chatId}`, body: { contains: 'Outbox item' } },
    })
    expect(message.channel).toBe('telegram')
    expect(row.providerMessageId).toBe(`outbox-${message.id}`)
    expect(await telegramBot()).not.toBeNull()
  })
})

describe('the Bot API client against a local fake of Telegram', () => {
  let server: Server
  let baseUrl: string
  const requests: { url: string; body: Record<string, unknown> }[] = []
  const answers: [number, unknown][] = []

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      let raw = ''
      request.on('data', (chunk: Buffer) => (raw += chunk.toString()))
      request.on('end', () => {
        requests.push({ url: request.url ?? '', body: JSON.parse(raw) as Record<string, unknown> })
        const [status, body] = answers.shift() ?? [200, { ok: true, result: { message_id: 7 } }]
        response.writeHead(status, { 'content-type': 'application/json' })
        response.end(JSON.stringify(body))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const bot = () => telegramBotApi({ token: '123:abc', username: 'Bot', webhookSecret: 's', baseUrl })

  it('sends plain text (no parse_mode) and answers the message id', async () => {
    expect(await bot().sendMessage('99', '<b>x</b>')).toBe('7')
    const sent = requests.at(-1)!
    expect(sent.url).toBe('/bot123:abc/sendMessage')
    expect(sent.body).toMatchObject({ chat_id: '99', text: '<b>x</b>' })
    expect(sent.body).not.toHaveProperty('parse_mode')
  })

  it('reads 403 as blocked, 429 as retry after, 400 as final', async () => {
    answers.push([403, { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' }])
    await expect(bot().sendMessage('1', 'x')).rejects.toMatchObject({ blocked: true, retryable: false })
    answers.push([429, { ok: false, description: 'Too Many Requests', parameters: { retry_after: 3 } }])
    await expect(bot().sendMessage('1', 'x')).rejects.toMatchObject({ retryable: true, retryAfterMs: 3_000 })
    answers.push([400, { ok: false, description: 'Bad Request: chat not found' }])
    await expect(bot().sendMessage('1', 'x')).rejects.toMatchObject({ retryable: false, blocked: false })
  })
})

describe('erasing an account', () => {
  it('forgets its Telegram chat and channel choices', async () => {
    const customer = await signedInUser()
    await prisma.researchChannelChoice.create({
      data: { userId: customer.userId, sms: true, telegram: true, telegramChatId: String(nextChatId++) },
    })
    await startTelegramLink(customer.userId)
    await prisma.user.update({ where: { id: customer.userId }, data: { lastSeenAt: new Date('2020-01-01T00:00:00Z') } })
    await eraseExpiredData(new Date())
    expect((await prisma.user.findUniqueOrThrow({ where: { id: customer.userId } })).erasedAt).not.toBeNull()
    expect(await choiceOf(customer.userId)).toBeNull()
    expect(await prisma.telegramLinkToken.count({ where: { userId: customer.userId } })).toBe(0)
  })
})

describe('the fake bot in a deployment', () => {
  it('refuses to run with DEMO_MODE=0', async () => {
    const { fakeTelegramBot } = await import('~/demo/telegram-fake.server')
    expect(() => fakeTelegramBot({ DEMO_MODE: false, NODE_ENV: 'production' })).toThrow(/DEMO_MODE=0/)
    expect(
      await telegramBot({
        DEMO_MODE: false,
        NODE_ENV: 'production',
        TELEGRAM_API_BASE_URL: 'https://api.telegram.org',
      }),
    ).toBeNull()
  })
})
