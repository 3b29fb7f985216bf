import type { Browser, Page } from '@playwright/test'
import { MS_PER_DAY } from '../../app/domain/dates'
import { DISCLOSURE_QUESTIONS } from '../../app/domain/research'
import { expectNoSeriousA11yViolations } from './axe'
import { withE2eDatabase } from './database'
import { expect, signInContext, test } from './fixtures'
import { gotoHydrated } from './hydration'
import { useOwnClientAddress } from './sign-in-helpers'

// Research reports (docs/research.md): the analyst writes one and publishes it; a customer with a
// running subscription to its service reads it on /research; any other customer gets 404.

const SERVICE = 'Equity Premium'

/** A customer with a complete profile in a browser context of their own, optionally subscribed to SERVICE. */
async function customerPage(browser: Browser, subscribed: boolean): Promise<Page> {
  const { baseURL, javaScriptEnabled } = test.info().project.use
  const context = await browser.newContext({ baseURL, javaScriptEnabled })
  const page = await context.newPage()
  await useOwnClientAddress(page)
  const { userId } = await signInContext(context, { completeProfile: true })
  if (subscribed)
    await withE2eDatabase((client) =>
      client.query(
        `INSERT INTO subscriptions (user_id, service_id, starts_at, ends_at, grant_reason, granted_by)
         SELECT $1, id, now() - interval '1 day', $2, 'e2e: research reader', $1 FROM services WHERE name = $3`,
        [userId, new Date(Date.now() + 30 * MS_PER_DAY), SERVICE],
      ),
    )
  return page
}

test('the analyst writes and publishes a report; a subscriber reads it, another customer gets 404', async ({
  browser,
  admin: { page: admin },
}) => {
  // Three people, five pages and four axe audits in one journey: more than the usual 60 s on a busy machine.
  test.slow()
  const reader = await customerPage(browser, true)
  const outsider = await customerPage(browser, false)
  const title = `Banks: steady margins ${Date.now()} <script>window.hostile=1</script>`

  await gotoHydrated(admin, '/admin/research')
  await admin.getByRole('link', { name: 'Write a report' }).click()
  await expect(admin.getByRole('heading', { name: 'New research report' })).toBeVisible()
  await expectNoSeriousA11yViolations(admin)
  // Nothing answered: the form comes back with each question's message.
  await admin.getByRole('button', { name: 'Save draft' }).click()
  await expect(admin.getByText('Choose at least one service.')).toBeVisible()
  await expect(admin.getByText('Answer whether AI tools were used.')).toBeVisible()

  await admin.getByLabel('Title').fill(title)
  await admin
    .getByLabel('Body')
    .fill('## Summary\nMargins held through the quarter.\n\n- Deposits grew\n- See [our charter](/investor-charter)')
  await admin.getByRole('checkbox', { name: SERVICE, exact: true }).check()
  for (const { name, question } of DISCLOSURE_QUESTIONS)
    await admin
      .getByRole('group', { name: question })
      .getByRole('radio', { name: name === 'aiToolsUsed' ? 'Yes' : 'No' })
      .check()
  await admin.getByLabel('Any other material conflict of interest').fill('None')
  await admin.getByRole('button', { name: 'Save draft' }).click()

  await expect(admin.getByRole('heading', { name: 'Draft: preview' })).toBeVisible()
  await expect(admin.getByRole('heading', { level: 1 })).toHaveText(title)
  await expect(admin.getByRole('heading', { name: 'Summary' })).toBeVisible()
  await expectNoSeriousA11yViolations(admin)
  const itemPath = new URL(admin.url()).pathname.replace('/admin', '')
  await admin.getByRole('button', { name: 'Publish now' }).click()
  await expect(admin.getByText(/^Published and delivered to \d+ customers?\.$/)).toBeVisible()
  await expect(admin.getByText('Signature: verifies.', { exact: false })).toBeVisible()
  await expect(admin.getByRole('button', { name: 'Publish now' })).toHaveCount(0)

  await gotoHydrated(reader, '/services')
  await reader.getByRole('button', { name: 'Account' }).click()
  await reader.getByRole('link', { name: 'Research', exact: true }).click()
  await expect(reader).toHaveURL(/\/research$/)
  await expectNoSeriousA11yViolations(reader)
  await reader.getByRole('link', { name: title }).click()
  await expect(reader).toHaveURL(new RegExp(`${itemPath}$`))
  await expect(reader.getByRole('heading', { level: 1 })).toHaveText(title)
  await expect(reader.getByRole('link', { name: 'our charter' })).toHaveAttribute('href', '/investor-charter')
  const disclosures = reader.getByRole('region', { name: 'Disclosures' })
  await expect(disclosures).toContainText('Artificial intelligence tools used in preparing this reportYes')
  await expect(disclosures).toContainText(', Research Analyst. SEBI registration number INH')
  await expect(disclosures).toContainText('Investment in securities market are subject to market risks.')
  await expect(reader.getByRole('region', { name: 'Signature' })).toContainText(
    /fingerprint is [0-9a-f]{4}( [0-9a-f]{4}){7}/,
  )
  expect(await reader.evaluate(() => (window as { hostile?: number }).hostile)).toBeUndefined()
  await expectNoSeriousA11yViolations(reader)

  const refused = await outsider.goto(itemPath)
  expect(refused?.status()).toBe(404)
  await outsider.goto('/research')
  await expect(outsider.getByText('No research has been delivered to you yet.')).toBeVisible()

  await reader.context().close()
  await outsider.context().close()
})

test('/disclosure shows the public key that signs research', async ({ page }) => {
  await page.goto('/disclosure')
  const section = page.getByRole('heading', { name: 'How our research is signed' })
  await expect(section).toBeVisible()
  await expect(page.getByText(/^Public key \(SubjectPublicKeyInfo, DER in base64\): MCowBQYDK2VwAyEA/)).toBeVisible()
})
