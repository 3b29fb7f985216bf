import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'

/**
 * Fails on any serious or critical axe violation, naming each rule and the first offending node.
 * axe itself needs JavaScript: for a page opened with JavaScript disabled it audits the same URL in
 * a JavaScript-enabled context whose application scripts are blocked, i.e. the server's HTML as is.
 */
export async function expectNoSeriousA11yViolations(page: Page) {
  const javaScriptEnabled = test.info().project.use.javaScriptEnabled !== false
  let auditedPage = page
  if (!javaScriptEnabled) {
    const dark = await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)
    const context = await page
      .context()
      .browser()!
      .newContext({
        javaScriptEnabled: true,
        colorScheme: dark ? 'dark' : 'light',
        viewport: page.viewportSize(),
      })
    await context.route('**/assets/*.js', (route) => route.abort())
    auditedPage = await context.newPage()
    await auditedPage.goto(page.url())
  }
  try {
    const results = await new AxeBuilder({ page: auditedPage }).analyze()
    const serious = results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes[0]?.target.join(' ')})`)
    expect(serious).toEqual([])
  } finally {
    if (auditedPage !== page) await auditedPage.context().close()
  }
}
