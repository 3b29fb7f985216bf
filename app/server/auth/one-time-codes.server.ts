import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import { MS_PER_MINUTE } from '~/domain/durations'
import { OTP_VALID_MINUTES } from '~/domain/one-time-codes'
import { OTP_DIGITS, OTP_RESEND_MEMORY_MS, otpResendWaitMs } from '~/domain/sign-in'
import { brandNames } from '../brand.server'
import { prisma } from '../db.server'
import { enqueueEmail, enqueueOtpSms } from '../jobs/queue.server'
import { consumeRateLimits, describeWait, rateLimitWaitMs, type RateLimitRule } from '../rate-limit.server'
import { serverSecret } from '../secrets.server'

export const OTP_TTL_MS = OTP_VALID_MINUTES * MS_PER_MINUTE
export const OTP_MAX_WRONG_TRIES = 5
/**
 * Per client address, a short window, so a busy carrier address (CGNAT: many customers share one)
 * is slowed for minutes at worst, never turned away for an hour. docs/limits.md gives
 * the arithmetic that makes these safe.
 */
export const OTP_ADDRESS_WINDOW_MS = 10 * 60_000
export const OTP_SENDS_PER_ADDRESS = 30
/** Checks of a waiting code; checks when no code is waiting are answered without being counted. */
export const OTP_CHECKS_PER_ADDRESS = 40
/**
 * Checks of a waiting code per client (the sign-in page's device cookie, else the address): a
 * client polling codes gets 429 soon, while the others behind its address keep their room.
 */
export const OTP_CHECKS_PER_CLIENT = 10
/** Codes of one number that may be valid at once and each sign in (the sends' growing wait keeps it to 1 or 2). */
const OTP_LIVE_CODES_MAX = 5
const TOO_MANY_WRONG_TRIES = 'Too many wrong tries for this code. Ask for a new code.'

/** `refusedBy: 'number'` means a code went to this number a moment ago: whoever holds the phone has it. */
export type OtpRequestResult =
  { ok: true } | { ok: false; message: string; retryAfterMs: number; refusedBy: 'number' | 'address' }
/** `retryAfterMs` is set when the check was refused by the address's limit, not judged. */
export type OtpVerifyResult = { ok: true } | { ok: false; message: string; retryAfterMs?: number }
export type CodeSentTo = 'number' | 'address'
/** A page's answer to a typed code: 429 when the address's limit refused the check, 400 when the code was judged wrong. */
export type TypedCodeCheck = { ok: true } | { ok: false; message: string; status: 400 | 429 }

function codeHash(phone: string, code: string): string {
  return createHmac('sha256', serverSecret('otp')).update(`${phone}:${code}`).digest('hex')
}

/** A growing delay per number, not a ceiling: it bounds the codes (so guesses) a number can get without locking its holder out. */
const phoneSendRule = (phone: string): RateLimitRule => ({
  bucket: 'otp-send-phone',
  key: phone,
  windowMs: OTP_RESEND_MEMORY_MS,
  waitMs: otpResendWaitMs,
})

function sendRules(phone: string, ip: string): RateLimitRule[] {
  return [
    phoneSendRule(phone),
    { bucket: 'otp-send-ip', key: ip, limit: OTP_SENDS_PER_ADDRESS, windowMs: OTP_ADDRESS_WINDOW_MS },
  ]
}

const SEND_REFUSALS: Record<string, { refusedBy: 'number' | 'address'; message: (wait: string) => string }> = {
  'otp-send-phone': {
    refusedBy: 'number',
    message: (wait) => `A code was just sent. You can ask for another in ${wait}.`,
  },
  'otp-send-ip': {
    refusedBy: 'address',
    message: (wait) => `Many codes were asked from your network just now. Try again in ${wait}.`,
  },
}

/**
 * Creates a code for `phone` and queues its SMS, within the send limits. Never says whether the number has an account.
 * `send` delivers the code some other way (the complaint form confirms an e-mail address with it;
 * `phone` is then that address's key, e.g. "email:someone@example.in").
 */
export async function requestOtp({
  phone,
  ip,
  now = new Date(),
  send,
}: {
  phone: string
  ip: string
  now?: Date
  send?: (code: string) => Promise<void>
}): Promise<OtpRequestResult> {
  const limit = await consumeRateLimits(sendRules(phone, ip), now)
  if (!limit.allowed) {
    const refusal = SEND_REFUSALS[limit.rule.bucket]!
    return {
      ok: false,
      message: refusal.message(describeWait(limit.retryAfterMs)),
      retryAfterMs: limit.retryAfterMs,
      refusedBy: refusal.refusedBy,
    }
  }
  const code = String(randomInt(0, 10 ** OTP_DIGITS)).padStart(OTP_DIGITS, '0')
  await prisma.otpChallenge.create({
    data: { phone, codeHash: codeHash(phone, code), expiresAt: new Date(now.getTime() + OTP_TTL_MS), createdAt: now },
  })
  if (send) {
    await send(code)
    return { ok: true }
  }
  const { brand } = await brandNames()
  await enqueueOtpSms(
    {
      to: phone,
      code,
      text: `${code} is your ${brand} sign-in code. It expires in ${OTP_VALID_MINUTES} minutes. Our team will never ask you for this code.`,
    },
    OTP_TTL_MS,
  )
  return { ok: true }
}

