import { expect, test, type Page } from '@playwright/test'
import { hydrated } from './hydration'

// A page's scripts are fetched after its first contentful paint (decision 061): Lighthouse's simulated
// LCP charges every script that arrived before the page painted, 110 KB on a slow network, and on a
// slow network the stylesheet would share the connection with them. The page hydrates all the same.

/** When the page painted its first text, and when each of its script files was requested (ms since navigation). */
async function paintAndScriptStarts(page: Page) {
  return page.evaluate(() => ({
    firstContentfulPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    scripts: performance
      .getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
      .map((entry) => ({ path: new URL(entry.name).pathname, startTime: entry.startTime })),
  }))
}

for (const path of ['/services', '/terms-and-conditions']) {
  test(`${path} paints before it requests its scripts, then hydrates`, { tag: '@js-only' }, async ({ page }) => {
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    const response = await page.goto(path)
    await hydrated(page)

    const { firstContentfulPaint, scripts } = await paintAndScriptStarts(page)
    expect(firstContentfulPaint).toBeGreaterThan(0)
    expect(scripts.map((script) => script.path)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\/assets\/entry\.client-/)]),
    )
    for (const script of scripts) expect(script.startTime, script.path).toBeGreaterThan(firstContentfulPaint!)
    expect(await response?.text()).not.toContain('rel="modulepreload"')
    expect(errors).toEqual([])
  })
}
