import { randomInt } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { prisma } from '~/server/db.server'
import { stopJobs } from '~/server/jobs/queue.server'
import { OTP_RESEND_COOLDOWN_MS, OTP_RESEND_WAIT_MAX_MS } from '~/domain/sign-in'
import {
  OTP_ADDRESS_WINDOW_MS,
  OTP_CHECKS_PER_ADDRESS,
  OTP_CHECKS_PER_CLIENT,
  OTP_MAX_WRONG_TRIES,
  OTP_SENDS_PER_ADDRESS,
  OTP_TTL_MS,
  checkTypedCode,
  requestOtp,
  resendCooldownMs,
  verifyOtp,
} from '~/server/auth/one-time-codes.server'

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
  it('has the limits in docs/limits.md (one-time code, sending and checking codes)', () => {
    expect(OTP_TTL_MS).toBe(300_000)
    expect(OTP_MAX_WRONG_TRIES).toBe(5)
    expect([OTP_RESEND_COOLDOWN_MS, OTP_RESEND_WAIT_MAX_MS]).toEqual([30_000, 300_000])
    expect([OTP_SENDS_PER_ADDRESS, OTP_CHECKS_PER_ADDRESS, OTP_ADDRESS_WINDOW_MS]).toEqual([30, 40, 600_000])
    expect(OTP_CHECKS_PER_CLIENT).toBe(10)
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
    expect(await verifyOtp({ phone, code, ip })).toEqual({
      ok: false,
      message: 'There is no code waiting for this number. Ask for a new code.',
    })
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

  it('counts wrong tries per code and per client: after 5, the code refuses the client that spent them, not the others', async () => {
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
    expect(await verifyOtp({ phone, code, ip })).toEqual({
      ok: false,
      message: 'Too many wrong tries for this code. Ask for a new code.',
    })
    // Another client that has not tried it wrong still has its try: the holder of the phone.
    expect(await verifyOtp({ phone, code, ip: uniqueIp() })).toEqual({ ok: true })
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

  it('every code sent within its lifetime signs in, and signing in uses them all', async () => {
    const phone = uniquePhone()
    const ip = uniqueIp()
    const firstAt = new Date(Date.now() - OTP_RESEND_COOLDOWN_MS - 1_000)
    await requestOtp({ phone, ip, now: firstAt })
    const first = await codeSentTo(phone)
    // Someone else asks for another code: the one on the phone still works.
    expect(await requestOtp({ phone, ip: uniqueIp() })).toEqual({ ok: true })
    const second = await codeSentTo(phone)
    expect(await verifyOtp({ phone, code: first, ip })).toEqual({ ok: true })
    if (first !== second) expect((await verifyOtp({ phone, code: second, ip })).ok).toBe(false)
  })
})

describe('an attacker guessing codes', () => {
  it('from many addresses, polling wrong codes, never keeps the owner from signing in with the code they got', async () => {
    const phone = uniquePhone()
    const owner = uniqueIp()
    const attackers = Array.from({ length: 20 }, uniqueIp)
    const poll = (rounds: number) =>
      Promise.all(
        attackers.map(async (ip) => {
          for (let i = 0; i < rounds; i++)
            await verifyOtp({ phone, code: String(randomInt(0, 1e6)).padStart(6, '0'), ip })
        }),
      )
    expect(await requestOtp({ phone, ip: owner })).toEqual({ ok: true })
    const code = await codeSentTo(phone)
    // The attack has been going on before the owner types the code, and goes on while they do.
    await poll(3)
    const [signedIn] = await Promise.all([verifyOtp({ phone, code, ip: owner }), poll(3)])
    expect(signedIn).toEqual({ ok: true })
    const challenge = await prisma.otpChallenge.findFirstOrThrow({ where: { phone } })
    expect(challenge.attempts).toBeGreaterThanOrEqual(OTP_MAX_WRONG_TRIES)
  })

  it('a second code asked by someone else does not spend the code the owner is typing', async () => {
    const phone = uniquePhone()
    const owner = uniqueIp()
    const sentAt = new Date(Date.now() - OTP_RESEND_COOLDOWN_MS)
    expect(await requestOtp({ phone, ip: owner, now: sentAt })).toEqual({ ok: true })
    const code = await codeSentTo(phone)
    expect(await requestOtp({ phone, ip: uniqueIp() })).toEqual({ ok: true })
    for (let i = 0; i < 10; i++) await verifyOtp({ phone, code: '999999', ip: uniqueIp() })
    expect(await verifyOtp({ phone, code, ip: owner })).toEqual({ ok: true })
  })

  it('once a code has had 5 wrong tries, it takes one more from each address, whichever browser', async () => {
    const phone = uniquePhone()
    await requestOtp({ phone, ip: uniqueIp() })
    const code = await codeSentTo(phone)
    const wrong = code === '000000' ? '111111' : '000000'
    for (let i = 0; i < OTP_MAX_WRONG_TRIES; i++) await verifyOtp({ phone, code: wrong, ip: uniqueIp() })
    const ip = uniqueIp()
    expect(await verifyOtp({ phone, code: wrong, ip, device: 'first' })).toEqual({
      ok: false,
      message: 'That code is not right, and that was the last try. Ask for a new code.',
    })
    // A fresh device cookie does not buy the address another guess.
    expect(await verifyOtp({ phone, code, ip, device: 'second' })).toEqual({
      ok: false,
      message: 'Too many wrong tries for this code. Ask for a new code.',
    })
    expect(await verifyOtp({ phone, code, ip: uniqueIp(), device: 'owner' })).toEqual({ ok: true })
  })

  it('one noisy browser is refused after 10 checks in 10 minutes, with when to retry; others behind its address are not', async () => {
    const attacked = uniquePhone()
    const ip = uniqueIp()
    const start = new Date()
    await requestOtp({ phone: attacked, ip: uniqueIp(), now: start })
    const noisy = { ip, device: `noisy-${randomInt(1e9)}` }
    const answers = []
    for (let i = 0; i <= OTP_CHECKS_PER_CLIENT; i++)
      answers.push(await verifyOtp({ phone: attacked, code: '999999', ...noisy, now: at(start, 60_000 + i) }))
    expect(answers.slice(0, -1).every((answer) => !answer.ok && answer.retryAfterMs === undefined)).toBe(true)
    expect(answers.at(-1)).toEqual({
      ok: false,
      message: 'Too many attempts from this browser. Try again in 10 minutes.',
      retryAfterMs: OTP_ADDRESS_WINDOW_MS - OTP_CHECKS_PER_CLIENT,
    })
    // A customer's browser behind the same carrier address signs in with the code it got.
    const phone = uniquePhone()
    const owner = { ip, device: `owner-${randomInt(1e9)}` }
    await requestOtp({ phone, ip, now: at(start, 61_000) })
    expect(await verifyOtp({ phone, code: await codeSentTo(phone), ...owner, now: at(start, 70_000) })).toEqual({
      ok: true,
    })
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
      refusedBy: 'number',
    })
    expect(await resendCooldownMs(phone, at(start, 10_000))).toBe(20_000)
    expect((await requestOtp({ phone, ip, now: at(start, OTP_RESEND_COOLDOWN_MS) })).ok).toBe(true)
  })

  it('doubles the wait between codes for a number, up to 5 minutes, and forgets sends after an hour', async () => {
    const phone = uniquePhone()
    const start = new Date()
    let sentAt = start
    const waits: number[] = []
    for (let i = 0; i < 7; i++) {
      expect((await requestOtp({ phone, ip: uniqueIp(), now: sentAt })).ok).toBe(true)
      const refused = await requestOtp({ phone, ip: uniqueIp(), now: at(sentAt, 1) })
      if (refused.ok) throw new Error('a second code within a millisecond was sent')
      waits.push(refused.retryAfterMs + 1)
      expect(await resendCooldownMs(phone, at(sentAt, 1))).toBe(refused.retryAfterMs)
      sentAt = at(sentAt, refused.retryAfterMs + 1)
    }
    expect(waits).toEqual([30_000, 60_000, 120_000, 240_000, 300_000, 300_000, 300_000])
    // An hour after the last send, the number starts again at 30 seconds.
    const later = at(sentAt, 60 * 60_000)
    expect((await requestOtp({ phone, ip: uniqueIp(), now: later })).ok).toBe(true)
    expect(await resendCooldownMs(phone, at(later, 1))).toBe(OTP_RESEND_COOLDOWN_MS - 1)
  })

  it('an attacker asking for codes every 30 seconds for an hour never keeps the holder of the number waiting more than 5 minutes', async () => {
    const phone = uniquePhone()
    const attacker = uniqueIp()
    const start = new Date()
    let longestWaitMs = 0
    for (let second = 0; second < 3600; second += 30) {
      const sent = await requestOtp({ phone, ip: attacker, now: at(start, second * 1000) })
      if (!sent.ok) longestWaitMs = Math.max(longestWaitMs, sent.retryAfterMs)
    }
    expect(longestWaitMs).toBeLessThanOrEqual(OTP_RESEND_WAIT_MAX_MS)
    // The customer asks from their own phone once the attack stops, and gets a code within 5 minutes.
    const victim = uniqueIp()
    const attackEnded = at(start, 3600 * 1000)
    const refused = await requestOtp({ phone, ip: victim, now: attackEnded })
    const retryAt = refused.ok ? attackEnded : at(attackEnded, refused.retryAfterMs)
    expect(retryAt.getTime() - attackEnded.getTime()).toBeLessThanOrEqual(OTP_RESEND_WAIT_MAX_MS)
    expect(await requestOtp({ phone, ip: victim, now: retryAt })).toEqual({ ok: true })
    expect(await verifyOtp({ phone, code: await codeSentTo(phone), ip: victim, now: at(retryAt, 10_000) })).toEqual({
      ok: true,
    })
  })

  it('5 codes asked 30 seconds apart by someone else do not stop the customer getting a code within a few minutes', async () => {
    const phone = uniquePhone()
    const start = new Date()
    for (let i = 0; i < 5; i++) await requestOtp({ phone, ip: uniqueIp(), now: at(start, i * OTP_RESEND_COOLDOWN_MS) })
    const victim = uniqueIp()
    let asked = at(start, 5 * OTP_RESEND_COOLDOWN_MS)
    let sent = await requestOtp({ phone, ip: victim, now: asked })
    if (!sent.ok) {
      asked = at(asked, sent.retryAfterMs)
      sent = await requestOtp({ phone, ip: victim, now: asked })
    }
    expect(sent).toEqual({ ok: true })
    expect(asked.getTime() - start.getTime()).toBeLessThanOrEqual(5 * 60_000)
    expect(await verifyOtp({ phone, code: await codeSentTo(phone), ip: victim, now: at(asked, 10_000) })).toEqual({
      ok: true,
    })
  })

  it('lets 50 customers behind one carrier address get codes within an hour', async () => {
    const ip = uniqueIp()
    const start = new Date()
    for (let i = 0; i < 50; i++) {
      const phone = uniquePhone()
      const askedAt = at(start, i * 72_000)
      expect(await requestOtp({ phone, ip, now: askedAt })).toEqual({ ok: true })
      expect(await verifyOtp({ phone, code: await codeSentTo(phone), ip, now: at(askedAt, 20_000) })).toEqual({
        ok: true,
      })
    }
  })

  it('slows a burst from one address after 30 codes in 10 minutes, for minutes rather than an hour', async () => {
    const ip = uniqueIp()
    const start = new Date()
    for (let i = 0; i < OTP_SENDS_PER_ADDRESS; i++)
      expect((await requestOtp({ phone: uniquePhone(), ip, now: at(start, i * 1_000) })).ok).toBe(true)
    const refused = await requestOtp({ phone: uniquePhone(), ip, now: at(start, 60_000) })
    expect(refused).toEqual({
      ok: false,
      message: 'Many codes were asked from your network just now. Try again in 9 minutes.',
      retryAfterMs: 9 * 60_000,
      refusedBy: 'address',
    })
    expect((await requestOtp({ phone: uniquePhone(), ip, now: at(start, OTP_ADDRESS_WINDOW_MS + 1) })).ok).toBe(true)
  })

  it('counts nothing against the number when the address is refused', async () => {
    const ip = uniqueIp()
    const start = new Date()
    for (let i = 0; i < OTP_SENDS_PER_ADDRESS; i++) await requestOtp({ phone: uniquePhone(), ip, now: start })
    const phone = uniquePhone()
    expect((await requestOtp({ phone, ip, now: start })).ok).toBe(false)
    expect((await requestOtp({ phone, ip: uniqueIp(), now: start })).ok).toBe(true)
  })
})

