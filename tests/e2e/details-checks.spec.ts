import { expect, test } from './fixtures'
import { completeDetailsStep, useOwnClientAddress } from './sign-in-helpers'

// Issue 21 (Lighthouse): /details loads step 1's checks (Zod) after the page, and only at step 1.

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

const FORM_CHECKS = /^\/assets\/(details-form|zod)-[\w-]+\.js$/

test(
  'step 1 checks a field in the browser once its checks have loaded; step 2 never loads them',
  { tag: '@js-only' },
  async ({ customer: { page } }) => {
    const posts: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url())
    })
    const checksLoaded = page.waitForResponse((response) => FORM_CHECKS.test(new URL(response.url()).pathname))
    await page.goto('/details')
    await checksLoaded

    const email = page.getByLabel('E-mail')
    const error = page.getByText('Enter an e-mail address like name@example.com.')
    // The checks take over once their module has run; until then a blur checks nothing.
    await expect(async () => {
      await email.fill('asha')
      await email.blur()
      await expect(error).toBeVisible({ timeout: 1_000 })
    }).toPass()
    expect(posts).toEqual([])

    await email.fill('')
    await completeDetailsStep(page)
    const assets: string[] = []
    page.on('request', (request) => assets.push(new URL(request.url()).pathname))
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Step 2 of 3: PAN card' })).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(assets.filter((path) => FORM_CHECKS.test(path))).toEqual([])
  },
)
