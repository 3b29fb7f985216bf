import { expectNoSeriousA11yViolations } from './axe'
import { withE2eDatabase } from './database'
import { expect, signInContext, test } from './fixtures'

// A new version of the terms (docs/regulatory.md). The server records its own text at start, effective
// 15 days on; this spec adds the version before it, in force for 20 days already (through the
// e2e database, as an operator's earlier publication would have). A customer who accepted that one
// sees the banner; a customer who accepted neither is sent to accept before paying. Customers of the
// other specs accepted the server's text, which covers both: nothing changes for them.
const IN_FORCE_VERSION = 'agreement-e2e0ld0ld0ld'
const OLDER_VERSION = 'agreement-e2e5ta1e5ta1'
const DAY_MS = 86_400_000

// Two axe audits of long pages (the change summary shows the whole text) on a loaded machine.
test.describe.configure({ timeout: 120_000 })

test.beforeEach(async () => {
  await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ text: string }>(
      'SELECT text FROM terms_versions ORDER BY published_at DESC LIMIT 1',
    )
    // The server's text with its first paragraph worded differently: the change summary's one change.
    const text = rows[0]!.text.replace(/\n[^\n]+\n/, '\nThe earlier wording of this paragraph.\n')
    await client.query(
      `INSERT INTO terms_versions (version, text_sha256, text, published_at, effective_from)
       VALUES ($1, 'e2e', $2, $3, $4) ON CONFLICT (version) DO NOTHING`,
      [IN_FORCE_VERSION, text, new Date(Date.now() - 40 * DAY_MS), new Date(Date.now() - 20 * DAY_MS)],
    )
  })
})

test('after publication a customer on the version in force sees the banner and the change summary', async ({
  page,
}) => {
  await signInContext(page.context(), { completeProfile: true, acceptedTermsVersion: IN_FORCE_VERSION })
  await page.goto('/services')
  const banner = page.getByRole('complementary', { name: 'New Terms and Conditions' })
  await expect(banner).toContainText(
    /Our Terms and Conditions are changing: version agreement-[0-9a-f]{12} takes effect on/,
  )
  // Not sent anywhere: paying is open until the date.
  await page.goto('/subscriptions')
  await expect(page).toHaveURL(/\/subscriptions$/)
  await banner.getByRole('link', { name: 'See what changed' }).click()
  await expect(page).toHaveURL(/\/terms-and-conditions\/changes$/)
  await expect(page.getByRole('heading', { level: 1, name: 'What changed in the Terms and Conditions' })).toBeVisible()
  await expect(page.getByText(`Compared with version ${IN_FORCE_VERSION}`)).toBeVisible()
  await expect(page.locator('del', { hasText: 'The earlier wording of this paragraph.' })).toBeVisible()
  await expect(page.locator('ins').first()).toBeVisible()
  await expectNoSeriousA11yViolations(page)
})

test('after the effective date a customer who has not accepted is sent to accept before paying', async ({ page }) => {
  await signInContext(page.context(), { completeProfile: true, acceptedTermsVersion: OLDER_VERSION })
  await page.goto('/pay')
  await expect(page).toHaveURL(/\/terms\/accept\?redirectTo=%2Fpay$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Accept the new Terms and Conditions' })).toBeVisible()
  await expect(
    page.getByText(`Version ${IN_FORCE_VERSION} of our Terms and Conditions is in force since`),
  ).toBeVisible()
  // Ending subscriptions instead is offered.
  await expect(page.getByRole('heading', { name: 'Or end your subscriptions instead' })).toBeVisible()
  await expectNoSeriousA11yViolations(page)

  await page.getByRole('checkbox', { name: /I have read and accept the Terms and Conditions/ }).check()
  await page.getByRole('button', { name: 'Accept and continue' }).click()
  // Back to /pay, which with an empty cart goes on to the services.
  await expect(page).toHaveURL(/\/services$/)
  await page.goto('/pay')
  await expect(page).toHaveURL(/\/services$/)
  await expect(page.getByRole('complementary', { name: 'New Terms and Conditions' })).toHaveCount(0)
})
