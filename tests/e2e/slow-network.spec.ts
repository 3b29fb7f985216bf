import type { CDPSession, Locator, Page } from '@playwright/test'
import { cartOfTwoOnPayPage, PREMIUM } from './cart-helpers'
import { expect, test } from './fixtures'
import { gotoHydrated, hydrated } from './hydration'
import {
  completeDetailsStep,
  fillProfileDetails,
  PNG_1X1,
  tickAcknowledgements,
  uniqueMobile,
  useOwnClientAddress,
} from './sign-in-helpers'
import { ASHA_RAO } from '../support/sample-customer'

// On a slow phone network every press answers at once: the control pressed
// shows it is working (aria-busy and a spinner) and the other submit buttons are inert, drawn in
// the press's own task, so before any answer of the server could arrive. Timed in the page
// (performance.now() at the click and when the DOM first shows the pending state), not by sleeping.
// The test holds what does not depend on the machine's load (the press's own task, and sooner
// than the network's latency); the milliseconds are reported as annotations, and on a quiet
// machine stay under the 100 ms that reads as instant (docs/limits.md).
// Only the pages' scripts make a pending state; without them it is the browser's own.

/** A slow mobile connection: 400 kbit/s each way, 400 ms latency (docs/limits.md). */
const SLOW_NETWORK = { latencyMs: 400, bytesPerSecond: 400_000 / 8 }

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

/** Chromium's network emulation for `page` from now on. */
async function throttle(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: SLOW_NETWORK.latencyMs,
    downloadThroughput: SLOW_NETWORK.bytesPerSecond,
    uploadThroughput: SLOW_NETWORK.bytesPerSecond,
  })
  return cdp
}

type PendingTiming = {
  /** From the click to the first DOM change that shows the control named `name` busy; null if none came. */
  pendingAfterMs: number | null
  /** Whether that change came in the press's own task (before any timer queued at the press ran): no waiting on a render's turn. */
  inPressTask: boolean
  /** The page's other submit buttons (and links named in `inertLinks`) still usable at that moment. */
  stillUsable: string[]
}

/**
 * Presses `control` and measures, in the page, how long its pending state (aria-busy="true" on a
 * control with the same text: React may swap the element) takes to appear, and what else can
 * still be pressed then.
 */
async function pressAndTimePending(page: Page, control: Locator, inertLinks: string[] = []): Promise<PendingTiming> {
  const name = ((await control.textContent()) ?? '').trim()
  await page.evaluate(
    ({ name, inertLinks }) => {
      const w = window as unknown as { pendingTiming: Promise<unknown> }
      w.pendingTiming = new Promise((resolve) => {
        let pressedAt: number | null = null
        let laterTaskRan = false
        const text = (element: Element) => (element.textContent ?? '').trim()
        const controls = () => [...document.querySelectorAll('main button, main a, main [role="link"]')]
        const observer = new MutationObserver(() => {
          if (pressedAt === null) return
          const busy = controls().find((element) => text(element) === name && element.ariaBusy === 'true')
          if (!busy) return
          const pendingAfterMs = performance.now() - pressedAt
          observer.disconnect()
          const stillUsable = controls()
            .filter((element) => element !== busy)
            .filter((element) =>
              element instanceof HTMLButtonElement
                ? element.type === 'submit' && !element.disabled
                : element instanceof HTMLAnchorElement && inertLinks.includes(text(element)),
            )
            .map((element) => text(element) || (element.getAttribute('aria-label') ?? '?'))
          resolve({ pendingAfterMs, inPressTask: !laterTaskRan, stillUsable })
        })
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true })
        window.addEventListener(
          'click',
          () => {
            if (pressedAt !== null) return
            pressedAt = performance.now()
            setTimeout(() => (laterTaskRan = true))
          },
          { capture: true },
        )
        setTimeout(() => {
          observer.disconnect()
          resolve({ pendingAfterMs: null, inPressTask: false, stillUsable: [] })
        }, 10_000)
      })
    },
    { name, inertLinks },
  )
  await control.click()
  return page.evaluate(() => (window as unknown as { pendingTiming: Promise<PendingTiming> }).pendingTiming)
}

function expectPromptPending(timing: PendingTiming, label: string) {
  test.info().annotations.push({
    type: 'pending after ms',
    description: `${label}: ${timing.pendingAfterMs?.toFixed(1)}${timing.inPressTask ? ' (in the press task)' : ''}`,
  })
  expect(timing.pendingAfterMs, `${label}: ms from the press to the pending state`).not.toBeNull()
  expect(timing.pendingAfterMs!, `${label}: ms from the press to the pending state`).toBeLessThan(
    SLOW_NETWORK.latencyMs,
  )
  expect(timing.inPressTask, `${label}: the pending state is drawn in the press's own task`).toBe(true)
  expect(timing.stillUsable, `${label}: other controls usable while it is pending`).toEqual([])
}

test('signing in: "Send OTP" shows its pending state at once', { tag: '@js-only' }, async ({ page }) => {
  await gotoHydrated(page, '/auth')
  await page.getByLabel('Mobile number').fill(uniqueMobile())
  await throttle(page)
  expectPromptPending(await pressAndTimePending(page, page.getByRole('button', { name: 'Send OTP' })), 'Send OTP')
  await expect(page.getByLabel('6-digit code')).toBeVisible({ timeout: 20_000 })
})

