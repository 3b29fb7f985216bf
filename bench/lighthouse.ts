import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { launch } from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { CHROMIUM_FLAGS, CHROMIUM_PATH, MOBILE_BROWSER_USER_AGENT } from './browser'
import { onCleanup } from './cleanup'
import { median } from './load'

export type LighthouseRun = {
  score: number
  lcpMs: number
  tbtMs: number
  cls: number
  /** Where to look when a figure is over budget: the LCP element, render-blocking requests, shifted elements. */
  why: string
}
export type LighthouseFigures = Omit<LighthouseRun, 'why'> & { runs: LighthouseRun[] }

/** A page Lighthouse loads: its name in the output, its URL, and the Cookie header of a signed-in customer. */
export type LighthousePage = { name: string; url: string; cookie?: string }

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr']

/** The snippets of the DOM nodes in an audit's details (Lighthouse nests them in tables and lists). */
function nodeSnippets(details: unknown, found: string[] = []): string[] {
  if (Array.isArray(details)) for (const item of details) nodeSnippets(item, found)
  else if (details && typeof details === 'object') {
    const record = details as Record<string, unknown>
    if (record.type === 'node' && typeof record.snippet === 'string') found.push(record.snippet)
    else for (const value of Object.values(record)) nodeSnippets(value, found)
  }
  return found
}

const short = (text: string, length = 90) => (text.length > length ? `${text.slice(0, length - 1)}…` : text)

function diagnosis(lhr: Lhr): string {
  const lcpElement = nodeSnippets(lhr.audits['largest-contentful-paint-element']?.details)[0]
  const blocking = (
    (lhr.audits['render-blocking-resources']?.details as { items?: { url?: string }[] } | undefined)?.items ?? []
  ).map((item) => (item.url ? new URL(item.url).pathname : '?'))
  const shifted = nodeSnippets(lhr.audits['layout-shifts']?.details)
  return [
    `LCP element ${lcpElement ? short(lcpElement) : 'unknown'}`,
    `render-blocking ${blocking.length ? blocking.join(', ') : 'none'}`,
    `shifted ${shifted.length ? shifted.map((snippet) => short(snippet, 60)).join(', ') : 'nothing'}`,
  ].join('; ')
}

let reportsKept = 0

/** BENCH_LIGHTHOUSE_REPORTS=folder keeps every run's full report there, to read what a figure is made of. */
function keepReport(url: string, lhr: Lhr) {
  const folder = process.env.BENCH_LIGHTHOUSE_REPORTS
  if (!folder) return
  mkdirSync(folder, { recursive: true })
  const name = `${String(++reportsKept).padStart(3, '0')}${new URL(url).pathname.replaceAll('/', '_') || '_'}.json`
  writeFileSync(join(folder, name), JSON.stringify(lhr))
}

/**
 * One run with Lighthouse's defaults (mobile, simulated Slow 4G, 4x CPU) but a browser's user agent,
 * in a fresh Chromium profile; `cookie` goes with every request (a signed-in customer's page).
 */
async function runOnce({ url, cookie }: LighthousePage): Promise<LighthouseRun> {
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
      extraHeaders: cookie ? { Cookie: cookie } : null,
    })
    const lhr = result?.lhr
    if (lhr) keepReport(url, lhr)
    const score = lhr?.categories.performance?.score
    if (!lhr || score == null)
      throw new Error(
        `Lighthouse produced no performance score for ${url}: ${lhr?.runtimeError?.message ?? 'no result'}`,
      )
    // A signed-in page that sent Lighthouse elsewhere (an expired session, a customer in the wrong state) is not measured.
    if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname)
      throw new Error(`Lighthouse loading ${url} ended on ${lhr.finalDisplayedUrl}`)
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
      why: diagnosis(lhr),
    }
  } finally {
    unregister()
    chrome.kill()
  }
}

const ATTEMPTS = 3

/** Lighthouse sometimes fails to record a trace (NO_NAVSTART, NO_FCP) on a busy box; a rerun usually works. */
async function runWithRetries(page: LighthousePage): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(page)
    } catch (error) {
      if (attempt === ATTEMPTS) throw error
      console.log(
        `  Lighthouse run ${attempt} of ${page.url} failed, retrying: ${error instanceof Error ? error.message : error}`,
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

export type PageFigures = LighthouseFigures & { name: string; url: string; lcpRatio: number }

/**
 * Each round runs the floor once, then every page once, so drift during the session (other work on
 * the box) affects the floor and each page alike; each page's LCP is compared with the floor's median.
 */
export async function comparePages(
  floorUrl: string,
  pages: LighthousePage[],
  rounds: number,
  onRound: (round: number) => void = () => {},
): Promise<{ rounds: number; floor: LighthouseFigures; pages: PageFigures[] }> {
  const floorRuns: LighthouseRun[] = []
  const pageRuns = pages.map((): LighthouseRun[] => [])
  for (let round = 1; round <= rounds; round++) {
    floorRuns.push(await runWithRetries({ name: 'floor', url: floorUrl }))
    for (const [index, page] of pages.entries()) pageRuns[index]!.push(await runWithRetries(page))
    onRound(round)
  }
  const floor = summarise(floorRuns)
  return {
    rounds,
    floor,
    pages: pages.map((page, index) => {
      const figures = summarise(pageRuns[index]!)
      return { name: page.name, url: page.url, ...figures, lcpRatio: figures.lcpMs / floor.lcpMs }
    }),
  }
}
