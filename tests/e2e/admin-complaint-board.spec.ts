import type { Locator, Page } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './axe'
import {
  BOARD_TEST_COMPLAINT_PREFIX,
  changingTheComplaintBoard,
  demoReportedMonth,
  monthBeforeDemoReported,
} from './complaint-board-lock'
import { withE2eDatabase } from './database'
import { expect, test } from './fixtures'
import { useOwnClientAddress } from './sign-in-helpers'

/** The demo board's last hand-entered month (before the register): admins can still correct it. */
const MONTH = { key: '2024-11', label: 'November 2024' }

/** Each row of a table section as its cells' text. */
const rowsOf = (table: Locator, section: 'tbody' | 'tfoot') =>
  table
    .locator(`${section} tr`)
    .evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => (cell as HTMLElement).innerText.trim())))

const source = (page: Page, name: string) => page.getByRole('group', { name })

async function openMonth(page: Page) {
  await page.goto('/admin/payments')
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Complaint board' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Complaint board' })).toBeVisible()
  await page
    .getByRole('region', { name: 'Months on the board, newest first' })
    .getByRole('link', { name: `Edit figures for ${MONTH.label}` })
    .click()
  await expect(page.getByRole('heading', { level: 1, name: `Complaint figures for ${MONTH.label}` })).toBeVisible()
}

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

