import { expect, test as base, type Locator } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './axe'
import { demoReportedMonth, readingTheDemoComplaintBoard } from './complaint-board-lock'

// admin-complaint-board.spec.ts changes the board for a while: these read it only in between.
const test = base.extend<{ demoComplaintBoard: void }>({
  // Playwright reads a fixture's dependencies from its first parameter, which must be a pattern.
  // eslint-disable-next-line no-empty-pattern
  demoComplaintBoard: [async ({}, use) => readingTheDemoComplaintBoard(() => use()), { auto: true }],
})

/** The board reports the last ended month, from the demo register (prisma/seed.ts). */
const reported = demoReportedMonth()

/** The header cells, then each body and footer row's cells, as the reader sees them. */
async function tableText(table: Locator) {
  const rowsOf = (section: string) =>
    table
      .locator(`${section} tr`)
      .evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => (cell as HTMLElement).innerText.trim())))
  return { columns: (await rowsOf('thead'))[0], rows: await rowsOf('tbody'), total: (await rowsOf('tfoot'))[0] }
}

test.beforeEach(async ({ page }) => {
  await page.goto('/complaint-board')
})

test('says which month it reports and when it was published', async ({ page }) => {
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  await expect(
    page.getByText(
      new RegExp(
        `^This board reports the month ending ${escaped(reported.lastDay)}, published on \\d{1,2} [A-Z][a-z]+ \\d{4}\\.$`,
      ),
    ),
  ).toBeVisible()
  await expect(page.getByText('published late')).toHaveCount(0)
  await expect(page.getByText('entered by hand')).toHaveCount(0)
})

test("the month table has SEBI's columns, the three sources and a Grand Total, from the demo register", async ({
  page,
}) => {
  const table = page.getByRole('region', { name: `Data for the month ending ${reported.lastDay}` }).getByRole('table')
  const { columns, rows, total } = await tableText(table)
  expect(columns).toEqual([
    'Sr. No.',
    'Received from',
    'Pending at the end of last month',
    'Received',
    'Resolved*',
    'Total Pending#',
    'Pending complaints > 3 months',
    'Average Resolution time^ (in days)',
  ])
  expect(rows).toEqual([
    ['1', 'Directly from Investors', '0', '2', '1', '1', '0', '4'],
    ['2', 'SEBI (SCORES)', '0', '0', '0', '0', '0', '0'],
    ['3', 'Other Sources (if any)', '0', '1', '0', '1', '0', '0'],
  ])
  expect(total).toEqual(['', 'Grand Total', '0', '3', '1', '2', '0', '4'])
  await expect(
    page.getByText(
      /^Number of complaints received during the month against the research analyst due to impersonation by some other entity: 1$/,
    ),
  ).toBeVisible()
  await expect(
    page.getByText('^ Average Resolution time is the sum total of time taken to resolve each complaint'),
  ).toBeVisible()
})

test('the monthly trend runs from April to the month ending, with a Grand Total', async ({ page }) => {
  const table = page
    .getByRole('region', {
      name: `Trend of monthly disposal of complaints (financial year ${reported.financialYear})`,
    })
    .getByRole('table')
  const { columns, rows, total } = await tableText(table)
  expect(columns).toEqual([
    'Sr. No.',
    'Month',
    'Carried forward from previous month',
    'Received',
    'Resolved*',
    'Pending#',
  ])
  expect(rows[0]![1]).toBe(`April ${reported.financialYear.slice(0, 4)}`)
  expect(rows.at(-1)).toEqual([String(rows.length), reported.label, '0', '3', '1', '2'])
  expect(total![1]).toBe('Grand Total')
  expect(total!.at(-1)).toBe('2')
})

test('the annual trend runs from the financial year 2024-25, with a Grand Total', async ({ page }) => {
  const table = page.getByRole('region', { name: 'Trend of annual disposal of complaints' }).getByRole('table')
  const { columns, rows, total } = await tableText(table)
  expect(columns).toEqual([
    'Sr. No.',
    'Year',
    'Carried forward from previous year',
    'Received',
    'Resolved*',
    'Pending#',
  ])
  expect(rows[0]).toEqual(['1', '2024-25', '0', '0', '0', '0'])
  expect(rows.at(-1)![1]).toBe(reported.financialYear)
  expect(rows.at(-1)![5]).toBe('2')
  expect(total).toEqual(['', 'Grand Total', '0', expect.any(String), expect.any(String), '2'])
})

test('each table is reachable with the keyboard for scrolling on small screens', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  const region = page.getByRole('region', { name: `Data for the month ending ${reported.lastDay}` })
  await expect(region).toHaveAttribute('tabindex', '0')
  expect(await region.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true)
})

test('the tables have no serious accessibility violations in dark mode either', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await expectNoSeriousA11yViolations(page)
})
