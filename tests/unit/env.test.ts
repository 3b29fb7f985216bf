import { describe, expect, it } from 'vitest'
import { parseEnv } from '~/server/env.server'

const PRODUCTION = {
  DEMO_MODE: '0',
  DATABASE_URL: 'postgresql://store@db.internal:5432/store',
  SESSION_SECRET: 'x'.repeat(32),
  RAZORPAY_KEY_ID: 'rzp_live_abc123',
  RAZORPAY_KEY_SECRET: 'secret-secret',
  RAZORPAY_WEBHOOK_SECRET: 'webhook-secret',
  MSG91_AUTH_KEY: 'auth-key-123',
  MSG91_TEMPLATE_ID: '1207160000000000000',
  SMTP_URL: 'smtps://mailer:pw@smtp.example.in:465',
  MAIL_FROM: 'Research Store <support@example.in>',
}

describe('parseEnv', () => {
  it('is demo mode on port 3000 when nothing is configured', () => {
    const env = parseEnv({})
    expect(env.DEMO_MODE).toBe(true)
    expect(env.PORT).toBe(3000)
    expect(env.DATABASE_URL).toBeUndefined()
  })

  it('names the variable in a one-line error', () => {
    expect(() => parseEnv({ PORT: 'eighty' })).toThrow(/^Invalid environment variable PORT: .+$/)
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/)
    expect(() => parseEnv({ DEMO_MODE: 'maybe' })).toThrow(/DEMO_MODE/)
  })

  it('treats an empty value as unset', () => {
    expect(parseEnv({ PORT: '' }).PORT).toBe(3000)
  })

  it('accepts a complete production configuration', () => {
    const env = parseEnv(PRODUCTION)
    expect(env.DEMO_MODE).toBe(false)
  })

  it.each(Object.keys(PRODUCTION).filter((name) => name !== 'DEMO_MODE'))(
    'refuses to start in production without %s',
    (name) => {
      const { [name as keyof typeof PRODUCTION]: _omitted, ...rest } = PRODUCTION
      expect(() => parseEnv(rest)).toThrow(new RegExp(`^Missing environment variable ${name} `))
    },
  )
})
