import type { Browser, Page } from '@playwright/test'
import { MS_PER_DAY } from '../../app/domain/dates'
import { DISCLOSURE_QUESTIONS } from '../../app/domain/research'
import { expectNoSeriousA11yViolations } from './axe'
import { withE2eDatabase } from './database'
import { expect, signInContext, test } from './fixtures'
import { gotoHydrated } from './hydration'
import { useOwnClientAddress } from './sign-in-helpers'

// Calls and their follow-ups (docs/research.md): the analyst writes a call, the form refuses one
// without a rationale or with its stop-loss on the wrong side; published, a subscriber reads it;
// a follow-up reaches the same subscriber and the call's page links to it.

const SERVICE = 'Equity Premium'

// Journeys of several pages, each with axe audits: more than the usual 60 s on a busy machine,
// fixtures included.
test.slow(true, 'journeys of several pages')

/** A customer with a complete profile and a running subscription to SERVICE, in a browser context of their own. */
async function subscriberPage(browser: Browser): Promise<Page> {
  const { baseURL, javaScriptEnabled } = test.info().project.use
  const context = await browser.newContext({ baseURL, javaScriptEnabled })
  const page = await context.newPage()
  await useOwnClientAddress(page)
  const { userId } = await signInContext(context, { completeProfile: true })
  await withE2eDatabase((client) =>
    client.query(
      `INSERT INTO subscriptions (user_id, service_id, starts_at, ends_at, grant_reason, granted_by)
       SELECT $1, id, now() - interval '1 day', $2, 'e2e: call reader', $1 FROM services WHERE name = $3`,
      [userId, new Date(Date.now() + 30 * MS_PER_DAY), SERVICE],
    ),
  )
  return page
}

async function answerDisclosures(page: Page) {
  for (const { question } of DISCLOSURE_QUESTIONS)
    await page.getByRole('group', { name: question }).getByRole('radio', { name: 'No' }).check()
  await page.getByLabel('Any other material conflict of interest').fill('None')
}

/** The call's form filled in as a valid buy of HDFCBANK at 1500, target 1600, stop-loss 1450. */
async function fillCall(admin: Page, title: string) {
  await admin.getByLabel('Title').fill(title)
  await admin.getByRole('group', { name: 'Exchange' }).getByRole('radio', { name: 'NSE' }).check()
  await admin.getByLabel('Symbol').fill('HDFCBANK')
  await admin.getByRole('group', { name: 'Action' }).getByRole('radio', { name: 'Buy' }).check()
  await admin.getByLabel('Entry price', { exact: true }).fill('1500')
  await admin.getByLabel('Target 1', { exact: true }).fill('1600')
  await admin.getByLabel('Stop-loss', { exact: true }).fill('1450')
  await admin.getByLabel('Horizon').fill('3 months')
  await admin.getByLabel('Rationale').fill('Deposits grow faster than peers.\n\n- Margins steady')
  await admin.getByRole('checkbox', { name: SERVICE, exact: true }).check()
  await answerDisclosures(admin)
}

