// The store under oversized request bodies: 16 clients each push 200 MB at a page action (POST
// /auth; half declare the length, half send it chunked), reconnecting whenever the store refuses and
// closes, until each has sent its 200 MB. Meanwhile the store process's resident memory is sampled
// (from /proc; Linux only) and /healthz is asked again and again, one request at a time.
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { BROWSER_USER_AGENT } from './browser'
import { percentile } from './load'

export const LARGE_BODY_CLIENTS = 16
// 1 MB = 1,000,000 bytes, as everywhere in the bench.
export const LARGE_BODY_BYTES_PER_CLIENT = 200_000_000
const LARGE_BODY_PATH = '/auth'
const CHUNK_BYTES = 64 * 1024
const RSS_SAMPLE_EVERY_MS = 10
const IDLE_SAMPLES = 10
/** A /healthz answer slower than this counts as this (it would have failed a health check anyway). */
const HEALTHZ_TIMEOUT_MS = 2_000

export type LargeBodiesFigures = StoreUnderAttack & {
  clients: number
  bytesPerClient: number
  attackMs: number
  requests: number
  statuses: Record<string, number>
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The process's resident set size from /proc/PID/status, in bytes. */
export function residentBytes(pid: number): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m)
  if (!match) throw new Error(`no VmRSS for process ${pid}`)
  return Number(match[1]) * 1024
}

/**
 * One POST of `remainingBytes` (declared, or chunked): writes until the store answers or it is all
 * sent. Resolves with the status (0 when the connection was dropped without an answer) and the bytes
 * written.
 */
function postOnce(origin: string, remainingBytes: number, chunked: boolean) {
  return new Promise<{ status: number; sentBytes: number }>((resolve) => {
    const filler = Buffer.alloc(CHUNK_BYTES, 'a')
    let done = false
    let sentBytes = 0
    const headers: Record<string, string> = {
      'User-Agent': BROWSER_USER_AGENT,
      'Content-Type': 'application/x-www-form-urlencoded',
    }
    if (!chunked) headers['Content-Length'] = String(remainingBytes)
    const client = http.request(`${origin}${LARGE_BODY_PATH}`, { method: 'POST', headers, agent: false })
    const finish = (status: number) => {
      if (done) return
      done = true
      client.destroy()
      resolve({ status, sentBytes })
    }
    client.on('response', (response) => {
      response.resume()
      finish(response.statusCode ?? 0)
    })
    client.on('error', () => finish(0))
    client.on('close', () => finish(0))
    const sendMore = () => {
      while (!done && sentBytes < remainingBytes) {
        const size = Math.min(CHUNK_BYTES, remainingBytes - sentBytes)
        sentBytes += size
        if (!client.write(filler.subarray(0, size))) return void client.once('drain', sendMore)
      }
      if (!done) client.end()
    }
    sendMore()
  })
}

/** One client: POSTs until it has sent its whole share, counting the answers. */
async function pushBytes(origin: string, totalBytes: number, chunked: boolean, statuses: Record<string, number>) {
  let sentBytes = 0
  let requests = 0
  while (sentBytes < totalBytes) {
    const answer = await postOnce(origin, totalBytes - sentBytes, chunked)
    sentBytes += answer.sentBytes
    requests++
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1
  }
  return requests
}

export async function timeHealthz(origin: string): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now()
  try {
    const response = await fetch(`${origin}/healthz`, {
      headers: { 'User-Agent': BROWSER_USER_AGENT },
      signal: AbortSignal.timeout(HEALTHZ_TIMEOUT_MS),
    })
    await response.arrayBuffer()
    return { ms: performance.now() - started, ok: response.status === 200 }
  } catch {
    return { ms: HEALTHZ_TIMEOUT_MS, ok: false }
  }
}

/** The store's memory and /healthz latency while an attack runs (both benches of large or held bodies). */
export type StoreUnderAttack = {
  idleRssBytes: number
  peakRssBytes: number
  peakAboveIdleBytes: number
  healthz: { samples: number; p50Ms: number; p99Ms: number; maxMs: number; failed: number }
}

/**
 * Takes the store's idle RSS (after `warmUp`), then runs `attack` while sampling the peak RSS and
 * asking /healthz again and again, one request at a time.
 */
export async function watchStoreDuring<T>(
  origin: string,
  storePid: number,
  warmUp: () => Promise<unknown>,
  attack: () => Promise<T>,
): Promise<StoreUnderAttack & { attack: T }> {
  // Warm-up first, so first-use allocations are part of idle.
  for (let round = 0; round < 3; round++) {
    await timeHealthz(origin)
    await warmUp()
  }
  const idleSamples: number[] = []
  for (let sample = 0; sample < IDLE_SAMPLES; sample++) {
    idleSamples.push(residentBytes(storePid))
    await delay(RSS_SAMPLE_EVERY_MS * 5)
  }
  const idleRssBytes = percentile(idleSamples, 50)

  let attacking = true
  let peakRssBytes = idleRssBytes
  const sampler = setInterval(() => {
    peakRssBytes = Math.max(peakRssBytes, residentBytes(storePid))
  }, RSS_SAMPLE_EVERY_MS)
  const healthzMs: number[] = []
  let healthzFailed = 0
  const healthzLoop = (async () => {
    while (attacking) {
      const answer = await timeHealthz(origin)
      healthzMs.push(answer.ms)
      if (!answer.ok) healthzFailed++
    }
  })()
  const outcome = await attack()
  attacking = false
  await healthzLoop
  clearInterval(sampler)
  peakRssBytes = Math.max(peakRssBytes, residentBytes(storePid))
  return {
    attack: outcome,
    idleRssBytes,
    peakRssBytes,
    peakAboveIdleBytes: peakRssBytes - idleRssBytes,
    healthz: {
      samples: healthzMs.length,
      p50Ms: percentile(healthzMs, 50),
      p99Ms: percentile(healthzMs, 99),
      maxMs: Math.max(...healthzMs),
      failed: healthzFailed,
    },
  }
}

export async function measureLargeBodies(origin: string, storePid: number): Promise<LargeBodiesFigures> {
  const statuses: Record<string, number> = {}
  const { attack, ...watched } = await watchStoreDuring(
    origin,
    storePid,
    () => postOnce(origin, 1024, false),
    async () => {
      const started = performance.now()
      const requestsPerClient = await Promise.all(
        Array.from({ length: LARGE_BODY_CLIENTS }, (_, client) =>
          pushBytes(origin, LARGE_BODY_BYTES_PER_CLIENT, client % 2 === 1, statuses),
        ),
      )
      return {
        attackMs: performance.now() - started,
        requests: requestsPerClient.reduce((sum, count) => sum + count, 0),
      }
    },
  )
  return { clients: LARGE_BODY_CLIENTS, bytesPerClient: LARGE_BODY_BYTES_PER_CLIENT, ...watched, ...attack, statuses }
}
