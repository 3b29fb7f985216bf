import autocannon from 'autocannon'
import { BROWSER_HEADERS } from './browser'

export type LoadRun = {
  app: 'floor' | 'store'
  url: string
  requestsPerSec: number
  p50Ms: number
  p99Ms: number
  ok: number
  failed: number
}
export type LoadRound = { round: number; floor: LoadRun; store: LoadRun; throughputRatio: number; p99Ratio: number }
export type LoadComparison = {
  connections: number
  durationS: number
  rounds: LoadRound[]
  medianThroughputRatio: number
  medianP99Ratio: number
}

export const CONNECTIONS = 50
const WARM_UP_S = 3

async function hammer(app: LoadRun['app'], url: string, durationS: number): Promise<LoadRun> {
  // Both apps get the same browser headers, so both compress the HTML inside Node the same way.
  const result = await autocannon({ url, connections: CONNECTIONS, duration: durationS, headers: BROWSER_HEADERS })
  const failed = result.errors + result.timeouts + result.non2xx
  if (result['2xx'] === 0) throw new Error(`${url}: no 2xx response under load (${failed} failed)`)
  return {
    app,
    url,
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    ok: result['2xx'],
    failed,
  }
}

/**
 * The store alone under the same load, for BENCH_ONLY=memory (no floor to compare with): the warm-up,
 * then `rounds` runs of `durationS`, as long as the store's share of compareLoad.
 */
export async function loadStoreOnly(options: {
  storeUrl: string
  durationS: number
  rounds: number
}): Promise<LoadRun[]> {
  await hammer('store', options.storeUrl, WARM_UP_S)
  const runs: LoadRun[] = []
  for (let index = 0; index < options.rounds; index++)
    runs.push(await hammer('store', options.storeUrl, options.durationS))
  return runs
}

/** The nearest-rank percentile (p in 0..100) of `values`. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/**
 * Floor and store one after the other, alternating which goes first (ABBA), because on a shared
 * 2-core box the order and drift within a session move req/s by 10-20 %; only per-round ratios
 * and their median mean anything.
 */
export async function compareLoad(options: {
  floorUrl: string
  storeUrl: string
  durationS: number
  rounds: number
  onRound: (round: LoadRound) => void
}): Promise<LoadComparison> {
  await hammer('floor', options.floorUrl, WARM_UP_S)
  await hammer('store', options.storeUrl, WARM_UP_S)
  const rounds: LoadRound[] = []
  for (let index = 0; index < options.rounds; index++) {
    const order = index % 2 === 0 ? (['floor', 'store'] as const) : (['store', 'floor'] as const)
    const runs: Partial<Record<LoadRun['app'], LoadRun>> = {}
    for (const app of order)
      runs[app] = await hammer(app, app === 'floor' ? options.floorUrl : options.storeUrl, options.durationS)
    const floor = runs.floor!
    const store = runs.store!
    const round = {
      round: index + 1,
      floor,
      store,
      throughputRatio: store.requestsPerSec / floor.requestsPerSec,
      p99Ratio: store.p99Ms / floor.p99Ms,
    }
    options.onRound(round)
    rounds.push(round)
  }
  return {
    connections: CONNECTIONS,
    durationS: options.durationS,
    rounds,
    medianThroughputRatio: median(rounds.map((round) => round.throughputRatio)),
    medianP99Ratio: median(rounds.map((round) => round.p99Ratio)),
  }
}