test('the call form refuses a call without a rationale, then one with its stop-loss on the wrong side', async ({
  admin: { page: admin },
}) => {
  await gotoHydrated(admin, '/admin/research')
  await admin.getByRole('link', { name: 'Write a call' }).click()
  await expect(admin.getByRole('heading', { name: 'New research call' })).toBeVisible()
  await expectNoSeriousA11yViolations(admin)
  await fillCall(admin, `Refused call ${Date.now()}`)
  await admin.getByLabel('Rationale').fill('')
  await admin.getByLabel('Stop-loss', { exact: true }).fill('1550')
  await admin.getByRole('button', { name: 'Save draft' }).click()
  await expect(admin.getByText('Enter the rationale.')).toBeVisible()
  await expect(admin.getByLabel('Symbol')).toHaveValue('HDFCBANK')
  await expect(admin.getByLabel('Target 1', { exact: true })).toHaveValue('1600')
  await expectNoSeriousA11yViolations(admin)
  // A rationale, but the stop-loss above a buy's entry: refused on the stop-loss.
  await admin.getByLabel('Rationale').fill('Deposits grow faster than peers.')
  await admin.getByRole('button', { name: 'Save draft' }).click()
  await expect(admin.getByText('For a buy call the stop-loss must be below the entry (Rs. 1,500).')).toBeVisible()
  await expect(admin.getByLabel('Stop-loss', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  await expect(admin.getByRole('heading', { name: 'New research call' })).toBeVisible()
})

test('the analyst publishes a call, a subscriber reads it, and a follow-up reaches them with a notice on the call', async ({
  browser,
  admin: { page: admin },
}) => {
  const reader = await subscriberPage(browser)
  const title = `Buy HDFC Bank ${Date.now()} <script>window.hostile=1</script>`

  await gotoHydrated(admin, '/admin/research/new?kind=call')
  await fillCall(admin, title)
  await admin.getByRole('button', { name: 'Save draft' }).click()
  await expect(admin.getByRole('heading', { name: 'Draft: preview' })).toBeVisible()
  await expect(admin.getByRole('region', { name: 'The call' })).toContainText('Stop-lossRs. 1,450')
  const callPath = new URL(admin.url()).pathname
  await admin.getByRole('button', { name: 'Publish now' }).click()
  await expect(admin.getByText(/^Published and delivered to \d+ customers?\.$/)).toBeVisible()

  await gotoHydrated(reader, callPath.replace('/admin', ''))
  await expect(reader.getByRole('heading', { level: 1 })).toHaveText(title)
  const call = reader.getByRole('region', { name: 'The call' })
  await expect(call).toContainText('InstrumentNSE: HDFCBANK')
  await expect(call).toContainText('ActionBuy')
  await expect(call).toContainText('TargetRs. 1,600')
  await expect(reader.getByRole('heading', { name: 'Rationale' })).toBeVisible()
  expect(await reader.evaluate(() => (window as { hostile?: number }).hostile)).toBeUndefined()

  // The follow-up: the stop-loss trailed up, signed and sent to the call's roll.
  await admin.getByRole('link', { name: 'write a follow-up' }).click()
  await expect(admin.getByRole('heading', { level: 1 })).toHaveText(`Follow-up of ${title}`)
  await expectNoSeriousA11yViolations(admin)
  await admin.getByRole('group', { name: 'What is it?' }).getByRole('radio', { name: 'Stop-loss revised' }).check()
  await admin.getByLabel('Note').fill('Results were strong: trail the stop-loss.')
  await admin.getByLabel('New stop-loss (only for Stop-loss revised)').fill('1480')
  await admin.getByRole('button', { name: 'Save draft' }).click()
  await expect(admin.getByRole('heading', { level: 1 })).toHaveText(`Stop-loss revised: ${title}`)
  await admin.getByRole('button', { name: 'Publish now' }).click()
  await expect(admin.getByText(/^Published and delivered to \d+ customers?\.$/)).toBeVisible()
  const followUpPath = new URL(admin.url()).pathname.replace('/admin', '')

  await gotoHydrated(reader, callPath.replace('/admin', ''))
  const notice = reader.getByRole('region', { name: 'This call has a follow-up' })
  await expect(notice).toBeVisible()
  await expectNoSeriousA11yViolations(reader)
  await notice.getByRole('link', { name: `Stop-loss revised: ${title}` }).click()
  await expect(reader).toHaveURL(new RegExp(`${followUpPath}$`))
  await expect(reader.getByRole('region', { name: 'What changed' })).toContainText('New stop-lossRs. 1,480')
  await expect(reader.getByRole('link', { name: title })).toHaveAttribute('href', callPath.replace('/admin', ''))

  await reader.context().close()
})
