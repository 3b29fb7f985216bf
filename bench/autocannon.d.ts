// autocannon ships no types; this covers the part the bench uses.
declare module 'autocannon' {
  type Options = { url: string; connections?: number; duration?: number; headers?: Record<string, string> }
  type Histogram = { average: number; p50: number; p99: number; min: number; max: number }
  type Result = {
    requests: Histogram & { total: number }
    latency: Histogram
    errors: number
    timeouts: number
    non2xx: number
    '2xx': number
  }
  export default function autocannon(options: Options): Promise<Result>
}
