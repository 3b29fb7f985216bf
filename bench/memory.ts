// The store process's own memory (issue 29 item 8): its resident set once started and warmed up
// (idle), and its peak while the SSR load runs (bench/load.ts). Sampled from /proc (Linux only) like
// the oversized-bodies figures; the split of idle comes from the store's own /metrics (prom-client's
// process figures), which answers this machine without a token.
import { BROWSER_HEADERS } from './browser'
import { residentBytes } from './large-bodies'
import { percentile } from './load'

const SAMPLE_EVERY_MS = 10
/** Pages every visitor reaches, each asked this many times before idle is read: first-use allocations count as idle. */
const WARM_UP_PATHS = ['/', '/services', '/auth', '/healthz']
const WARM_UP_ROUNDS = 10
/** After the warm-up, before the idle samples: the last answers' buffers and sockets go. */
const SETTLE_MS = 2_000
const IDLE_SAMPLES = 20

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** How the idle resident set divides, from the store's /metrics (bytes). */
export type MemorySplit = { heapUsedBytes: number; heapTotalBytes: number; externalBytes: number }

export type IdleMemory = { rssBytes: number; split: MemorySplit | null }

async function memorySplit(origin: string): Promise<MemorySplit | null> {
  const response = await fetch(`${origin}/metrics`, { headers: BROWSER_HEADERS }).catch(() => null)
  if (!response || response.status !== 200) return null
  const text = await response.text()
  const figure = (name: string) => Number(text.match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1] ?? NaN)
  const split = {
    heapUsedBytes: figure('nodejs_heap_size_used_bytes'),
    heapTotalBytes: figure('nodejs_heap_size_total_bytes'),
    externalBytes: figure('nodejs_external_memory_bytes'),
  }
  return Object.values(split).every(Number.isFinite) ? split : null
}

/** The store's resident set after a warm-up of the common pages and a pause: the median of IDLE_SAMPLES samples. */
export async function measureIdleMemory(origin: string, storePid: number): Promise<IdleMemory> {
  for (let round = 0; round < WARM_UP_ROUNDS; round++) {
    for (const pathname of WARM_UP_PATHS) {
      const response = await fetch(`${origin}${pathname}`, { headers: BROWSER_HEADERS })
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`warm-up: ${pathname} answered ${response.status}`)
    }
  }
  await delay(SETTLE_MS)
  const samples: number[] = []
  for (let sample = 0; sample < IDLE_SAMPLES; sample++) {
    samples.push(residentBytes(storePid))
    await delay(SAMPLE_EVERY_MS * 5)
  }
  return { rssBytes: percentile(samples, 50), split: await memorySplit(origin) }
}

/** Samples the process's resident set every SAMPLE_EVERY_MS until `stop`, which returns the largest sample. */
export function watchPeakMemory(pid: number): { stop: () => number } {
  let peak = residentBytes(pid)
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentBytes(pid))
  }, SAMPLE_EVERY_MS)
  return {
    stop: () => {
      clearInterval(sampler)
      return Math.max(peak, residentBytes(pid))
    },
  }
}
