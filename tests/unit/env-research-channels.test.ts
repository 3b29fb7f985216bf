import { describe, expect, it } from 'vitest'
import { parseEnv } from '~/server/env.server'

const TELEGRAM = {
  TELEGRAM_BOT_TOKEN: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw',
  TELEGRAM_WEBHOOK_SECRET: 'a'.repeat(16) + 'b1c2d3e4f5a6b7c8d9',
  TELEGRAM_BOT_USERNAME: 'ResearchStoreBot',
}

describe('parseEnv: the research channels', () => {
  it('refuses a Telegram setting without the other two, naming the missing one', () => {
    expect(() => parseEnv({ TELEGRAM_BOT_TOKEN: TELEGRAM.TELEGRAM_BOT_TOKEN })).toThrow(
      /^Missing environment variable TELEGRAM_WEBHOOK_SECRET \(the research bot on Telegram\); required when TELEGRAM_BOT_TOKEN is set$/,
    )
    expect(() => parseEnv({ ...TELEGRAM, TELEGRAM_BOT_USERNAME: '' })).toThrow(/TELEGRAM_BOT_USERNAME/)
  })

  it('refuses a token, a secret or a username of the wrong shape', () => {
    expect(() => parseEnv({ ...TELEGRAM, TELEGRAM_BOT_TOKEN: 'not-a-token' })).toThrow(
      /^Invalid environment variable TELEGRAM_BOT_TOKEN: must be a bot token from @BotFather/,
    )
    expect(() => parseEnv({ ...TELEGRAM, TELEGRAM_WEBHOOK_SECRET: 'short' })).toThrow(/TELEGRAM_WEBHOOK_SECRET/)
    expect(() => parseEnv({ ...TELEGRAM, TELEGRAM_WEBHOOK_SECRET: `${'a'.repeat(40)} space` })).toThrow(
      /TELEGRAM_WEBHOOK_SECRET/,
    )
    expect(() => parseEnv({ ...TELEGRAM, TELEGRAM_BOT_USERNAME: '@ResearchStoreBot' })).toThrow(
      /TELEGRAM_BOT_USERNAME: must be the bot's username without @/,
    )
  })

  it('takes all three, and the research SMS template on its own (both optional)', () => {
    const env = parseEnv({ ...TELEGRAM, MSG91_RESEARCH_TEMPLATE_ID: 'research-1207' })
    expect(env.TELEGRAM_BOT_USERNAME).toBe('ResearchStoreBot')
    expect(env.TELEGRAM_API_BASE_URL).toBe('https://api.telegram.org')
    expect(env.MSG91_RESEARCH_TEMPLATE_ID).toBe('research-1207')
    expect(parseEnv({}).TELEGRAM_BOT_TOKEN).toBeUndefined()
  })
})
