// Times the check of a one-time code on the running store: POST /auth with the right code, as the
// sign-in form sends it, from the request to the end of the response on localhost (server time plus
// a loopback round trip: an upper bound of the server's own time). Every try is a whole sign-in of
// a new number from its own client address, so no rate limit is reached.
import { randomInt } from 'node:crypto'
import { BROWSER_USER_AGENT } from './browser'
import { percentile } from './load'

const WARM_UP_TRIES = 2
const CODE_WAIT_MS = 15_000

export type VerifyTiming = { runs: number; samplesMs: number[]; p50Ms: number; p95Ms: number }

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A client address in the benchmarking range 198.18.0.0/15; each may ask for 30 codes in 10 minutes, so a repeat does no harm. */
const clientAddress = () => `198.${randomInt(18, 20)}.${randomInt(256)}.${randomInt(1, 255)}`

function form(fields: Record<string, string>): RequestInit {
  return { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' }
}

type OutboxMessage = { id: number; body: string }

async function outboxFor(origin: string, phone: string): Promise<OutboxMessage[]> {
  const response = await fetch(`${origin}/dev/outbox.json?to=${encodeURIComponent(phone)}`)
  if (response.status === 404)
    throw new Error('the dev outbox answers 404: the store is not in demo mode (unset DEMO_MODE)')
  return ((await response.json()) as { messages: OutboxMessage[] }).messages
}

/** The code of the first SMS to `phone` newer than message `afterId`. */
async function codeFromOutbox(origin: string, phone: string, afterId: number): Promise<string> {
  const deadline = Date.now() + CODE_WAIT_MS
  while (Date.now() < deadline) {
    const code = (await outboxFor(origin, phone))
      .find((message) => message.id > afterId)
      ?.body.match(/\b(\d{6})\b/)?.[1]
    if (code) return code
    await delay(100)
  }
  throw new Error(
    `no new code for ${phone} in the dev outbox within ${CODE_WAIT_MS / 1000} s (a number asked again within minutes waits: docs/limits.md)`,
  )
}

/** A sign-in through the pages (demo mode): the session cookie, and how long checking the code took. */
export async function signInThroughPages(
  origin: string,
  mobile: string,
  address = clientAddress(),
): Promise<{ cookie: string; location: string; checkMs: number }> {
  const headers = { 'User-Agent': BROWSER_USER_AGENT, 'X-Forwarded-For': address }
  const phone = `+91${mobile}`
  const lastId = Math.max(0, ...(await outboxFor(origin, phone)).map((message) => message.id))
  const sent = await fetch(`${origin}/auth`, { ...form({ intent: 'send', country: 'IN', mobile }), headers })
  const pendingCookie = sent.headers.get('set-cookie')?.split(';')[0]
  if (sent.status !== 302 || !pendingCookie)
    throw new Error(`sending a code answered ${sent.status}: ${(await sent.text()).slice(0, 200)}`)
  const code = await codeFromOutbox(origin, phone, lastId)

  const started = performance.now()
  const verified = await fetch(`${origin}/auth`, {
    ...form({ intent: 'verify', code }),
    headers: { ...headers, Cookie: pendingCookie },
  })
  await verified.arrayBuffer()
  const checkMs = performance.now() - started
  const cookie = verified.headers
    .getSetCookie()
    .map((header) => header.split(';')[0]!)
    .find((pair) => /^(__Host-)?session=./.test(pair))
  const location = verified.headers.get('location') ?? ''
  if (verified.status !== 302 || !cookie)
    throw new Error(`checking the code answered ${verified.status} (location ${location})`)
  return { cookie, location, checkMs }
}

/** One sign-in of a new number: send a code (not timed), read it from the dev outbox, then time the check. */
async function timeOneVerify(origin: string, address: string): Promise<number> {
  const { location, checkMs } = await signInThroughPages(
    origin,
    `9${String(randomInt(0, 1e9)).padStart(9, '0')}`,
    address,
  )
  if (!location.startsWith('/details')) throw new Error(`a new customer was sent to ${location}, not /details`)
  return checkMs
}

export async function timeCodeVerification(origin: string, runs: number): Promise<VerifyTiming> {
  for (let index = 0; index < WARM_UP_TRIES; index++) await timeOneVerify(origin, clientAddress())
  const samplesMs: number[] = []
  for (let index = 0; index < runs; index++) samplesMs.push(await timeOneVerify(origin, clientAddress()))
  return { runs, samplesMs, p50Ms: percentile(samplesMs, 50), p95Ms: percentile(samplesMs, 95) }
}