/**
 * A code sent by e-mail to confirm a new address for `userId` (the customer's e-mail change). It
 * uses the sign-in codes' table, expiry, tries and address limits, keyed by the user and the new
 * address (`emailChallengeKey`), so a code confirms only the address it went to; verifyOtp checks it.
 */
export const emailChallengeKey = (userId: string, email: string) => `email:${userId}:${email}`

export async function requestEmailCode({
  userId,
  email,
  ip,
  now = new Date(),
}: {
  userId: string
  email: string
  ip: string
  now?: Date
}): Promise<OtpRequestResult> {
  const key = emailChallengeKey(userId, email)
  const limit = await consumeRateLimits(
    [
      { bucket: 'otp-send-email', key: userId, windowMs: OTP_RESEND_MEMORY_MS, waitMs: otpResendWaitMs },
      { bucket: 'otp-send-ip', key: ip, limit: OTP_SENDS_PER_ADDRESS, windowMs: OTP_ADDRESS_WINDOW_MS },
    ],
    now,
  )
  if (!limit.allowed) {
    const wait = describeWait(limit.retryAfterMs)
    return {
      ok: false,
      message:
        limit.rule.bucket === 'otp-send-email'
          ? `A code was just sent. You can ask for another in ${wait}.`
          : `Many codes were asked from your network just now. Try again in ${wait}.`,
      retryAfterMs: limit.retryAfterMs,
      refusedBy: limit.rule.bucket === 'otp-send-email' ? 'number' : 'address',
    }
  }
  const code = String(randomInt(0, 10 ** OTP_DIGITS)).padStart(OTP_DIGITS, '0')
  await prisma.otpChallenge.create({
    data: {
      phone: key,
      codeHash: codeHash(key, code),
      expiresAt: new Date(now.getTime() + OTP_TTL_MS),
      createdAt: now,
    },
  })
  const { brand } = await brandNames()
  await enqueueEmail({
    to: email,
    template: 'email-change-code',
    secret: code,
    subject: 'Confirm your new e-mail address',
    body: `${code} is your ${brand} code to confirm this e-mail address. It expires in ${OTP_VALID_MINUTES} minutes. If you did not ask to change your e-mail address, ignore this message.`,
  })
  return { ok: true }
}

/** Milliseconds until `phone` may ask for another code (0 when it may now). */
export function resendCooldownMs(phone: string, now = new Date()): Promise<number> {
  return rateLimitWaitMs(phoneSendRule(phone), now)
}

/** Who is checking a code: the device cookie of the sign-in page when it carries one, else the client address. */
export type CodeChecker = { ip: string; device?: string | null }

const checkerKey = ({ ip, device }: CodeChecker) => (device ? `device:${device}` : `ip:${ip}`)

/** The codes of `phone` still valid (unused, unexpired), newest first: any of them signs in. */
const liveCodes = (phone: string, now: Date) =>
  prisma.otpChallenge.findMany({
    where: { phone, usedAt: null, expiresAt: { gt: now } },
    orderBy: { createdAt: 'desc' },
    take: OTP_LIVE_CODES_MAX,
  })

type LiveCode = Awaited<ReturnType<typeof liveCodes>>[number]
type CodeReader = Pick<typeof prisma, 'rateLimitEvent'>

/** The keys a wrong try is counted under, per code: the checker, and its address when the checker is a device. */
const wrongTryKeys = (checker: CodeChecker) => [...new Set([checkerKey(checker), `ip:${checker.ip}`])]

/**
 * Whether `code` judges a try from `checker`: while it has had fewer than 5 wrong tries from
 * anyone, from everyone; after that, only from a checker whose device and address have not tried
 * it wrong (so at most one more guess per address). Wrong guesses by others never spend the code
 * its holder types (decision 023).
 */
async function judges(db: CodeReader, code: LiveCode, checker: CodeChecker): Promise<boolean> {
  if (code.usedAt) return false
  if (code.attempts < OTP_MAX_WRONG_TRIES) return true
  const keys = wrongTryKeys(checker).map((key) => `${code.id}|${key}`)
  return (await db.rateLimitEvent.count({ where: { bucket: 'otp-wrong-try', key: { in: keys } } })) === 0
}

