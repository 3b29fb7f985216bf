import { execFile } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import type { Page } from '@playwright/test'
import { DISCLOSURE_QUESTIONS } from '../../app/domain/research'
import { zipEntries, zipStream } from '../../app/server/research/audit-pack-zip.server'
import { expectNoSeriousA11yViolations } from './axe'
import { expect, signInContext, test } from './fixtures'
import { gotoHydrated } from './hydration'
import { useOwnClientAddress } from './sign-in-helpers'

// The audit pack (docs/research.md, "Audit pack"): the analyst downloads a published item's pack and
// a date range's; research:verify passes them, and names the record in a pack whose title was changed.

const SERVICE = 'Equity Premium'

/** `npm run research:verify -- file`: its exit code and what it printed. */
async function researchVerify(file: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      'scripts/research-verify.ts',
      file,
    ])
    return { code: 0, output: stdout }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, output: failed.stdout + failed.stderr }
  }
}

/** The pack at `file` with `from` replaced by `to` in records.jsonl, written beside it. */
async function tamperedCopy(file: string, from: string, to: string): Promise<string> {
  const files: { name: string; bytes: Buffer }[] = []
  for await (const entry of zipEntries(file)) {
    const chunks: Buffer[] = []
    for await (const chunk of await entry.open()) chunks.push(chunk as Buffer)
    files.push({ name: entry.name, bytes: Buffer.concat(chunks) })
  }
  const entries = files.map(({ name, bytes }) => ({
    name,
    content: async function* () {
      yield name === 'records.jsonl' ? bytes.toString('utf8').replace(from, to) : bytes
    },
  }))
  const chunks: Buffer[] = []
  for await (const chunk of zipStream(entries, new Date())) chunks.push(chunk)
  const copy = `${file}.tampered.zip`
  await writeFile(copy, Buffer.concat(chunks))
  return copy
}

/** Writes and publishes a report for SERVICE through the console; its item path. */
async function publishReport(admin: Page, title: string): Promise<string> {
  await gotoHydrated(admin, '/admin/research/new')
  await admin.getByLabel('Title').fill(title)
  await admin.getByLabel('Body').fill('Margins held through the quarter.')
  await admin.getByRole('checkbox', { name: SERVICE, exact: true }).check()
  for (const { question } of DISCLOSURE_QUESTIONS)
    await admin.getByRole('group', { name: question }).getByRole('radio', { name: 'No' }).check()
  await admin.getByLabel('Any other material conflict of interest').fill('None')
  await admin.getByRole('button', { name: 'Save draft' }).click()
  await admin.getByRole('button', { name: 'Publish now' }).click()
  await expect(admin.getByText(/^Published and delivered to \d+ customers?\.$/)).toBeVisible()
  return new URL(admin.url()).pathname
}

test('the analyst downloads an item’s audit pack and a date range’s; both verify, a tampered one names the record', async ({
  admin: { page: admin },
}, testInfo) => {
  // A report written and published, two downloads, three runs of research:verify: more than 60 s on a busy machine.
  test.slow()
  const title = `Audit pack ${Date.now()} =SUM(A1) <script>window.hostile=1</script>`
  const itemPath = await publishReport(admin, title)
  const itemId = itemPath.split('/').at(-1)!

  const [itemDownload] = await Promise.all([
    admin.waitForEvent('download'),
    admin.getByRole('link', { name: 'Download the audit pack' }).click(),
  ])
  expect(itemDownload.suggestedFilename()).toBe(`research-audit-pack-${itemId}.zip`)
  const itemPack = testInfo.outputPath('item-pack.zip')
  await itemDownload.saveAs(itemPack)
  const verified = await researchVerify(itemPack)
  expect(verified.output).toContain('Records: 1, altered: 0')
  expect(verified.code).toBe(0)

  const tampered = await tamperedCopy(itemPack, '"title":"Audit pack', '"title":"Audit Pack')
  const caught = await researchVerify(tampered)
  expect(caught.code).toBe(1)
  expect(caught.output).toContain(`ALTERED record ${itemId}`)

  await gotoHydrated(admin, '/admin/export')
  await expectNoSeriousA11yViolations(admin)
  const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10)
  await admin.getByLabel('First publication date').fill('2000-01-01')
  await admin.getByLabel('Last publication date').fill(today)
  const [rangeDownload] = await Promise.all([
    admin.waitForEvent('download'),
    admin.getByRole('button', { name: 'Download the audit pack' }).click(),
  ])
  expect(rangeDownload.suggestedFilename()).toBe(`research-audit-pack-2000-01-01-to-${today}.zip`)
  const rangePack = testInfo.outputPath('range-pack.zip')
  await rangeDownload.saveAs(rangePack)
  const rangeVerified = await researchVerify(rangePack)
  expect(rangeVerified.output).toMatch(/Records: \d+, altered: \d+/)
  // The only records allowed to fail are the unsigned stand-ins research-helpers.ts writes straight
  // into the shared database (fingerprint "fp"); this test's own item verifies.
  const altered = rangeVerified.output.split('\n').filter((line) => line.startsWith('ALTERED'))
  expect(altered.filter((line) => !line.endsWith('(fingerprint fp)'))).toEqual([])
  expect(rangeVerified.code).toBe(altered.length ? 1 : 0)
  expect((await readFile(rangePack)).subarray(0, 2).toString()).toBe('PK')
})

test('a customer asking for an audit pack gets 404', async ({ browser }) => {
  const { baseURL, javaScriptEnabled } = test.info().project.use
  const context = await browser.newContext({ baseURL, javaScriptEnabled })
  const page = await context.newPage()
  await useOwnClientAddress(page)
  await signInContext(context, { completeProfile: true })
  for (const url of [
    '/admin/research/00000000-0000-4000-8000-000000000000/audit-pack',
    '/admin/research/audit-pack?from=2000-01-01&to=2099-12-31',
  ]) {
    // A file's address, fetched with the customer's cookies: the answer is what the browser would get.
    const response = await context.request.get(url, { maxRedirects: 0 })
    expect(response.status()).toBe(404)
    expect(response.headers()['content-type']).not.toBe('application/zip')
  }
  await context.close()
})
