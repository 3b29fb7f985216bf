import { readFile } from 'node:fs/promises'
import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'
import { useOwnClientAddress } from './sign-in-helpers'

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

test('an admin downloads a CSV of payments for a date range, after a refused reversed range', async ({
  admin: { page },
}) => {
  await page.goto('/admin/export')
  await expectNoSeriousA11yViolations(page)

  await page.getByLabel('From').fill('2026-03-01')
  await page.getByLabel('To').fill('2026-02-01')
  await page.getByRole('button', { name: 'Download CSV' }).click()
  await expect(page.getByText('The end date must not be before the start date.')).toBeVisible()
  await expect(page.getByLabel('From')).toHaveValue('2026-03-01')

  await page.getByLabel('From').fill('2026-01-01')
  await page.getByLabel('To').fill('2026-02-01')
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ])
  expect(download.suggestedFilename()).toBe('payments-2026-01-01-to-2026-02-01.csv')
  const csv = await readFile(await download.path(), 'utf8')
  expect(csv.replace(/^\uFEFF/, '').split('\r\n')[0]).toMatch(/^Payment id,Created \(IST\),/)
})
