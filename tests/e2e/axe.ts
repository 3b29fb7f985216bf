import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'

/**
 * Fails on any serious or critical axe violation, naming each rule and the first offending node.
 * axe itself needs JavaScript: for a page opened with JavaScript disabled it audits that page's
 * document as it stands (after a form's answer too, and signed in) in a JavaScript-enabled context
 * whose application scripts are blocked: the page's URL is answered there with the same HTML, so
 * nothing is asked of the server again but the stylesheets and images.
 */
export async function expectNoSeriousA11yViolations(page: Page) {
  const javaScriptEnabled = test.info().project.use.javaScriptEnabled !== false
  let auditedPage = page
  if (!javaScriptEnabled) {
    const [dark, html] = await Promise.all([
      page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches),
      page.content(),
    ])
    const url = page.url()
    const context = await page
      .context()
      .browser()!
      .newContext({
        javaScriptEnabled: true,
        colorScheme: dark ? 'dark' : 'light',
        viewport: page.viewportSize(),
      })
    await context.route('**/assets/*.js', (route) => route.abort())
    const documentUrl = new URL(url)
    documentUrl.hash = ''
    await context.route(
      (requested) => requested.href === documentUrl.href,
      (route) => route.fulfill({ status: 200, contentType: 'text/html', body: html }),
    )
    auditedPage = await context.newPage()
    await auditedPage.goto(url)
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