/**
 * Checks `code` against the codes sent to `phone` within their lifetime (any of them signs in, and
 * signing in uses them all). Wrong tries are counted per code and per checker (device or address),
 * so nobody else's guesses keep the holder of the phone from using the code it received; each
 * checker may check waiting codes `OTP_CHECKS_PER_CLIENT` times per 10 minutes, and its address
 * `OTP_CHECKS_PER_ADDRESS` times. A check when no code is waiting is answered and not counted.
 */
export async function verifyOtp({
  phone,
  code,
  ip,
  device = null,
  now = new Date(),
  sentTo = 'number',
}: {
  phone: string
  code: string
  ip: string
  /** The sign-in page's device cookie (`readSignInDevice`); the JSON API's clients are known by address. */
  device?: string | null
  now?: Date
  /** What the customer knows `phone` as: a code may have gone to an e-mail address (see `emailChallengeKey`). */
  sentTo?: CodeSentTo
}): Promise<OtpVerifyResult> {
  const checker: CodeChecker = { ip, device }
  const waiting = await liveCodes(phone, now)
  if (waiting.length === 0) {
    const newest = await prisma.otpChallenge.findFirst({ where: { phone }, orderBy: { createdAt: 'desc' } })
    if (newest && !newest.usedAt && newest.expiresAt <= now)
      return { ok: false, message: 'This code has expired. Ask for a new code.' }
    return { ok: false, message: `There is no code waiting for this ${sentTo}. Ask for a new code.` }
  }
  const limit = await consumeRateLimits(
    [
      {
        bucket: 'otp-check-client',
        key: checkerKey(checker),
        limit: OTP_CHECKS_PER_CLIENT,
        windowMs: OTP_ADDRESS_WINDOW_MS,
      },
      { bucket: 'otp-check-ip', key: ip, limit: OTP_CHECKS_PER_ADDRESS, windowMs: OTP_ADDRESS_WINDOW_MS },
    ],
    now,
  )
  if (!limit.allowed) {
    const from = limit.rule.bucket === 'otp-check-client' && device ? 'this browser' : 'your network'
    return {
      ok: false,
      message: `Too many attempts from ${from}. Try again in ${describeWait(limit.retryAfterMs)}.`,
      retryAfterMs: limit.retryAfterMs,
    }
  }
  // Counted even when none of the codes may judge this client any more: polling meets the 429.
  const judged: LiveCode[] = []
  for (const live of waiting) if (await judges(prisma, live, checker)) judged.push(live)
  if (judged.length === 0) return { ok: false, message: TOO_MANY_WRONG_TRIES }

  const given = Buffer.from(codeHash(phone, code), 'hex')
  return prisma.$transaction(async (tx) => {
    // One check of a number's codes at a time: parallel guesses cannot pass the counts, and only one
    // of several parallel right answers signs in.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`otp-codes:${phone}`}, 0))`
    const current = await tx.otpChallenge.findMany({ where: { id: { in: judged.map((live) => live.id) } } })
    const stillJudged: LiveCode[] = []
    for (const live of current) if (await judges(tx, live, checker)) stillJudged.push(live)
    if (stillJudged.length === 0) return { ok: false as const, message: TOO_MANY_WRONG_TRIES }
    const right = stillJudged.some((live) => timingSafeEqual(Buffer.from(live.codeHash, 'hex'), given))
    if (right) {
      // Signing in uses up every code of the number.
      await tx.otpChallenge.updateMany({ where: { phone, usedAt: null }, data: { usedAt: now } })
      return { ok: true as const }
    }
    await tx.otpChallenge.updateMany({
      where: { id: { in: stillJudged.map((live) => live.id) } },
      data: { attempts: { increment: 1 } },
    })
    await tx.rateLimitEvent.createMany({
      data: stillJudged.flatMap((live) =>
        wrongTryKeys(checker).map((key) => ({ bucket: 'otp-wrong-try', key: `${live.id}|${key}`, createdAt: now })),
      ),
    })
    // What this checker has left on the newest code it may try.
    const newest = stillJudged.reduce((a, b) => (b.createdAt > a.createdAt ? b : a))
    const triesLeft = Math.max(0, OTP_MAX_WRONG_TRIES - (newest.attempts + 1))
    return {
      ok: false as const,
      message:
        triesLeft > 0
          ? `That code is not right. You have ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`
          : 'That code is not right, and that was the last try. Ask for a new code.',
    }
  })
}

/** A code typed into a page's form, checked: a refusal carries the status the page answers with. */
export async function checkTypedCode(challenge: Parameters<typeof verifyOtp>[0]): Promise<TypedCodeCheck> {
  const verified = await verifyOtp(challenge)
  if (verified.ok) return verified
  return { ok: false, message: verified.message, status: verified.retryAfterMs ? 429 : 400 }
}
