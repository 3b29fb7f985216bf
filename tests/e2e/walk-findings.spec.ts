import { randomInt } from 'node:crypto'
import { E2E_BUSINESS_DETAILS } from '../fixtures/business-details'
import { SIGN_IN_TO_PAY_REASON } from '../../app/domain/sign-in'
import { paymentConfirmedEmail } from '../../app/server/messaging/emails/customer-emails.server'
import { expectNoSeriousA11yViolations } from './axe'
import { PREMIUM, SWING, cartOfTwoOnPayPage, payOnWebsiteInSandbox } from './cart-helpers'
import { tickService } from './cart'
import { withE2eDatabase } from './database'
import { expect, signInContext, test } from './fixtures'
import { emailsTo, latestCode, useOwnClientAddress } from './sign-in-helpers'

// The smaller findings of the 360 px walk (issue 32, item 7), each on a phone, with JavaScript on
// and off where the journey exists without it.

const PHONE = { width: 360, height: 740 }
test.use({ viewport: PHONE })
// Each journey is short, but the machine running the suite is loaded: axe audits and fixtures take their time.
test.describe.configure({ timeout: 120_000 })
test.beforeEach(async ({ page }) => useOwnClientAddress(page))

test('a visitor sent to sign in by "Proceed to Pay" is told why, and that the cart is kept', async ({ page }) => {
  await tickService(page, PREMIUM)
  await page.getByRole('link', { name: 'Proceed to Pay' }).click()
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fpay$/)
  await expect(page.getByText(SIGN_IN_TO_PAY_REASON)).toBeInViewport()
  await expectNoSeriousA11yViolations(page)
  // Reached from the header, the page has no reason to give.
  await page.goto('/auth')
  await expect(page.getByText(SIGN_IN_TO_PAY_REASON)).toHaveCount(0)
})

