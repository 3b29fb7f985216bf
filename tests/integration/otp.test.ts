import { randomInt } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { prisma } from '~/server/db.server'
import { stopJobs } from '~/server/jobs.server'
import {
  OTP_MAX_WRONG_TRIES,
  OTP_RESEND_COOLDOWN_MS,
  OTP_SENDS_PER_IP_PER_HOUR,
  OTP_SENDS_PER_PHONE_PER_HOUR,
  OTP_TTL_MS,
  OTP_VERIFIES_PER_IP_PER_HOUR,
  OTP_VERIFIES_PER_PHONE_PER_HOUR,
  requestOtp,
  resendCooldownMs,
  verifyOtp,
} from '~/server/otp.server'

afterAll(() => stopJobs())

const uniquePhone = () => `+919${String(randomInt(0, 1e9)).padStart(9, '0')}`
const uniqueIp = () => `10.0.${randomInt(256)}.${randomInt(256)}`
const at = (start: Date, ms: number) => new Date(start.getTime() + ms)

/** The code in the queued SMS: what the customer would read. */
async function codeSentTo(phone: string): Promise<string> {
  const [job] = await prisma.$queryRaw<{ data: { to: string; code: string } }[]>`
    SELECT data FROM pgboss.job WHERE name = 'send-sms' AND data->>'to' = ${phone} ORDER BY created_on DESC LIMIT 1`
  return job!.data.code
}

describe('one-time codes', () => {
  it('has the limits the issue sets', () => {
    expect(OTP_TTL_MS).toBe(300_000)
    expect(OTP_MAX_WRONG_TRIES).toBe(5)
    expect(OTP_RESEND_COOLDOWN_MS).toBe(30_000)
    expect([OTP_SENDS_PER_PHONE_PER_HOUR, OTP_SENDS_PER_IP_PER_HOUR]).toEqual([5, 20])
    expect([OTP_VERIFIES_PER_PHONE_PER_HOUR, OTP_VERIFIES_PER_IP_PER_HOUR]).toEqual([20, 60])
  })

  it('stores only a hash of the code and queues the SMS', async () => {
    const phone = uniquePhone()
    expect(await requestOtp({ phone, ip: uniqueIp() })).toEqual({ ok: true })
    const code = await codeSentTo(phone)
    expect(code).toMatch(/^\d{6}$/)
    const challenge = await prisma.otpChallenge.findFirstOrThrow({ where: { phone } })
    expect(challenge.codeHash).toMatch(/^[0-9a-f]{64}$/)
    expect(challenge.codeHash).not.toContain(code)
  })

  it('accepts the right code once', async () => {
    const phone = uniquePhone()
    const ip = uniqueIp()
    await requestOtp({ phone, ip })
    const code = await codeSentTo(phone)
    expect(await verifyOtp({ phone, code, ip })).toEqual({ ok: true })
    expect(await verifyOtp({ phone, code, ip })).toEqual({ ok: false, message: 'There is no code waiting for this number. Ask for a new code.' })
  })

  it('lets only one of several parallel submissions of the right code through', async () => {
    const phone = uniquePhone()
    const ip = uniqueIp()
    await requestOtp({ phone, ip })
    const code = await codeSentTo(phone)
    const results = await Promise.all(Array.from({ length: 5 }, () => verifyOtp({ phone, code, ip })))
    expect(results.filter((result) => result.ok)).toHaveLength(1)
  })

  it('expires a code after 5 minutes', async () => {
    const phone = uniquePhone()
    const ip = uniqueIp()
    const sentAt = new Date()
    await requestOtp({ phone, ip, now: sentAt })
    const code = await codeSentTo(phone)
    expect(await verifyOtp({ phone, code, ip, now: at(sentAt, OTP_TTL_MS) })).toEqual({
      ok: false,
      message: 'This code has expired. Ask for a new code.',
    })
  })

  it('counts wrong tries and locks the code after 5, even for the right code', async () => {
    const phone = uniquePhone()
    const ip = uniqueIp()
    await requestOtp({ phone, ip })
    const code = await codeSentTo(phone)
    const wrong = code === '000000' ? '111111' : '000000'
    const messages: string[] = []
    for (let i = 0; i < OTP_MAX_WRONG_TRIES; i++) {
      const result = await verifyOtp({ phone, code: wrong, ip })
      if (!result.ok) messages.push(result.message)
    }
    expect(messages[0]).toBe('That code is not right. You have 4 tries left.')
    expect(messages[3]).toBe('That code is not right. You have 1 try left.')
    expect(messages[4]).toBe('That code is not right, and that was the last try. Ask for a new code.')
    expect(await verifyOtp({ phone, code, ip })).toEqual({ ok: false, message: 'Too many wrong tries for this code. Ask for a new code.' })
  })

  it('never counts more than 5 wrong tries when guesses arrive in parallel', async () => {
    const phone = uniquePhone()
    const ip = uniqueIp()
    await requestOtp({ phone, ip })
    const code = await codeSentTo(phone)
    const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + i + 1) % 1e6).padStart(6, '0'))
    await Promise.all(guesses.map((guess) => verifyOtp({ phone, code: guess, ip })))
    const challenge = await prisma.otpChallenge.findFirstOrThrow({ where: { phone } })
    expect(challenge.attempts).toBe(OTP_MAX_WRONG_TRIES)
  })

  it('only the newest code counts', async () => {
    const phone = uniquePhone()
    const ip = uniqueIp()
    const firstAt = new Date(Date.now() - OTP_RESEND_COOLDOWN_MS - 1_000)
    await requestOtp({ phone, ip, now: firstAt })
    const first = await codeSentTo(phone)
    await requestOtp({ phone, ip })
    const second = await codeSentTo(phone)
    if (first !== second) expect((await verifyOtp({ phone, code: first, ip })).ok).toBe(false)
    expect(await verifyOtp({ phone, code: second, ip })).toEqual({ ok: true })
  })
})

