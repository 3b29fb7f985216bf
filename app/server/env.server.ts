import { z } from 'zod'
import { FEE_CAP_WINDOWS, SEBI_FEE_CAP_PAISE } from '~/domain/fee-cap'
import { UPI_VALID_HANDLE_PATTERN } from '~/domain/upi-handle'
import { isDemoOpenToNetwork } from './http/listen-host.server'
import { panKeyProblem } from './kyc/pan-crypto.server'
import { LOG_FORMATS, LOG_LEVELS } from './operations/logger.server'

const flag = z
  .enum(['1', '0', 'true', 'false'], { error: 'must be 1 or 0' })
  .transform((value) => value === '1' || value === 'true')

/** Where KYC checks go: the local fake (demo mode and tests) or a KRA's HTTP interface (docs/regulatory.md). */
export const KYC_PROVIDERS = ['fake', 'http'] as const

/** How customers sign the agreement (app/server/account/agreement.server.ts). */
export const AGREEMENT_SIGNING_METHODS = ['click-accept'] as const

/** 32 random bytes in base64, checked at start-up (app/server/kyc/pan-crypto.server.ts). */
const panKeyText = z.string().superRefine((text, context) => {
  const problem = panKeyProblem(text)
  if (problem) context.addIssue({ code: 'custom', message: problem })
})

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(1).max(65535).default(3000),
  HOST: z
    .string()
    .regex(/^[\w.:-]+$/, 'must be an address to listen on, such as 127.0.0.1 or 0.0.0.0')
    .optional(),
  TRUST_PROXY: z
    .string()
    .default('loopback')
    .transform((value) => (/^\d+$/.test(value) ? Number(value) : value)),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
    .optional(),
  DEMO_MODE: flag.default(true),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(25432),
  EMBEDDED_PG_DIR: z.string().min(1).default('.data/postgres'),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ADMIN_PHONES: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((phone) => phone.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be a comma-separated list of E.164 numbers like +919876543210'),
      ),
    )
    .default([]),
  RAZORPAY_KEY_ID: z
    .string()
    .regex(/^rzp_(live|test)_\w+$/, 'must look like rzp_live_...')
    .optional(),
  RAZORPAY_KEY_SECRET: z.string().min(8).optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().min(8).optional(),
  MSG91_AUTH_KEY: z.string().min(8).optional(),
  MSG91_TEMPLATE_ID: z.string().min(1).optional(),
  /** A DLT template for notices (a complaint's reference and answers) with one variable, `text`; without it such SMS are not sent. */
  MSG91_NOTICE_TEMPLATE_ID: z.string().min(1).optional(),
  /** A DLT template for renewal reminders, one variable `text`; without it reminders go by e-mail only (docs/payments.md). */
  MSG91_RENEWAL_TEMPLATE_ID: z.string().min(1).optional(),
  /** A DLT template for research notices (a title and a link), one variable `text`; without it research goes by other channels only (docs/research.md). */
  MSG91_RESEARCH_TEMPLATE_ID: z.string().min(1).optional(),
  /** In the delivery-report webhook's URL (?secret=), which MSG91 calls without any signature (docs/research.md). */
  MSG91_WEBHOOK_SECRET: z
    .string()
    .regex(/^[A-Za-z0-9_-]{32,256}$/, 'must be 32 to 256 letters, digits, _ or - (openssl rand -hex 32)')
    .optional(),
  /** The research bot's token from @BotFather (docs/research.md, "Telegram"); demo mode and tests use the fake bot. */
  TELEGRAM_BOT_TOKEN: z
    .string()
    .regex(/^\d+:[\w-]{30,}$/, 'must be a bot token from @BotFather, like 123456:ABC-DEF...')
    .optional(),
  /** Telegram sends it in X-Telegram-Bot-Api-Secret-Token with every update (setWebhook's secret_token). */
  TELEGRAM_WEBHOOK_SECRET: z
    .string()
    .regex(/^[A-Za-z0-9_-]{32,256}$/, 'must be 32 to 256 letters, digits, _ or - (openssl rand -hex 32)')
    .optional(),
  /** The bot's username without @, for the t.me deep link. */
  TELEGRAM_BOT_USERNAME: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]{3,31}$/, "must be the bot's username without @, like ResearchStoreBot")
    .optional(),
  /** Telegram Bot API's address (tests point it at a local fake). */
  TELEGRAM_API_BASE_URL: z.url({ error: 'must be a URL' }).default('https://api.telegram.org'),
  /** India's holidays on which complaint business days do not run (docs/limits.md): YYYY-MM-DD,YYYY-MM-DD. */
  COMPLAINT_HOLIDAYS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((day) => day.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.iso.date({ error: 'must be a comma-separated list of dates like 2026-01-26' })))
    .default([]),
  /**
   * When a new version of the terms takes effect (docs/regulatory.md, "Publishing a new version of
   * the terms"): read only when the store starts with a text not yet recorded; at least 15 days
   * after that start. A date (YYYY-MM-DD, from midnight India time) or an ISO instant with offset.
   */
  TERMS_EFFECTIVE_FROM: z
    .union([
      z.iso.date().transform((day) => new Date(`${day}T00:00:00+05:30`)),
      z.iso.datetime({ offset: true }).transform((instant) => new Date(instant)),
    ])
    .optional(),
  /**
   * A folder holding the official texts SEBI or the RAASB prescribes (docs/regulatory.md, "Official texts"):
   * investor-charter.txt and mitc.txt, each optional. A text given here replaces our summary on its page and in
   * onboarding, as a new version announced to customers. Read and checked when the store starts.
   */
  OFFICIAL_TEXTS_DIR: z.string().trim().min(1, 'must be a folder path').optional(),
  MSG91_BASE_URL: z.url({ error: 'must be a URL' }).default('https://control.msg91.com'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  /** The site's public address, for links in e-mails (which no request is at hand to give). */
  APP_ORIGIN: z
    .string()
    .regex(
      /^https?:\/\/[^/?#]+\/?$/,
      'must be the public address of the site, like https://store.example.in, without a path',
    )
    .transform((url) => url.replace(/\/$/, ''))
    .optional(),
  AGREEMENT_SIGNING: z
    .enum(AGREEMENT_SIGNING_METHODS, {
      error: `must be ${AGREEMENT_SIGNING_METHODS.join(' or ')} (the signing methods there are)`,
    })
    .default('click-accept'),
  UPLOADS_DIR: z.string().min(1).default('.data/uploads'),
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be an S3 bucket name (3 to 63 lowercase letters, digits, dots or hyphens)',
    )
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'must be a region such as ap-south-1 (or auto)')
    .optional(),
  S3_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^/?#]+\/?$/, 'must be an http(s):// URL of the storage host, without a path')
    .transform((url) => url.replace(/\/$/, ''))
    .optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** The KRA that answers KYC checks (app/server/kyc/kra.server.ts): `fake` only in demo mode. */
  KYC_PROVIDER: z.enum(KYC_PROVIDERS, { error: `must be ${KYC_PROVIDERS.join(' or ')}` }).optional(),
  KYC_KRA_URL: z.url({ error: 'must be a URL' }).optional(),
  KYC_KRA_API_KEY: z.string().min(8, 'must be at least 8 characters').optional(),
  /** How long a KYC check waits for the KRA before telling the customer to try again (docs/limits.md). */
  KYC_TIMEOUT_MS: z.coerce
    .number({ error: 'must be a whole number of milliseconds' })
    .int()
    .min(100)
    .max(60_000)
    .default(8_000),
  /** Encrypts PANs at rest (AES-256-GCM); demo mode generates one per data folder. */
  PAN_ENCRYPTION_KEY: panKeyText.optional(),
  /** Earlier PAN_ENCRYPTION_KEYs, comma-separated: still read while rows written under them remain. */
  PAN_ENCRYPTION_OLD_KEYS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((key) => key.trim())
        .filter(Boolean),
    )
    .pipe(z.array(panKeyText))
    .default([]),
  /** The HMAC key of the PAN lookup column (one account per PAN); never rotated. */
  PAN_LOOKUP_KEY: panKeyText.optional(),
  /** Signs published research with Ed25519 (app/server/research/signing.server.ts): the key's 32-byte seed in base64. */
  RESEARCH_SIGNING_KEY: panKeyText.optional(),
  /**
   * The analyst's UPI handle validated by SEBI (`name.ra@valid<bank>`, SEBI circular of 11 June
   * 2025), shown in the bank transfer dialog with the SEBI Check link (docs/payments.md).
   */
  UPI_VALID_HANDLE: z
    .string()
    .trim()
    .regex(
      UPI_VALID_HANDLE_PATTERN,
      "must be the UPI handle SEBI validated, like yourname.ra@validhdfc ('@valid' then the bank)",
    )
    .optional(),
  /** A deployment whose analyst has not been given a validated UPI handle yet (docs/payments.md). */
  UPI_VALID_HANDLE_PENDING: flag.default(false),
  MANUAL_OPEN_CLAIMS_MAX: z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(100).default(3),
  /** SEBI's yearly fee cap per family, in paise (Rs 1,51,000 unless SEBI changes it). */
  FEE_CAP_PAISE: z.coerce
    .number({ error: 'must be a whole number of paise, such as 15100000 for Rs 1,51,000' })
    .int('must be a whole number of paise, such as 15100000 for Rs 1,51,000')
    .min(1, 'must be a whole number of paise, such as 15100000 for Rs 1,51,000')
    .max(Number.MAX_SAFE_INTEGER)
    .default(SEBI_FEE_CAP_PAISE),
  FEE_CAP_WINDOW: z
    .enum(FEE_CAP_WINDOWS, { error: `must be ${FEE_CAP_WINDOWS.join(' or ')}` })
    .default('rolling-12-months'),
  /** The least level logged (docs/operations.md); read by the logger itself, checked here. */
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be ${LOG_LEVELS.join(', ')}` }).default('info'),
  /** json (the default with DEMO_MODE=0) or pretty (the default in demo mode). */
  LOG_FORMAT: z.enum(LOG_FORMATS, { error: `must be ${LOG_FORMATS.join(' or ')}` }).optional(),
  /** A bearer token that lets a scraper on another machine read /metrics (docs/operations.md). */
  METRICS_TOKEN: z
    .string()
    .min(32, 'must be at least 32 characters (openssl rand -hex 32)')
    .regex(/^[\x21-\x7e]+$/, 'must be printable characters without spaces (openssl rand -hex 32)')
    .optional(),
})

/** S3-compatible storage is configured with all of these or none of them. */
const S3_VARIABLES = ['S3_BUCKET', 'S3_REGION', 'S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const

/** What a deployment (DEMO_MODE=0) must configure instead of the demo stand-ins. */
const REAL_PROVIDER_VARIABLES = [
  ['DATABASE_URL', 'the PostgreSQL database (demo mode uses an embedded one)'],
  ['SESSION_SECRET', 'the key that signs session cookies'],
  ['RAZORPAY_KEY_ID', 'the Razorpay gateway (demo mode uses the sandbox gateway)'],
  ['RAZORPAY_KEY_SECRET', 'the Razorpay gateway'],
  ['RAZORPAY_WEBHOOK_SECRET', 'Razorpay webhook signatures'],
  ['MSG91_AUTH_KEY', 'the SMS provider (demo mode uses the dev outbox)'],
  ['MSG91_TEMPLATE_ID', 'the SMS provider DLT template'],
  ['SMTP_URL', 'the mail server (demo mode uses the dev outbox)'],
  ['MAIL_FROM', 'the sender address of e-mails'],
  ['PAN_ENCRYPTION_KEY', 'the key that encrypts PANs at rest: 32 random bytes in base64, openssl rand -base64 32'],
  ['PAN_LOOKUP_KEY', 'the key of the PAN lookup hash: 32 random bytes in base64, openssl rand -base64 32'],
  [
    'RESEARCH_SIGNING_KEY',
    'the Ed25519 key that signs published research: 32 random bytes in base64, openssl rand -base64 32',
  ],
  ['KYC_PROVIDER', 'the KYC registration agency (KRA) that checks PANs: http, with KYC_KRA_URL and KYC_KRA_API_KEY'],
] as const

export type Env = z.infer<typeof EnvSchema>

/** The fewest different characters a deployment's SESSION_SECRET has (docs/limits.md). */
export const SESSION_SECRET_MIN_DISTINCT = 16

/**
 * Why `secret` is guessable, or null: a short pattern repeated, a run along the character table
 * (0123..., abcd..., backwards too) or too few different characters. A random secret of 32 or more
 * characters (hex or base64) passes all three by a wide margin.
 */
export function secretWeakness(secret: string): string | null {
  const characters = [...secret]
  for (let period = 1; period <= characters.length / 2; period++) {
    if (characters.every((character, index) => index < period || character === characters[index - period])) {
      return `a pattern of ${period} character${period === 1 ? '' : 's'} repeated`
    }
  }
  const steps = characters.slice(1).filter((character, index) => {
    const step = character.codePointAt(0)! - characters[index]!.codePointAt(0)!
    return step === 1 || step === -1
  }).length
  if (steps * 2 > characters.length - 1) return 'mostly a run of consecutive characters'
  const distinct = new Set(characters).size
  if (distinct < SESSION_SECRET_MIN_DISTINCT) {
    return `${distinct} different characters, fewer than ${SESSION_SECRET_MIN_DISTINCT}`
  }
  return null
}

export class EnvError extends Error {
  override name = 'EnvError'
}

/** Parses the environment; throws an EnvError whose message is one line naming the variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''))
  const result = EnvSchema.safeParse(present)
  if (!result.success) {
    const issue = result.error.issues[0]!
    const name = String(issue.path[0])
    throw new EnvError(`Invalid environment variable ${name}: ${issue.message}`)
  }
  const env = result.data
  // Only a DEMO_MODE=1 someone wrote down opens demo mode to the network, never the default.
  if (isDemoOpenToNetwork(env) && present.DEMO_MODE === undefined) {
    throw new EnvError(
      `HOST=${env.HOST} would open demo mode (every sign-in code readable at /dev/outbox) to the network; set DEMO_MODE=1 to do so on purpose, or DEMO_MODE=0 with real providers for a deployment`,
    )
  }
  const firstS3Variable = S3_VARIABLES.find((name) => env[name])
  const missingS3Variable = S3_VARIABLES.find((name) => !env[name])
  if (firstS3Variable && missingS3Variable) {
    throw new EnvError(
      `Missing environment variable ${missingS3Variable} (S3-compatible storage for uploads); required when ${firstS3Variable} is set`,
    )
  }
  if (env.SMTP_URL && !env.MAIL_FROM) {
    throw new EnvError(
      'Missing environment variable MAIL_FROM (the sender address of e-mails); required when SMTP_URL is set',
    )
  }
  const telegramVariables = ['TELEGRAM_BOT_TOKEN', 'TELEGRAM_WEBHOOK_SECRET', 'TELEGRAM_BOT_USERNAME'] as const
  const firstTelegramVariable = telegramVariables.find((name) => env[name])
  const missingTelegramVariable = telegramVariables.find((name) => !env[name])
  if (firstTelegramVariable && missingTelegramVariable) {
    throw new EnvError(
      `Missing environment variable ${missingTelegramVariable} (the research bot on Telegram); required when ${firstTelegramVariable} is set`,
    )
  }
  if (!env.DEMO_MODE) {
    const missing = REAL_PROVIDER_VARIABLES.find(([name]) => !env[name])
    if (missing) {
      throw new EnvError(`Missing environment variable ${missing[0]} (${missing[1]}); required when DEMO_MODE=0`)
    }
    if (!env.UPI_VALID_HANDLE && !env.UPI_VALID_HANDLE_PENDING) {
      throw new EnvError(
        "Missing environment variable UPI_VALID_HANDLE (the UPI handle SEBI validated for you, like yourname.ra@validhdfc, shown to customers with SEBI's check link); required when DEMO_MODE=0. Not given one yet? Set UPI_VALID_HANDLE_PENDING=1 until you are",
      )
    }
    if (env.UPI_VALID_HANDLE && env.UPI_VALID_HANDLE_PENDING) {
      throw new EnvError(
        'UPI_VALID_HANDLE_PENDING=1 says no validated UPI handle is given yet, but UPI_VALID_HANDLE is set: remove UPI_VALID_HANDLE_PENDING',
      )
    }
    const weakness = secretWeakness(env.SESSION_SECRET!)
    if (weakness) {
      throw new EnvError(
        `Invalid environment variable SESSION_SECRET: too easy to guess (${weakness}); use a random one, openssl rand -base64 32`,
      )
    }
  }
  // Set together: a lookup key derived from a rotating encryption key would lose every PAN's hash.
  if (Boolean(env.PAN_ENCRYPTION_KEY) !== Boolean(env.PAN_LOOKUP_KEY)) {
    const [missing, set] = env.PAN_ENCRYPTION_KEY
      ? ['PAN_LOOKUP_KEY', 'PAN_ENCRYPTION_KEY']
      : ['PAN_ENCRYPTION_KEY', 'PAN_LOOKUP_KEY']
    throw new EnvError(
      `Missing environment variable ${missing} (the PAN keys are set together, each openssl rand -base64 32); required when ${set} is set`,
    )
  }
  if (env.PAN_ENCRYPTION_OLD_KEYS.length && !env.PAN_ENCRYPTION_KEY) {
    throw new EnvError(
      'Missing environment variable PAN_ENCRYPTION_KEY (the key that replaced PAN_ENCRYPTION_OLD_KEYS); required when PAN_ENCRYPTION_OLD_KEYS is set',
    )
  }
  if (env.PAN_ENCRYPTION_KEY && env.PAN_ENCRYPTION_KEY.trim() === env.PAN_LOOKUP_KEY?.trim()) {
    throw new EnvError('PAN_LOOKUP_KEY must differ from PAN_ENCRYPTION_KEY (one key, one purpose)')
  }
  if (env.KYC_PROVIDER === 'http' && (!env.KYC_KRA_URL || !env.KYC_KRA_API_KEY)) {
    throw new EnvError(
      `Missing environment variable ${env.KYC_KRA_URL ? 'KYC_KRA_API_KEY' : 'KYC_KRA_URL'} (the KRA's HTTP interface); required when KYC_PROVIDER=http`,
    )
  }
  if (!env.DEMO_MODE && env.KYC_PROVIDER === 'fake') {
    throw new EnvError(
      'KYC_PROVIDER=fake answers "validated" for any PAN and is for demo mode only; a deployment (DEMO_MODE=0) must set KYC_PROVIDER=http with KYC_KRA_URL and KYC_KRA_API_KEY',
    )
  }
  return env
}

export const env: Env = parseEnv(process.env)
