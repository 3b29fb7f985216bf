import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import { OTP_DIGITS, OTP_RESEND_MEMORY_MS, otpResendWaitMs } from '~/domain/sign-in'
import { prisma } from '../db.server'
import { enqueueEmail, enqueueOtpSms } from '../jobs/queue.server'
import { consumeRateLimits, describeWait, rateLimitWaitMs, type RateLimitRule } from '../rate-limit.server'
import { serverSecret } from '../secrets.server'

export const OTP_TTL_MS = 5 * 60_000
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
  await enqueueOtpSms(
    {
      to: phone,
      code,
      text: `${code} is your Research Store sign-in code. It expires in 5 minutes. Our team will never ask you for this code.`,
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
  await enqueueEmail({
    to: email,
    subject: 'Confirm your new e-mail address',
    body: `${code} is your Research Store code to confirm this e-mail address. It expires in 5 minutes. If you did not ask to change your e-mail address, ignore this message.`,
  })
  return { ok: true }
}

/** Milliseconds until `phone` may ask for another code (0 when it may now). */
export function resendCooldownMs(phone: string, now = new Date()): Promise<number> {
  return rateLimitWaitMs(phoneSendRule(phone), now)
}

/**
 * Checks `code` against the newest code sent to `phone`; only the newest counts. A number has no
 * hourly check limit: each code's own 5 tries bound the guesses, so the holder of the current code
 * can always use it. Only checks of a waiting code count against the address.
 */
export async function verifyOtp({
  phone,
  code,
  ip,
  now = new Date(),
  sentTo = 'number',
}: {
  phone: string
  code: string
  ip: string
  now?: Date
  /** What the customer knows `phone` as: a code may have gone to an e-mail address (see `emailChallengeKey`). */
  sentTo?: CodeSentTo
}): Promise<OtpVerifyResult> {
  const challenge = await prisma.otpChallenge.findFirst({ where: { phone }, orderBy: { createdAt: 'desc' } })
  if (!challenge || challenge.usedAt)
    return { ok: false, message: `There is no code waiting for this ${sentTo}. Ask for a new code.` }
  if (challenge.expiresAt <= now) return { ok: false, message: 'This code has expired. Ask for a new code.' }
  if (challenge.attempts >= OTP_MAX_WRONG_TRIES)
    return { ok: false, message: 'Too many wrong tries for this code. Ask for a new code.' }

  const limit = await consumeRateLimits(
    [{ bucket: 'otp-check-ip', key: ip, limit: OTP_CHECKS_PER_ADDRESS, windowMs: OTP_ADDRESS_WINDOW_MS }],
    now,
  )
  if (!limit.allowed) {
    return {
      ok: false,
      message: `Too many attempts from your network. Try again in ${describeWait(limit.retryAfterMs)}.`,
      retryAfterMs: limit.retryAfterMs,
    }
  }

  const expected = Buffer.from(challenge.codeHash, 'hex')
  const given = Buffer.from(codeHash(phone, code), 'hex')
  if (!timingSafeEqual(expected, given)) {
    // Counted in the database, so parallel guesses cannot exceed the limit.
    const [counted] = await prisma.$queryRaw<{ attempts: number }[]>`
      UPDATE otp_challenges SET attempts = attempts + 1
      WHERE id = ${challenge.id}::uuid AND attempts < ${OTP_MAX_WRONG_TRIES} RETURNING attempts`
    const triesLeft = OTP_MAX_WRONG_TRIES - (counted?.attempts ?? OTP_MAX_WRONG_TRIES)
    return {
      ok: false,
      message:
        triesLeft > 0
          ? `That code is not right. You have ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`
          : 'That code is not right, and that was the last try. Ask for a new code.',
    }
  }
  // Only one of several parallel correct submissions may sign in.
  const used = await prisma.otpChallenge.updateMany({
    where: { id: challenge.id, usedAt: null, attempts: { lt: OTP_MAX_WRONG_TRIES } },
    data: { usedAt: now },
  })
  if (used.count === 0) return { ok: false, message: 'This code has already been used. Ask for a new code.' }
  return { ok: true }
}

/** A code typed into a page's form, checked: a refusal carries the status the page answers with. */
export async function checkTypedCode(challenge: Parameters<typeof verifyOtp>[0]): Promise<TypedCodeCheck> {
  const verified = await verifyOtp(challenge)
  if (verified.ok) return verified
  return { ok: false, message: verified.message, status: verified.retryAfterMs ? 429 : 400 }
}