test("an admin enters a month's figures and the public Complaint Board shows them, with the Grand Total", async ({
  admin: { page },
}) => {
  await changingTheComplaintBoard(async () => {
    await openMonth(page)
    const investors = source(page, 'Directly from Investors')
    await expect(investors).toContainText('Pending at the end of last month: 0')
    await investors.getByLabel('Received', { exact: true }).fill('5')
    await investors.getByLabel('Resolved', { exact: true }).fill('3')
    await investors.getByLabel('Days taken to resolve them, in total', { exact: true }).fill('12')
    const scores = source(page, 'SEBI (SCORES)')
    await scores.getByLabel('Received', { exact: true }).fill('2')
    await scores.getByLabel('Resolved', { exact: true }).fill('2')
    await scores.getByLabel('Days taken to resolve them, in total', { exact: true }).fill('30')
    await page.getByLabel('Complaints received this month because someone impersonated us').fill('1')
    await page.getByRole('button', { name: 'Save figures' }).click()
    await expect(page.getByRole('status')).toHaveText('Figures saved. The Complaint Board shows them now.')
    await expect(source(page, 'Directly from Investors')).toContainText(
      'Total pending at the end of the month: 2. Average resolution time: 4 days.',
    )

    const monthTable = page
      .getByRole('region', { name: 'Data for the month ending 30 November 2024' })
      .getByRole('table')
    expect(await rowsOf(monthTable, 'tbody')).toEqual([
      ['1', 'Directly from Investors', '0', '5', '3', '2', '0', '4'],
      ['2', 'SEBI (SCORES)', '0', '2', '2', '0', '0', '15'],
      ['3', 'Other Sources (if any)', '0', '0', '0', '0', '0', '0'],
    ])
    expect(await rowsOf(monthTable, 'tfoot')).toEqual([['', 'Grand Total', '0', '7', '5', '2', '0', '8.4']])
    await expect(page.getByText(/due to impersonation by some other entity: 1$/)).toBeVisible()

    // The public board reports a later month from the register; November 2024 counts in its annual trend.
    await page.getByRole('status').getByRole('link', { name: 'Complaint Board' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Complaint Board' })).toBeVisible()
    const annual = page.getByRole('region', { name: 'Trend of annual disposal of complaints' }).getByRole('table')
    await expect(annual).toBeVisible()
    expect((await rowsOf(annual, 'tbody'))[0]).toEqual(['1', '2024-25', '0', '7', '5', '2'])
  })
})

test('the admin is asked to publish the last month, reviews its figures from the register, publishes them and the board changes', async ({
  admin: { page },
}) => {
  const month = demoReportedMonth()
  const before = monthBeforeDemoReported()
  await changingTheComplaintBoard(async () => {
    // As on the 1st: the month that ended is not published yet, and a SCORES complaint came in during it.
    await withE2eDatabase(async (client) => {
      await client.query(`DELETE FROM complaint_board_months WHERE to_char(month, 'YYYY-MM') = $1`, [month.key])
      await client.query(
        `INSERT INTO complaints (reference, source, source_reference, category, text, received_at, due_on)
         VALUES ($1, 'SEBI_SCORES', $2, 'OTHER', 'A complaint for the board test.', $3, $4)`,
        [
          `CMP-1999-${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}`,
          `${BOARD_TEST_COMPLAINT_PREFIX}${Date.now()}`,
          `${month.key}-15T06:00:00Z`,
          `${month.key}-28`,
        ],
      )
    })
    await page.goto('/complaint-board')
    await expect(page.getByRole('region', { name: `Data for the month ending ${before.lastDay}` })).toBeVisible()

    await page.goto('/admin/payments')
    const banner = page.getByRole('complementary', { name: 'Complaint board' })
    await expect(banner).toContainText(`The complaint figures for ${month.label} are not published yet`)
    await banner.getByRole('link', { name: `Review and publish ${month.label}` }).click()
    const section = page.getByRole('region', { name: `Publish ${month.label}` })
    const preview = section
      .getByRole('region', { name: `Data for the month ending ${month.lastDay}` })
      .getByRole('table')
    await expect(preview).toBeVisible()
    expect((await rowsOf(preview, 'tbody'))[1]).toEqual(['2', 'SEBI (SCORES)', '0', '1', '0', '1', '0', '0'])
    await expectNoSeriousA11yViolations(page)
    await section.getByRole('button', { name: `Publish ${month.label} from the register` }).click()
    await expect(page.getByRole('status')).toHaveText(
      `${month.label} is published from the register. The Complaint Board reports it now.`,
    )
    await expect(page.getByRole('complementary', { name: 'Complaint board' })).toHaveCount(0)
    await expect(
      page
        .getByRole('region', { name: 'Months on the board, newest first' })
        .getByRole('row', { name: new RegExp(`See figures for ${month.label} From the register`) }),
    ).toBeVisible()

    await page.getByRole('status').getByRole('link', { name: 'Complaint Board' }).click()
    const table = page.getByRole('region', { name: `Data for the month ending ${month.lastDay}` }).getByRole('table')
    await expect(table).toBeVisible()
    expect(await rowsOf(table, 'tbody')).toEqual([
      ['1', 'Directly from Investors', '0', '2', '1', '1', '0', '4'],
      ['2', 'SEBI (SCORES)', '0', '1', '0', '1', '0', '0'],
      ['3', 'Other Sources (if any)', '0', '1', '0', '1', '0', '0'],
    ])
    await expect(
      page.getByText(new RegExp(`^This board reports the month ending ${month.lastDay}, published on `)),
    ).toBeVisible()

    // Nothing is left to publish.
    await page.goto('/admin/complaint-board')
    await expect(page.getByRole('region', { name: 'Publish a month' })).toContainText('The board is up to date.')
  })
})

test('a figure that cannot be right is refused with its message next to the field, keeping what was typed', async ({
  admin: { page },
}) => {
  await openMonth(page)
  const scores = source(page, 'SEBI (SCORES)')
  await scores.getByLabel('Received', { exact: true }).fill('1')
  await scores.getByLabel('Resolved', { exact: true }).fill('3')
  await page.getByRole('button', { name: 'Save figures' }).click()

  const message = 'Cannot be more than 1, the 0 pending at the start of the month plus the 1 received.'
  const resolved = source(page, 'SEBI (SCORES)').getByLabel('Resolved', { exact: true })
  await expect(resolved).toHaveAttribute('aria-invalid', 'true')
  await expect(resolved).toHaveAccessibleDescription(new RegExp(`${message.replace(/[.+]/g, '\\$&')}$`))
  await expect(source(page, 'SEBI (SCORES)').getByText(message)).toBeVisible()
  await expect(resolved).toHaveValue('3')
  await expect(source(page, 'SEBI (SCORES)').getByLabel('Received', { exact: true })).toHaveValue('1')
  await expect(page.getByRole('status')).toHaveCount(0)
  await expectNoSeriousA11yViolations(page)
})

test('the complaint board admin fits a 360 px phone, its tables scrolling inside their own regions', async ({
  admin: { page },
}) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await page.goto('/admin/complaint-board')
  await expectNoSeriousA11yViolations(page)
  for (const path of ['/admin/complaint-board', `/admin/complaint-board/${MONTH.key}`]) {
    await page.goto(path)
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${path} is wider than the phone`,
    ).toBeLessThanOrEqual(360)
  }
  await expect(page.getByRole('region', { name: 'Data for the month ending 30 November 2024' })).toHaveAttribute(
    'tabindex',
    '0',
  )
  await expect(page.getByRole('button', { name: 'Save figures' })).toBeVisible()
})
