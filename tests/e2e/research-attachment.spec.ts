import { readFile } from 'node:fs/promises'
import type { Browser, Page } from '@playwright/test'
import { MS_PER_DAY } from '../../app/domain/dates'
import { DISCLOSURE_QUESTIONS } from '../../app/domain/research'
import { RESEARCH_ATTACHMENT_MESSAGES } from '../../app/domain/research-attachment'
import { MINIMAL_PDF, pdfOfSize, RENAMED_EXE } from '../support/pdf'
import { expectNoSeriousA11yViolations } from './axe'
import { withE2eDatabase } from './database'
import { expect, signInContext, test } from './fixtures'
import { gotoHydrated } from './hydration'
import { useOwnClientAddress } from './sign-in-helpers'

// A report's PDF attachment (docs/research.md, docs/uploads.md): refused when too large or not a
// PDF, with everything typed kept; kept with the draft, published, downloaded by a subscriber;
// 404 to a customer the item did not reach.

const SERVICE = 'Equity Premium'

async function customerPage(browser: Browser, subscribed: boolean): Promise<Page> {
  const { baseURL, javaScriptEnabled } = test.info().project.use
  const context = await browser.newContext({ baseURL, javaScriptEnabled, acceptDownloads: true })
  const page = await context.newPage()
  await useOwnClientAddress(page)
  const { userId } = await signInContext(context, { completeProfile: true })
  if (subscribed)
    await withE2eDatabase((client) =>
      client.query(
        `INSERT INTO subscriptions (user_id, service_id, starts_at, ends_at, grant_reason, granted_by)
         SELECT $1, id, now() - interval '1 day', $2, 'e2e: research attachment', $1 FROM services WHERE name = $3`,
        [userId, new Date(Date.now() + 30 * MS_PER_DAY), SERVICE],
      ),
    )
  return page
}

const pdfFile = (name: string, bytes: Uint8Array) => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(bytes) })

/** An answer after an upload (up to 10 MB sent, stored, a page loaded): generous on a loaded machine. */
const AFTER_UPLOAD = { timeout: 60_000 }

test('the analyst attaches a PDF and publishes; a subscriber downloads it, another customer gets 404', async ({
  browser,
  admin: { page: admin },
}) => {
  // Two refusals (one a 10.1 MB upload), a publication and a download, three people: minutes on a
  // loaded 2-core machine.
  test.setTimeout(360_000)
  const reader = await customerPage(browser, true)
  const outsider = await customerPage(browser, false)
  const title = `Banks with tables ${Date.now()}`

  await gotoHydrated(admin, '/admin/research/new')
  await admin.getByLabel('Title').fill(title)
  await admin.getByLabel('Body').fill('## Summary\nThe tables are in the attached PDF.')
  await admin.getByRole('checkbox', { name: SERVICE, exact: true }).check()
  for (const { question } of DISCLOSURE_QUESTIONS)
    await admin.getByRole('group', { name: question }).getByRole('radio', { name: 'No' }).check()
  await admin.getByLabel('Any other material conflict of interest').fill('None')
  const attachment = admin.getByLabel('PDF attachment (optional)')

  // 10.1 MB: refused on the field, and nothing typed is lost.
  await attachment.setInputFiles(pdfFile('big.pdf', pdfOfSize(Math.round(10.1 * 1024 * 1024))))
  await admin.getByRole('button', { name: 'Save draft' }).click()
  await expect(admin.getByText(RESEARCH_ATTACHMENT_MESSAGES.tooLarge)).toBeVisible(AFTER_UPLOAD)
  await expect(admin.getByLabel('Title')).toHaveValue(title)
  await expect(admin.getByLabel('Body')).toHaveValue('## Summary\nThe tables are in the attached PDF.')
  await expect(admin.getByRole('checkbox', { name: SERVICE, exact: true })).toBeChecked()
  await expect(admin.getByLabel('Any other material conflict of interest')).toHaveValue('None')
  await expectNoSeriousA11yViolations(admin)

  // A program renamed to .pdf: refused by its content.
  await admin.getByLabel('PDF attachment (optional)').setInputFiles(pdfFile('report.pdf', RENAMED_EXE))
  await admin.getByRole('button', { name: 'Save draft' }).click()
  await expect(admin.getByText(RESEARCH_ATTACHMENT_MESSAGES.wrongType)).toBeVisible(AFTER_UPLOAD)
  await expect(admin.getByLabel('Title')).toHaveValue(title)

  await admin.getByLabel('PDF attachment (optional)').setInputFiles(pdfFile('Banks tables.pdf', MINIMAL_PDF))
  await admin.getByRole('button', { name: 'Save draft' }).click()
  await expect(admin.getByRole('heading', { name: 'Draft: preview' })).toBeVisible(AFTER_UPLOAD)
  const preview = admin.getByRole('region', { name: 'Attachment' })
  await expect(preview.getByRole('link', { name: 'Download Banks tables.pdf' })).toBeVisible()
  const itemPath = new URL(admin.url()).pathname.replace('/admin', '')
  await admin.getByRole('button', { name: 'Publish now' }).click()
  await expect(admin.getByText('Signature: verifies.', { exact: false })).toBeVisible(AFTER_UPLOAD)

  await reader.goto(itemPath)
  await expect(reader.getByRole('heading', { level: 1 })).toHaveText(title)
  const region = reader.getByRole('region', { name: 'Attachment' })
  await expect(region).toContainText('(PDF, 1 KB)')
  await expectNoSeriousA11yViolations(reader)
  const [download] = await Promise.all([
    reader.waitForEvent('download'),
    region.getByRole('link', { name: 'Download Banks tables.pdf' }).click(),
  ])
  expect(download.suggestedFilename()).toBe('Banks tables.pdf')
  expect(new Uint8Array(await readFile(await download.path()))).toEqual(MINIMAL_PDF)
  const served = await reader.request.get(`${itemPath}/attachment`)
  // The server sets nosniff on every answer too (server/http.ts): one value or the same twice.
  expect(served.headers()['x-content-type-options']).toMatch(/^nosniff(, nosniff)?$/)
  expect(served.headers()['content-disposition']).toMatch(/^attachment;/)

  expect((await outsider.request.get(`${itemPath}/attachment`)).status()).toBe(404)
  expect((await outsider.goto(itemPath))?.status()).toBe(404)

  await reader.context().close()
  await outsider.context().close()
})