test('adding a family member on the details step comes back to the family rows, not the top of the page', async ({
  customer: { page },
  javaScriptEnabled,
}) => {
  await page.goto('/details')
  await page.getByRole('button', { name: 'Add a family member' }).click()
  // Without JavaScript the page came back from the server: at the rows (the form's anchor), not at its top.
  if (!javaScriptEnabled) await expect(page).toHaveURL(/\/details#family-members$/)
  await expect(page.getByLabel('Family member 2: PAN')).toBeInViewport()
})

test('asking for the code to close the account comes back to that section, not the top of the page', async ({
  customerWithProfile: { page },
  javaScriptEnabled,
}) => {
  await page.goto('/account')
  await page.getByRole('button', { name: 'Send a code to close my account' }).click()
  if (!javaScriptEnabled) await expect(page).toHaveURL(/\/account#close-account$/)
  await expect(page.getByLabel('Code from the SMS')).toBeInViewport()
})

test('an open dialog locks the page behind it from scrolling, without JavaScript too', async ({
  customerWithProfile: { page },
}) => {
  await tickService(page, PREMIUM)
  await page.goto('/pay?dialog=manual')
  await expect(page.getByRole('dialog')).toBeVisible()
  const scrollTop = () => page.evaluate(() => document.scrollingElement!.scrollTop)
  const locked = () =>
    page.evaluate(() =>
      [document.documentElement, document.body].some((element) => getComputedStyle(element).overflowY === 'hidden'),
    )
  await expect.poll(locked).toBe(true)
  // A wheel over the backdrop (above the dialog's panel) does not move the page.
  await page.mouse.move(PHONE.width / 2, 8)
  await page.mouse.wheel(0, 600)
  expect(await scrollTop()).toBe(0)
})

test('long legal pages open with a list of their contents on a phone', async ({ page }) => {
  const long: string[] = []
  for (const path of [
    '/privacy-policy',
    '/refund-policy',
    '/disclaimer',
    '/investor-charter',
    '/disclosure',
    '/mitc',
  ]) {
    await page.goto(path)
    const height = await page.evaluate(() => document.documentElement.scrollHeight)
    if (height < 4 * PHONE.height) continue
    long.push(path)
    const contents = page.getByRole('main').getByRole('navigation', { name: 'Contents' })
    await expect(contents, `${path} (${height} px tall)`).toBeVisible()
    const last = contents.getByRole('link').last()
    const heading = (await last.textContent())!.trim()
    await last.click()
    await expect(page.getByRole('main').getByRole('heading', { name: heading, exact: true })).toBeInViewport()
  }
  expect(long, 'the legal pages many screens long on a phone').toContain('/privacy-policy')
})

test('after paying, the banner links the invoice; the invoice names the customer as typed; a credit note lists only what was refunded', async ({
  customerWithProfile: { page },
  javaScriptEnabled,
}) => {
  // A purchase through the sandbox, an ending and three documents on a loaded machine.
  test.slow()
  await cartOfTwoOnPayPage(page)
  await payOnWebsiteInSandbox(page, javaScriptEnabled)
  await expect(page).toHaveURL(/\/subscriptions\?from=payment$/)
  const banner = page.getByRole('status').filter({ hasText: /^Payment of Rs\. 4,498 received\./ })
  await banner.getByRole('link', { name: /^Tax invoice INV\/\d{4}\/\d{6}$/ }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Tax invoice' })).toBeVisible()
  // The profile's name as typed in the wizard ("Asha Rao"), not lower-cased.
  const billedTo = page.getByRole('region', { name: 'Billed to' })
  await expect(billedTo.getByText('Asha Rao', { exact: true })).toBeVisible()

  await page.goto('/subscriptions')
  await page.getByRole('link', { name: `End subscription to ${PREMIUM}` }).click()
  await page.getByRole('button', { name: 'End subscription now' }).click()
  await expect(page.getByText(`Your subscription to ${PREMIUM} has ended.`, { exact: false })).toBeVisible()
  await page.goto('/invoices')
  await page.getByRole('link', { name: /^Credit note CN\/\d{4}\/\d{6}$/ }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Credit note' })).toBeVisible()
  await expect(
    page.getByRole('cell', { name: `Refund of fees for the unexpired period: ${PREMIUM}`, exact: true }),
  ).toBeVisible()
  await expect(page.getByText(SWING)).toHaveCount(0)
  await expectNoSeriousA11yViolations(page)
})

test('"Your data" shows the name as it was typed', async ({ customerWithProfile: { page } }) => {
  await page.goto('/account')
  await expect(page.getByRole('definition').filter({ hasText: /^Asha Rao$/ })).toBeVisible()
})

test('the e-mail change tells the old address', async ({ customerWithProfile: { page, userId }, request }) => {
  const [oldEmail, newEmail] = [`old-${randomInt(1e9)}@example.in`, `new-${randomInt(1e9)}@example.in`]
  await withE2eDatabase((client) => client.query('UPDATE users SET email = $2 WHERE id = $1', [userId, oldEmail]))
  await page.goto('/account/email')
  await page.getByLabel('New e-mail address').fill(newEmail)
  await page.getByRole('button', { name: 'Send the code' }).click()
  await page.getByLabel('Code from the e-mail').fill(await latestCode(request, newEmail))
  await page.getByRole('button', { name: 'Change my e-mail address' }).click()
  await expect(page.getByText(`Your e-mail address is now ${newEmail}.`)).toBeVisible()
  const [notice] = await emailsTo(request, oldEmail)
  expect(notice!.subject).toBe('Your e-mail address was changed')
  expect(notice!.body).toContain(`to n•••@example.in`)
  expect(notice!.body).not.toContain(newEmail)
})

// The terms: a version this customer accepted long ago, one in force since, and the server's own
// text announced (terms-versions.spec.ts records the one in force the same way).
const ACCEPTED_VERSION = 'agreement-e2eacc3pted00'
const IN_FORCE_VERSION = 'agreement-e2e0ld0ld0ld'
const DAY_MS = 86_400_000

test('"What changed" in the terms compares the new version with the one the customer accepted', async ({ page }) => {
  await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ text: string }>(
      'SELECT text FROM terms_versions ORDER BY published_at DESC LIMIT 1',
    )
    const record = (version: string, text: string, publishedDaysAgo: number, effectiveDaysAgo: number) =>
      client.query(
        `INSERT INTO terms_versions (version, text_sha256, text, published_at, effective_from)
         VALUES ($1, 'e2e', $2, $3, $4) ON CONFLICT (version) DO NOTHING`,
        [
          version,
          text,
          new Date(Date.now() - publishedDaysAgo * DAY_MS),
          new Date(Date.now() - effectiveDaysAgo * DAY_MS),
        ],
      )
    await record(
      IN_FORCE_VERSION,
      rows[0]!.text.replace(/\n[^\n]+\n/, '\nThe earlier wording of this paragraph.\n'),
      40,
      20,
    )
    await record(
      ACCEPTED_VERSION,
      rows[0]!.text.replace(/\n[^\n]+\n/, '\nThe wording this customer accepted.\n'),
      90,
      75,
    )
  })
  await signInContext(page.context(), { completeProfile: true, acceptedTermsVersion: ACCEPTED_VERSION })
  await page.goto('/terms-and-conditions/changes')
  await expect(page.getByText(`Compared with version ${ACCEPTED_VERSION} (the one you accepted`)).toBeVisible()
  await expect(page.locator('del', { hasText: 'The wording this customer accepted.' })).toBeVisible()
})

test("the store's e-mails carry its logo and colours, and fit a phone", async ({ page, baseURL }) => {
  const email = paymentConfirmedEmail(
    {
      name: 'Asha Rao',
      method: 'GATEWAY',
      amountPaise: 299_900,
      subscriptions: [{ serviceName: PREMIUM, endsOn: '01-01-2027' }],
    },
    { business: E2E_BUSINESS_DETAILS, origin: baseURL! },
  )
  await page.setContent(email.html, { waitUntil: 'load' })
  const logo = page.locator(`img[src="${baseURL}/email-logo.png"]`)
  await expect(logo).toBeVisible()
  expect(await logo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0)
  // The site's buttons' green (green-700), not another colour.
  await expect(page.getByRole('link', { name: 'See your subscriptions' })).toHaveCSS(
    'background-color',
    'rgb(21, 128, 61)',
  )
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
})
