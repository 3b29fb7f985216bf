import { launch } from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { CHROMIUM_FLAGS, CHROMIUM_PATH, MOBILE_BROWSER_USER_AGENT } from './browser'
import { onCleanup } from './cleanup'
import { median } from './load'

export type LighthouseRun = { score: number; lcpMs: number; tbtMs: number; cls: number }
export type LighthouseFigures = LighthouseRun & { runs: LighthouseRun[] }

/** One run with Lighthouse's defaults (mobile, simulated Slow 4G, 4x CPU) but a browser's user agent, in a fresh Chromium profile. */
async function runOnce(url: string): Promise<LighthouseRun> {
  const chrome = await launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROMIUM_FLAGS,
    handleSIGINT: false,
    logLevel: 'silent',
  })
  const unregister = onCleanup(() => chrome.kill())
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      emulatedUserAgent: MOBILE_BROWSER_USER_AGENT,
    })
    const lhr = result?.lhr
    const score = lhr?.categories.performance?.score
    if (!lhr || score == null)
      throw new Error(
        `Lighthouse produced no performance score for ${url}: ${lhr?.runtimeError?.message ?? 'no result'}`,
      )
    const audit = (id: string) => {
      const value = lhr.audits[id]?.numericValue
      if (value == null) throw new Error(`Lighthouse audit ${id} has no value for ${url}`)
      return value
    }
    return {
      score: Math.round(score * 100),
      lcpMs: audit('largest-contentful-paint'),
      tbtMs: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
    }
  } finally {
    unregister()
    chrome.kill()
  }
}

const ATTEMPTS = 3

/** Lighthouse sometimes fails to record a trace (NO_NAVSTART, NO_FCP) on a busy box; a rerun usually works. */
async function runWithRetries(url: string): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(url)
    } catch (error) {
      if (attempt === ATTEMPTS) throw error
      console.log(
        `  Lighthouse run ${attempt} of ${url} failed, retrying: ${error instanceof Error ? error.message : error}`,
      )
    }
  }
}

const summarise = (runs: LighthouseRun[]): LighthouseFigures => ({
  score: median(runs.map((run) => run.score)),
  lcpMs: median(runs.map((run) => run.lcpMs)),
  tbtMs: median(runs.map((run) => run.tbtMs)),
  cls: median(runs.map((run) => run.cls)),
  runs,
})

/** Alternates floor and store run by run, so drift during the session affects both alike. */
export async function compareLighthouse(floorUrl: string, storeUrl: string, runs: number) {
  const floor: LighthouseRun[] = []
  const store: LighthouseRun[] = []
  for (let index = 0; index < runs; index++) {
    floor.push(await runWithRetries(floorUrl))
    store.push(await runWithRetries(storeUrl))
  }
  const floorFigures = summarise(floor)
  const storeFigures = summarise(store)
  return { runs, floor: floorFigures, store: storeFigures, lcpRatio: storeFigures.lcpMs / floorFigures.lcpMs }
}