describe('send limits', () => {
  it('allows one send per number per 30 seconds and says how long to wait', async () => {
    const phone = uniquePhone()
    const ip = uniqueIp()
    const start = new Date()
    expect((await requestOtp({ phone, ip, now: start })).ok).toBe(true)
    expect(await requestOtp({ phone, ip, now: at(start, 10_000) })).toEqual({
      ok: false,
      message: 'A code was just sent. You can ask for another in 20 seconds.',
      retryAfterMs: 20_000,
    })
    expect(await resendCooldownMs(phone, at(start, 10_000))).toBe(20_000)
    expect((await requestOtp({ phone, ip, now: at(start, OTP_RESEND_COOLDOWN_MS) })).ok).toBe(true)
  })

  it('allows 5 sends per number per hour', async () => {
    const phone = uniquePhone()
    const start = new Date()
    for (let i = 0; i < OTP_SENDS_PER_PHONE_PER_HOUR; i++) {
      expect((await requestOtp({ phone, ip: uniqueIp(), now: at(start, i * 60_000) })).ok).toBe(true)
    }
    const refused = await requestOtp({ phone, ip: uniqueIp(), now: at(start, 10 * 60_000) })
    expect(refused).toMatchObject({ ok: false, message: 'Too many codes were asked for this number. Try again in 50 minutes.' })
    expect((await requestOtp({ phone, ip: uniqueIp(), now: at(start, 60 * 60_000 + 1) })).ok).toBe(true)
  })

  it('allows 20 sends per address per hour, whatever the numbers', async () => {
    const ip = uniqueIp()
    for (let i = 0; i < OTP_SENDS_PER_IP_PER_HOUR; i++) expect((await requestOtp({ phone: uniquePhone(), ip })).ok).toBe(true)
    const refused = await requestOtp({ phone: uniquePhone(), ip })
    expect(refused).toMatchObject({ ok: false, message: expect.stringMatching(/^Too many codes were asked from your network\. Try again in \d+ minutes\.$/) })
  })

  it('counts nothing against the number when the address is refused', async () => {
    const ip = uniqueIp()
    for (let i = 0; i < OTP_SENDS_PER_IP_PER_HOUR; i++) await requestOtp({ phone: uniquePhone(), ip })
    const phone = uniquePhone()
    expect((await requestOtp({ phone, ip })).ok).toBe(false)
    expect((await requestOtp({ phone, ip: uniqueIp() })).ok).toBe(true)
  })

  it('limits code checks per number, from whatever address', async () => {
    const phone = uniquePhone()
    const ip = uniqueIp()
    await requestOtp({ phone, ip })
    let last = { ok: true } as Awaited<ReturnType<typeof verifyOtp>>
    for (let i = 0; i < OTP_VERIFIES_PER_PHONE_PER_HOUR + 1; i++) last = await verifyOtp({ phone, code: '999999', ip: uniqueIp() })
    expect(last).toEqual({ ok: false, message: expect.stringMatching(/^Too many attempts\. Try again in \d+ minutes\.$/), retryAfterMs: expect.any(Number) })
    // The oldest of the hour's checks leaves the window in just under an hour.
    expect(!last.ok && last.retryAfterMs).toBeGreaterThan(55 * 60_000)
    expect(!last.ok && last.retryAfterMs).toBeLessThanOrEqual(60 * 60_000)
  })

  it('limits code checks per address to 60 an hour, whatever the numbers, and says when to retry', async () => {
    const ip = uniqueIp()
    const start = new Date()
    const noCode = { ok: false, message: 'There is no code waiting for this number. Ask for a new code.' }
    // No code was sent to these numbers: each check is answered, and counted, all the same.
    for (let i = 0; i < OTP_VERIFIES_PER_IP_PER_HOUR; i++) {
      expect(await verifyOtp({ phone: uniquePhone(), code: '999999', ip, now: at(start, i * 1_000) })).toEqual(noCode)
    }
    const phone = uniquePhone()
    expect(await verifyOtp({ phone, code: '999999', ip, now: at(start, 10 * 60_000) })).toEqual({
      ok: false,
      message: 'Too many attempts. Try again in 50 minutes.',
      retryAfterMs: 50 * 60_000,
    })
    // The refusal is the address's: the same number from elsewhere is still checked.
    expect(await verifyOtp({ phone, code: '999999', ip: uniqueIp(), now: at(start, 10 * 60_000) })).toEqual(noCode)
    // Room comes back as the first checks leave the hour.
    expect(await verifyOtp({ phone: uniquePhone(), code: '999999', ip, now: at(start, 60 * 60_000 + 1) })).toEqual(noCode)
  })
})
