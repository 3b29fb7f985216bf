import { describe, expect, it } from 'vitest'
import { parseEnv } from '~/server/env.server'
import {
  answersLoopbackHostsOnly,
  isDemoOpenToNetwork,
  isLoopbackHostHeader,
  listenHost,
} from '~/server/http/listen-host.server'
import { demoOpenWarning } from '../../scripts/environment'

const PRODUCTION = {
  DEMO_MODE: '0',
  DATABASE_URL: 'postgresql://store@db.internal:5432/store',
  SESSION_SECRET: 'k7Qp2vX9mLw4Rt8ZbN3cYh6JdF1sGe5U',
  RAZORPAY_KEY_ID: 'rzp_live_abc123',
  RAZORPAY_KEY_SECRET: 'secret-secret',
  RAZORPAY_WEBHOOK_SECRET: 'webhook-secret',
  MSG91_AUTH_KEY: 'auth-key-123',
  MSG91_TEMPLATE_ID: '1207160000000000000',
  SMTP_URL: 'smtps://mailer:pw@smtp.example.in:465',
  MAIL_FROM: 'Research Store <support@example.in>',
  KYC_PROVIDER: 'http',
  KYC_KRA_URL: 'https://kra.example.in',
  KYC_KRA_API_KEY: 'kra-api-key',
  PAN_ENCRYPTION_KEY: 'EpurNXIXXGywshGmQXbJkyzMWehqZhlKRKZLN6fxUU8=',
  PAN_LOOKUP_KEY: '6HSSGbHTSgwsqI3cA/w4PPveW25bWPZVLOKSBxeWTMw=',
  RESEARCH_SIGNING_KEY: 'q1XbV0yN7cJ2kP9sW4tZ8mR6hL3fD5gA0uE1iO7wYxQ=',
  UPI_VALID_HANDLE: 'kavyaiyer.ra@validhdfc',
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

  it('refuses a log level or format it does not know, and a METRICS_TOKEN too short to be a secret', () => {
    expect(() => parseEnv({ LOG_LEVEL: 'verbose' })).toThrow(
      'Invalid environment variable LOG_LEVEL: must be fatal, error, warn, info, debug, trace, silent',
    )
    expect(() => parseEnv({ LOG_FORMAT: 'xml' })).toThrow(
      'Invalid environment variable LOG_FORMAT: must be json or pretty',
    )
    expect(() => parseEnv({ METRICS_TOKEN: 'secret' })).toThrow(
      'Invalid environment variable METRICS_TOKEN: must be at least 32 characters (openssl rand -hex 32)',
    )
    expect(() => parseEnv({ METRICS_TOKEN: `${'a'.repeat(32)} b` })).toThrow(/METRICS_TOKEN: must be printable/)
    expect(parseEnv({ LOG_LEVEL: 'debug', LOG_FORMAT: 'json', METRICS_TOKEN: 'f'.repeat(64) })).toMatchObject({
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
      METRICS_TOKEN: 'f'.repeat(64),
    })
  })

  it('treats an empty value as unset', () => {
    expect(parseEnv({ PORT: '' }).PORT).toBe(3000)
  })

  it("takes the site's public address for e-mail links without a trailing slash, and refuses one with a path", () => {
    expect(parseEnv({ APP_ORIGIN: 'https://store.example.in/' }).APP_ORIGIN).toBe('https://store.example.in')
    expect(parseEnv({}).APP_ORIGIN).toBeUndefined()
    expect(() => parseEnv({ APP_ORIGIN: 'https://store.example.in/shop' })).toThrow(
      /^Invalid environment variable APP_ORIGIN: must be the public address of the site/,
    )
    expect(() => parseEnv({ APP_ORIGIN: 'store.example.in' })).toThrow(/APP_ORIGIN/)
  })

  it('refuses a RESEARCH_SIGNING_KEY that is not 32 random bytes in base64', () => {
    expect(() => parseEnv({ ...PRODUCTION, RESEARCH_SIGNING_KEY: 'short' })).toThrow(
      /^Invalid environment variable RESEARCH_SIGNING_KEY: must be 32 random bytes in base64/,
    )
  })

  it.each([
    ['one character repeated', 'a'.repeat(40)],
    ['a short pattern repeated', 'abc'.repeat(12)],
    ['a longer pattern repeated', 'Secret-2026!'.repeat(3)],
    ['a run of digits and letters', '0123456789abcdefghijklmnopqrstuvwxyz'],
    ['a run backwards', 'zyxwvutsrqponmlkjihgfedcba9876543210'],
    ['too few different characters', '0110100110010110100101100110100101'],
  ])('refuses a weak SESSION_SECRET with DEMO_MODE=0 (%s), naming the variable', (_label, secret) => {
    expect(() => parseEnv({ ...PRODUCTION, SESSION_SECRET: secret })).toThrow(
      /^Invalid environment variable SESSION_SECRET: too easy to guess .*openssl rand -base64 32/,
    )
  })

  it('accepts a random SESSION_SECRET, and a weak one in demo mode (its own stand-in secrets)', () => {
    for (const secret of [
      'runtime-image-smoke-session-secret-0123456789',
      'EpurNXIXXGywshGmQXbJkyzMWehqZhlKRKZLN6fx',
    ]) {
      expect(parseEnv({ ...PRODUCTION, SESSION_SECRET: secret }).SESSION_SECRET).toBe(secret)
    }
    expect(parseEnv({ SESSION_SECRET: 'a'.repeat(32) }).SESSION_SECRET).toBe('a'.repeat(32))
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

describe('the KRA in a deployment', () => {
  it('refuses a PAN key that is not 32 random bytes, saying how to make one', () => {
    expect(() => parseEnv({ ...PRODUCTION, PAN_ENCRYPTION_KEY: 'short' })).toThrow(
      'Invalid environment variable PAN_ENCRYPTION_KEY: must be 32 random bytes in base64 (openssl rand -base64 32); this one is 3 bytes',
    )
    expect(() => parseEnv({ ...PRODUCTION, PAN_LOOKUP_KEY: Buffer.alloc(32, 'a').toString('base64') })).toThrow(
      'Invalid environment variable PAN_LOOKUP_KEY: is too regular to be a random key; make one with openssl rand -base64 32',
    )
    expect(() => parseEnv({ ...PRODUCTION, PAN_ENCRYPTION_OLD_KEYS: `${PRODUCTION.PAN_LOOKUP_KEY}, nope!` })).toThrow(
      /^Invalid environment variable PAN_ENCRYPTION_OLD_KEYS: must be 32 random bytes/,
    )
  })

  it('takes the PAN keys only together, in demo mode too, and old keys only with a current one', () => {
    expect(() => parseEnv({ PAN_ENCRYPTION_KEY: PRODUCTION.PAN_ENCRYPTION_KEY })).toThrow(
      'Missing environment variable PAN_LOOKUP_KEY (the PAN keys are set together, each openssl rand -base64 32); required when PAN_ENCRYPTION_KEY is set',
    )
    expect(() => parseEnv({ PAN_LOOKUP_KEY: PRODUCTION.PAN_LOOKUP_KEY })).toThrow(
      /^Missing environment variable PAN_ENCRYPTION_KEY \(the PAN keys are set together/,
    )
    expect(() => parseEnv({ PAN_ENCRYPTION_OLD_KEYS: PRODUCTION.PAN_ENCRYPTION_KEY })).toThrow(
      /^Missing environment variable PAN_ENCRYPTION_KEY \(the key that replaced PAN_ENCRYPTION_OLD_KEYS\)/,
    )
  })

  it('refuses one key for both PAN purposes', () => {
    expect(() => parseEnv({ ...PRODUCTION, PAN_LOOKUP_KEY: PRODUCTION.PAN_ENCRYPTION_KEY })).toThrow(
      'PAN_LOOKUP_KEY must differ from PAN_ENCRYPTION_KEY (one key, one purpose)',
    )
  })

  it("requires SEBI's validated UPI handle, unless the analyst has not been given one yet", () => {
    const { UPI_VALID_HANDLE: _handle, ...withoutHandle } = PRODUCTION
    expect(() => parseEnv(withoutHandle)).toThrow(
      /^Missing environment variable UPI_VALID_HANDLE \(.+\); required when DEMO_MODE=0\. Not given one yet\? Set UPI_VALID_HANDLE_PENDING=1/,
    )
    expect(parseEnv({ ...withoutHandle, UPI_VALID_HANDLE_PENDING: '1' }).UPI_VALID_HANDLE).toBeUndefined()
    expect(parseEnv(PRODUCTION).UPI_VALID_HANDLE).toBe('kavyaiyer.ra@validhdfc')
    expect(() => parseEnv({ ...PRODUCTION, UPI_VALID_HANDLE_PENDING: '1' })).toThrow(/remove UPI_VALID_HANDLE_PENDING/)
    // Demo mode runs without one.
    expect(parseEnv({}).UPI_VALID_HANDLE).toBeUndefined()
  })

  it("refuses a UPI handle that is not SEBI's validated kind", () => {
    for (const handle of ['kavyaiyer@okhdfcbank', 'kavyaiyer.ra@valid', '@validhdfc', 'kavya iyer@validhdfc']) {
      expect(() => parseEnv({ ...PRODUCTION, UPI_VALID_HANDLE: handle }), handle).toThrow(
        /^Invalid environment variable UPI_VALID_HANDLE: must be the UPI handle SEBI validated/,
      )
    }
    expect(parseEnv({ ...PRODUCTION, UPI_VALID_HANDLE: 'Kavya.Iyer-RA@ValidICICI' }).UPI_VALID_HANDLE).toBe(
      'Kavya.Iyer-RA@ValidICICI',
    )
  })

  it('refuses the fake KRA, which validates any PAN', () => {
    expect(() => parseEnv({ ...PRODUCTION, KYC_PROVIDER: 'fake' })).toThrow(
      /^KYC_PROVIDER=fake answers "validated" for any PAN and is for demo mode only/,
    )
  })
})

const S3 = {
  S3_BUCKET: 'research-store-uploads',
  S3_REGION: 'ap-south-1',
  S3_ENDPOINT: 'https://s3.ap-south-1.amazonaws.com',
  S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
  S3_SECRET_ACCESS_KEY: 'secret-access-key',
}

describe('parseEnv: uploads storage', () => {
  it('keeps uploads on the filesystem under .data/uploads when nothing is configured', () => {
    const env = parseEnv({})
    expect(env.UPLOADS_DIR).toBe('.data/uploads')
    expect(env.S3_BUCKET).toBeUndefined()
  })

  it('takes another uploads folder', () => {
    expect(parseEnv({ UPLOADS_DIR: '/var/lib/research-store/uploads' }).UPLOADS_DIR).toBe(
      '/var/lib/research-store/uploads',
    )
  })

  it('accepts a complete S3-compatible configuration, dropping a trailing slash of the endpoint', () => {
    const env = parseEnv({ ...S3, S3_ENDPOINT: 'http://127.0.0.1:9000/' })
    expect(env).toMatchObject({ ...S3, S3_ENDPOINT: 'http://127.0.0.1:9000' })
  })

  it.each(Object.keys(S3))('refuses an S3 configuration without %s, naming it in one line', (name) => {
    const { [name as keyof typeof S3]: _omitted, ...rest } = S3
    expect(() => parseEnv(rest)).toThrow(
      new RegExp(
        `^Missing environment variable ${name} \\(S3-compatible storage for uploads\\); required when S3_\\w+ is set$`,
      ),
    )
  })

  it('treats an empty S3 variable as missing', () => {
    expect(() => parseEnv({ ...S3, S3_SECRET_ACCESS_KEY: '' })).toThrow(
      /^Missing environment variable S3_SECRET_ACCESS_KEY /,
    )
  })

  it('names a malformed S3 variable', () => {
    expect(() => parseEnv({ ...S3, S3_BUCKET: 'Uploads_Bucket' })).toThrow(/^Invalid environment variable S3_BUCKET: /)
    expect(() => parseEnv({ ...S3, S3_ENDPOINT: 's3.amazonaws.com' })).toThrow(
      /^Invalid environment variable S3_ENDPOINT: /,
    )
    expect(() => parseEnv({ ...S3, S3_ENDPOINT: 'https://minio.internal/bucket' })).toThrow(
      /^Invalid environment variable S3_ENDPOINT: /,
    )
  })
})

describe('parseEnv: agreement signing', () => {
  it('is the recorded click-accept by default, in demo mode and in production alike', () => {
    expect(parseEnv({}).AGREEMENT_SIGNING).toBe('click-accept')
    expect(parseEnv(PRODUCTION).AGREEMENT_SIGNING).toBe('click-accept')
  })

  it('refuses a method that does not exist, naming the variable', () => {
    expect(() => parseEnv({ AGREEMENT_SIGNING: 'docusign' })).toThrow(
      /^Invalid environment variable AGREEMENT_SIGNING: must be click-accept/,
    )
  })
})

describe('parseEnv: open bank transfer claims', () => {
  it('allows 3 per customer unless MANUAL_OPEN_CLAIMS_MAX says otherwise, and refuses a value that is not a whole number from 1 to 100', () => {
    expect(parseEnv({}).MANUAL_OPEN_CLAIMS_MAX).toBe(3)
    expect(parseEnv({ MANUAL_OPEN_CLAIMS_MAX: '5' }).MANUAL_OPEN_CLAIMS_MAX).toBe(5)
    for (const value of ['0', '2.5', 'many', '101']) {
      expect(() => parseEnv({ MANUAL_OPEN_CLAIMS_MAX: value })).toThrow(
        /^Invalid environment variable MANUAL_OPEN_CLAIMS_MAX/,
      )
    }
  })
})

describe('parseEnv: where the server listens', () => {
  it('keeps demo mode on loopback when nothing is configured', () => {
    expect(listenHost(parseEnv({}))).toBe('127.0.0.1')
    expect(listenHost(parseEnv({ DEMO_MODE: '1' }))).toBe('127.0.0.1')
  })

  it('refuses HOST=0.0.0.0 when demo mode is only the default, in one line saying what to set', () => {
    expect(() => parseEnv({ HOST: '0.0.0.0' })).toThrow(
      /^HOST=0\.0\.0\.0 would open demo mode \(every sign-in code readable at \/dev\/outbox\) to the network; set DEMO_MODE=1 to do so on purpose, or DEMO_MODE=0 with real providers for a deployment$/,
    )
  })

  it('opens demo mode to the network when DEMO_MODE=1 is set on purpose, with a loud warning', () => {
    const env = parseEnv({ HOST: '0.0.0.0', DEMO_MODE: '1' })
    expect(listenHost(env)).toBe('0.0.0.0')
    expect(isDemoOpenToNetwork(env)).toBe(true)
    expect(demoOpenWarning(env)).toMatch(
      /WARNING: demo mode is open to the network \(HOST=0\.0\.0\.0, DEMO_MODE=1\)[\s\S]*every sign-in code at \/dev\/outbox/,
    )
  })

  it('gives no warning for demo mode on loopback', () => {
    expect(demoOpenWarning(parseEnv({}))).toBeUndefined()
    expect(demoOpenWarning(parseEnv({ HOST: 'localhost' }))).toBeUndefined()
  })

  it('listens on every interface in production unless HOST says otherwise', () => {
    expect(listenHost(parseEnv(PRODUCTION))).toBeUndefined()
    expect(listenHost(parseEnv({ ...PRODUCTION, HOST: '0.0.0.0' }))).toBe('0.0.0.0')
    expect(demoOpenWarning(parseEnv({ ...PRODUCTION, HOST: '0.0.0.0' }))).toBeUndefined()
  })
})

describe('the Host check of a demo store on loopback', () => {
  it('is on in demo mode on loopback only', () => {
    expect(answersLoopbackHostsOnly({ DEMO_MODE: true })).toBe(true)
    expect(answersLoopbackHostsOnly({ DEMO_MODE: true, HOST: '::1' })).toBe(true)
    expect(answersLoopbackHostsOnly({ DEMO_MODE: true, HOST: '0.0.0.0' })).toBe(false)
    expect(answersLoopbackHostsOnly({ DEMO_MODE: false, HOST: '127.0.0.1' })).toBe(false)
  })

  it('takes loopback names with any port, and nothing else', () => {
    for (const host of ['localhost', 'localhost:3000', '127.0.0.1:80', '[::1]', '[::1]:3211', ' LocalHost:1 ']) {
      expect(isLoopbackHostHeader(host), host).toBe(true)
    }
    for (const host of [undefined, '', ':3000', '[::1', '::1:3000', 'localhost:x', 'localhost.example', '10.0.0.1']) {
      expect(isLoopbackHostHeader(host), String(host)).toBe(false)
    }
  })
})
