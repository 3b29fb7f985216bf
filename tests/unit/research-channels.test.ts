import { describe, expect, it } from 'vitest'
import {
  RESEARCH_SMS_TITLE_MAX_CHARS,
  RESEARCH_TELEGRAM_SUMMARY_LINES,
  RESEARCH_TELEGRAM_WHOLE_MAX_CHARS,
  researchSmsText,
  researchTelegramText,
  TELEGRAM_BOT_MESSAGES_PER_SECOND,
  TELEGRAM_CHAT_INTERVAL_MS,
  telegramSlot,
} from '~/domain/research-channels'

const parts = {
  title: 'Cement <b>volumes</b>',
  services: ['Equity Research'],
  lines: ['Summary', 'Volumes rose.', '- Capacity up'],
  disclosures: ['Financial interest: No'],
  link: 'https://store.example.in/research/abc',
}

describe('research texts for SMS and Telegram', () => {
  it('keeps a hostile title as text and cuts a long one in the SMS', () => {
    const text = researchSmsText({ business: 'Acme', title: `<script>${'x'.repeat(100)}`, link: '/research/1' })
    expect(text).toContain('"<script>')
    expect(text).toContain('Read it: /research/1')
    const title = /"(.*)"/.exec(text)![1]!
    expect(title).toHaveLength(RESEARCH_SMS_TITLE_MAX_CHARS)
  })

  it('sends a short item whole, markup and all as plain text', () => {
    const { text, summary } = researchTelegramText(parts)
    expect(summary).toBe(false)
    expect(text).toContain('Cement <b>volumes</b>')
    expect(text).toContain('- Capacity up')
    expect(text).toContain('Financial interest: No')
    expect(text).toContain(parts.link)
  })

  it('sends a long item as its title, first lines and the link', () => {
    const lines = Array.from({ length: 80 }, (_, index) => `Line ${index} ${'y'.repeat(80)}`)
    const { text, summary } = researchTelegramText({ ...parts, lines })
    expect(summary).toBe(true)
    expect(text.length).toBeLessThan(RESEARCH_TELEGRAM_WHOLE_MAX_CHARS)
    expect(text).toContain('Cement <b>volumes</b>')
    expect(text).toContain(`Line ${RESEARCH_TELEGRAM_SUMMARY_LINES - 1} `)
    expect(text).not.toContain(`Line ${RESEARCH_TELEGRAM_SUMMARY_LINES} `)
    expect(text).toContain(`Read the whole item, with its disclosures: ${parts.link}`)
  })
})

describe('Telegram pacing', () => {
  it('names the limits with their units', () => {
    expect(TELEGRAM_BOT_MESSAGES_PER_SECOND).toBe(30)
    expect(TELEGRAM_CHAT_INTERVAL_MS).toBe(1_000)
  })

  it('spaces sends to different chats by 1/30 s and to one chat by 1 s', () => {
    const first = telegramSlot(0, 0, 0)
    expect(first).toEqual({ waitMs: 0, botFreeAtMs: 1000 / 30, chatFreeAtMs: TELEGRAM_CHAT_INTERVAL_MS })
    // Another chat waits for the bot's next slot; the same chat for its own interval.
    expect(telegramSlot(0, first.botFreeAtMs, 0).waitMs).toBeCloseTo(1000 / 30)
    expect(telegramSlot(0, first.botFreeAtMs, first.chatFreeAtMs).waitMs).toBe(TELEGRAM_CHAT_INTERVAL_MS)
    // Time passing frees the slots.
    expect(telegramSlot(5_000, first.botFreeAtMs, first.chatFreeAtMs).waitMs).toBe(0)
  })
})
