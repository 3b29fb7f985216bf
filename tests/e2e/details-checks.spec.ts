import { expect, test } from './fixtures'
import { gotoHydrated } from './hydration'
import { completeDetailsStep, completePanCardStep, useOwnClientAddress } from './sign-in-helpers'
import { ASHA_RAO } from '../support/sample-customer'

// For Lighthouse's budget (docs/testing.md, Benchmark): /details loads step 1's checks (Zod) after the page, and only
// at step 1.

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

test(
  "Save pressed before step 1's checks have arrived saves the step, without a round trip per field",
  { tag: '@js-only' },
  async ({ customer: { page } }) => {
    const intents: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST') intents.push(request.postDataBuffer()?.includes('__intent__') ? 'check' : 'save')
    })
    let releaseChecks = () => {}
    const checksHeld = new Promise<void>((resolve) => (releaseChecks = resolve))
    await page.route(/\/assets\/(details-form|zod)-[\w-]+\.js$/, async (route) => {
      await checksHeld
      await route.continue().catch(() => {})
    })
    await gotoHydrated(page, '/details')
    // Leaving the PAN field for the button is the moment a field's check would be asked of the server.
    await completeDetailsStep(page)
    expect(intents).toEqual(['save'])
    releaseChecks()
  },
)

// Step 1's form (Conform and the family members' rows) is a chunk of its own, loaded only at step 1.
const STEP_1_FORM = /^\/assets\/(conform|family-members-fieldset|profile-details-form)-[\w-]+\.js$/

test(
  "step 1 hydrates without an error; steps 2 and 3 load neither Conform nor step 1's form on a fresh load",
  { tag: '@js-only' },
  async ({ customer: { page } }) => {
    const errors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto('/details')
    await completeDetailsStep(page)

    for (const nextStep of [completePanCardStep, null]) {
      const assets: string[] = []
      const recordAsset = (request: { url(): string }) => assets.push(new URL(request.url()).pathname)
      page.on('request', recordAsset)
      await page.reload()
      await page.waitForLoadState('networkidle')
      page.off('request', recordAsset)
      expect(assets.filter((path) => STEP_1_FORM.test(path) || FORM_CHECKS.test(path))).toEqual([])
      await expect(page.locator('link[rel="modulepreload"][href*="/conform-"]')).toHaveCount(0)
      if (nextStep) await nextStep(page)
    }
    await expect(page.getByRole('heading', { name: 'Step 3 of 3: Terms and Agreement' })).toBeVisible()
    expect(errors).toEqual([])
  },
)

test('step 1 comes with its whole form in the HTML, for a browser without JavaScript', async ({
  customer: { page },
}) => {
  const response = await page.goto('/details')
  expect(await response?.text()).toContain('Save and continue')
  for (const label of ['Name', 'E-mail', 'Date of birth', 'Family member 1: PAN']) {
    await expect(page.getByLabel(label, { exact: true })).toBeVisible()
  }
  await expect(page.getByRole('button', { name: 'Add a family member' })).toBeVisible()
  await completeDetailsStep(page)
})

test("step 1's form posts before its chunk has arrived", { tag: '@js-only' }, async ({ customer: { page } }) => {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))
  // The form's chunk is held back: the page shows the server's form, which posts as without JavaScript.
  let releaseChunk = () => {}
  let chunkRequested = false
  const chunkHeld = new Promise<void>((resolve) => (releaseChunk = resolve))
  await page.route(/\/assets\/profile-details-form-[\w-]+\.js$/, async (route) => {
    chunkRequested = true
    await chunkHeld
    // The page that asked for it may have gone by then (the post loaded step 2).
    await route.continue().catch(() => {})
  })
  await page.goto('/details')
  await expect.poll(() => chunkRequested).toBe(true)
  await completeDetailsStep(page)
  releaseChunk()
  await page.unroute(/\/assets\/profile-details-form-[\w-]+\.js$/)
  expect(errors).toEqual([])
})

test(
  'what is typed at step 1 after a client navigation stays when the page reads its data again',
  { tag: '@js-only' },
  async ({ customer: { page } }) => {
    await gotoHydrated(page, '/services')
    // The form's chunk arrives only after the page has rendered without it, as on a slow network.
    let releaseChunk = () => {}
    const chunkHeld = new Promise<void>((resolve) => (releaseChunk = resolve))
    await page.route(/\/assets\/profile-details-form-[\w-]+\.js$/, async (route) => {
      await chunkHeld
      await route.continue()
    })
    await page.evaluate(() => (window as unknown as RouterWindow).__reactRouterDataRouter.navigate('/details'))
    await expect(page.getByRole('heading', { name: 'Step 1 of 3: Your details' })).toBeVisible()
    releaseChunk()
    await page.getByLabel('Name').fill(ASHA_RAO.name)
    // A revalidation (after a fetcher, a focus, another tab's change) renders the page again.
    await page.evaluate(() => (window as unknown as RouterWindow).__reactRouterDataRouter.revalidate())
    await expect
      .poll(() => page.evaluate(() => (window as unknown as RouterWindow).__reactRouterDataRouter.state.revalidation))
      .toBe('idle')
    await expect(page.getByLabel('Name')).toHaveValue(new RegExp(`^${ASHA_RAO.name}$`, 'i'))
  },
)

/** React Router's data router, which framework mode keeps on `window`. */
type RouterWindow = {
  __reactRouterDataRouter: {
    navigate(to: string): Promise<void>
    revalidate(): Promise<void>
    state: { revalidation: string }
  }
}