describe('check limits', () => {
  it('wrong guesses from elsewhere do not stop the customer signing in with a fresh code', async () => {
    const phone = uniquePhone()
    const victim = uniqueIp()
    const start = new Date()
    await requestOtp({ phone, ip: victim, now: start })
    for (let i = 0; i < 20; i++) await verifyOtp({ phone, code: '999999', ip: uniqueIp(), now: at(start, 1_000 + i) })
    const askedAgain = at(start, OTP_RESEND_COOLDOWN_MS)
    expect(await requestOtp({ phone, ip: victim, now: askedAgain })).toEqual({ ok: true })
    expect(await verifyOtp({ phone, code: await codeSentTo(phone), ip: victim, now: at(askedAgain, 10_000) })).toEqual({
      ok: true,
    })
  })

  it('the current code works after wrong guesses against earlier codes of the hour', async () => {
    const phone = uniquePhone()
    const start = new Date()
    let sentAt = start
    for (let i = 0; i < 4; i++) {
      await requestOtp({ phone, ip: uniqueIp(), now: sentAt })
      const code = await codeSentTo(phone)
      const wrong = code === '000000' ? '111111' : '000000'
      for (let t = 0; t < OTP_MAX_WRONG_TRIES; t++)
        await verifyOtp({ phone, code: wrong, ip: uniqueIp(), now: at(sentAt, 1_000) })
      sentAt = at(sentAt, 5 * 60_000)
    }
    const ip = uniqueIp()
    expect(await requestOtp({ phone, ip, now: sentAt })).toEqual({ ok: true })
    expect(await verifyOtp({ phone, code: await codeSentTo(phone), ip, now: at(sentAt, 10_000) })).toEqual({ ok: true })
  })

  it('does not count checks when no code is waiting, against the number or the address', async () => {
    const phone = uniquePhone()
    const ip = uniqueIp()
    const start = new Date()
    const noCode = { ok: false, message: 'There is no code waiting for this number. Ask for a new code.' }
    for (let i = 0; i < 100; i++)
      expect(await verifyOtp({ phone, code: '999999', ip, now: at(start, i) })).toEqual(noCode)
    for (let i = 0; i < 100; i++)
      expect(await verifyOtp({ phone: uniquePhone(), code: '999999', ip, now: at(start, i) })).toEqual(noCode)
    expect(await requestOtp({ phone, ip, now: at(start, 1_000) })).toEqual({ ok: true })
    expect(await verifyOtp({ phone, code: await codeSentTo(phone), ip, now: at(start, 2_000) })).toEqual({ ok: true })
  })

  it('limits the checks one address makes of waiting codes to 40 in 10 minutes, however many browsers it uses', async () => {
    const ip = uniqueIp()
    const start = new Date()
    const phones = Array.from({ length: OTP_CHECKS_PER_ADDRESS / OTP_MAX_WRONG_TRIES + 1 }, uniquePhone)
    for (const phone of phones) await requestOtp({ phone, ip: uniqueIp(), now: start })
    // A new device cookie for every number: the per-client count starts afresh, the address's does not.
    for (const phone of phones.slice(0, -1)) {
      const device = `d-${randomInt(1e9)}`
      for (let t = 0; t < OTP_MAX_WRONG_TRIES; t++) {
        expect(await verifyOtp({ phone, code: '999999', ip, device, now: start })).toMatchObject({ ok: false })
      }
    }
    const phone = phones.at(-1)!
    const code = await codeSentTo(phone)
    expect(await verifyOtp({ phone, code, ip, device: 'fresh', now: at(start, 60_000) })).toEqual({
      ok: false,
      message: 'Too many attempts from your network. Try again in 9 minutes.',
      retryAfterMs: 9 * 60_000,
    })
    // The refusal is the address's and was not counted against the code: from elsewhere it still works.
    expect(await verifyOtp({ phone, code, ip: uniqueIp(), now: at(start, 60_000) })).toEqual({ ok: true })
  })

  it('answers a page 400 for a wrong code and 429 when the client may not check more, with the same words', async () => {
    const ip = uniqueIp()
    const start = new Date()
    const phones = Array.from({ length: OTP_CHECKS_PER_CLIENT / OTP_MAX_WRONG_TRIES + 1 }, uniquePhone)
    for (const phone of phones) await requestOtp({ phone, ip: uniqueIp(), now: start })
    expect(await checkTypedCode({ phone: phones[0]!, code: '999999', ip, now: start })).toEqual({
      ok: false,
      status: 400,
      message: 'That code is not right. You have 4 tries left.',
    })
    for (const phone of phones.slice(0, -1)) {
      for (let t = phone === phones[0] ? 1 : 0; t < OTP_MAX_WRONG_TRIES; t++)
        await checkTypedCode({ phone, code: '999999', ip, now: start })
    }
    const phone = phones.at(-1)!
    expect(await checkTypedCode({ phone, code: await codeSentTo(phone), ip, now: at(start, 60_000) })).toEqual({
      ok: false,
      status: 429,
      message: 'Too many attempts from your network. Try again in 9 minutes.',
    })
    expect(await checkTypedCode({ phone, code: await codeSentTo(phone), ip: uniqueIp(), now: start })).toEqual({
      ok: true,
    })
  })

  it('speaks of an address when the code went to an e-mail address', async () => {
    expect(
      await checkTypedCode({
        phone: `email:${uniquePhone()}@example.com`,
        code: '123456',
        ip: uniqueIp(),
        sentTo: 'address',
      }),
    ).toEqual({ ok: false, status: 400, message: 'There is no code waiting for this address. Ask for a new code.' })
  })
})