test(
  '/services: "Proceed to Pay" shows its pending state at once, and the cards wait',
  { tag: '@js-only' },
  async ({ customerWithProfile: { page } }) => {
    await gotoHydrated(page, '/services')
    // The cart saved on the server (the tick's own answer awaited, not only its optimistic check), so
    // the press is a plain move to /pay; a reload before that answer would cancel the save.
    const saved = page.waitForResponse(
      (response) => response.request().method() === 'POST' && new URL(response.url()).pathname.startsWith('/services'),
    )
    await page.getByRole('checkbox', { name: PREMIUM, exact: true }).click()
    await saved
    await page.reload()
    await hydrated(page)
    await expect(page.getByRole('checkbox', { name: PREMIUM, exact: true })).toBeChecked()
    await throttle(page)
    const timing = await pressAndTimePending(page, page.getByRole('link', { name: 'Proceed to Pay' }))
    expectPromptPending(timing, 'Proceed to Pay')
    await expect(page.getByRole('heading', { level: 1, name: 'Payment' })).toBeVisible({ timeout: 20_000 })
  },
)

test(
  '/pay: "Pay on Website" shows its pending state at once, the other way to pay inert',
  { tag: '@js-only' },
  async ({ customerWithProfile: { page } }) => {
    await cartOfTwoOnPayPage(page)
    await throttle(page)
    const button = page.getByRole('button', { name: 'Pay on Website' })
    expectPromptPending(await pressAndTimePending(page, button, ['Pay Manually']), 'Pay on Website')
  },
)

test(
  '/pay: "Pay Manually" and the claim in its dialog show their pending state at once',
  { tag: '@js-only' },
  async ({ customerWithProfile: { page } }) => {
    await cartOfTwoOnPayPage(page)
    await throttle(page)
    const link = page.getByRole('link', { name: 'Pay Manually' })
    expectPromptPending(await pressAndTimePending(page, link), 'Pay Manually')
    const dialog = page.getByRole('dialog', { name: 'Manual Payment Instructions' })
    const claim = dialog.getByRole('button', { name: "I'll Pay & Send Screenshot" })
    await expect(claim).toBeVisible({ timeout: 20_000 })
    expectPromptPending(await pressAndTimePending(page, claim), "I'll Pay & Send Screenshot")
    await expect(page).toHaveURL(/\/subscriptions/, { timeout: 20_000 })
  },
)

test(
  "/details: each step's button shows its pending state at once",
  { tag: '@js-only' },
  async ({ customer: { page } }) => {
    await page.goto('/details')
    // Step 1 hydrates once its form's chunk has come, after the page's load (app/components/lazy-profile-details-form.tsx).
    await hydrated(page)
    await fillProfileDetails(page, ASHA_RAO)
    await throttle(page)
    expectPromptPending(
      await pressAndTimePending(page, page.getByRole('button', { name: 'Save and continue' })),
      'Save and continue',
    )
    await expect(page.getByRole('heading', { name: 'Step 2 of 3: PAN card' })).toBeVisible({ timeout: 20_000 })

    await page
      .getByLabel('Upload Pan Card under 10MB')
      .setInputFiles({ name: 'pan.png', mimeType: 'image/png', buffer: PNG_1X1 })
    expectPromptPending(
      await pressAndTimePending(page, page.getByRole('button', { name: 'Upload and continue' })),
      'Upload and continue',
    )
    await expect(page.getByRole('heading', { name: 'Step 3 of 3: Terms and Agreement' })).toBeVisible({
      timeout: 20_000,
    })

    await tickAcknowledgements(page)
    expectPromptPending(
      await pressAndTimePending(page, page.getByRole('button', { name: 'Accept Terms and Continue' })),
      'Accept Terms and Continue',
    )
    await expect(page.getByRole('heading', { name: 'Enter Details' })).toBeHidden({ timeout: 20_000 })
  },
)

test(
  '/details: a PAN card upload shows its progress, then the next step',
  { tag: '@js-only' },
  async ({ customer: { page } }) => {
    await gotoHydrated(page, '/details')
    await completeDetailsStep(page)
    await throttle(page)
    // About 6 s at 400 kbit/s: a phone photo's worth, for the bar to be seen moving.
    const photo = Buffer.concat([PNG_1X1, Buffer.alloc(300 * 1024)])
    await page
      .getByLabel('Upload Pan Card under 10MB')
      .setInputFiles({ name: 'pan.png', mimeType: 'image/png', buffer: photo })
    await page.getByRole('button', { name: 'Upload and continue' }).click()

    const progress = page.getByRole('progressbar', { name: 'Uploading your PAN card' })
    await expect(progress).toBeVisible()
    const percent = () => progress.evaluate((bar) => (bar as HTMLProgressElement).value)
    await expect.poll(percent).toBeGreaterThan(0)
    const seen = await percent()
    await expect.poll(percent).toBeGreaterThan(seen)
    await expect(page.getByText(/^\d{1,3}%$/)).toBeVisible()
    await expect(page.getByRole('button', { name: 'Upload and continue' })).toHaveAttribute('aria-busy', 'true')

    await expect(page.getByRole('heading', { name: 'Step 3 of 3: Terms and Agreement' })).toBeVisible({
      timeout: 30_000,
    })
    await expect(progress).toHaveCount(0)
  },
)
