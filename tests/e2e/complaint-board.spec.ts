import { expect, test as base, type Locator } from '@playwright/test'
import { DEMO_COMPLAINT_BOARD_MONTHS } from '../../prisma/seed'
import { expectNoSeriousA11yViolations } from './axe'
import { readingTheDemoComplaintBoard } from './complaint-board-lock'

// admin-complaint-board.spec.ts changes the board for a while: these read it only in between.
const test = base.extend<{ demoComplaintBoard: void }>({
  // Playwright reads a fixture's dependencies from its first parameter, which must be a pattern.
  // eslint-disable-next-line no-empty-pattern
  demoComplaintBoard: [async ({}, use) => readingTheDemoComplaintBoard(() => use()), { auto: true }],
})

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]
const monthLabel = (month: string) => `${MONTH_NAMES[Number(month.slice(5)) - 1]} ${month.slice(0, 4)}`

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

test("the month table has SEBI's columns, the three sources and a Grand Total, all zero for the demo", async ({
  page,
}) => {
  const table = page.getByRole('region', { name: 'Data for the month ending 30 November 2024' }).getByRole('table')
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
    ['1', 'Directly from Investors', '0', '0', '0', '0', '0', '0'],
    ['2', 'SEBI (SCORES)', '0', '0', '0', '0', '0', '0'],
    ['3', 'Other Sources (if any)', '0', '0', '0', '0', '0', '0'],
  ])
  expect(total).toEqual(['', 'Grand Total', '0', '0', '0', '0', '0', '0'])
  await expect(
    page.getByText(
      /^Number of complaints received during the month against the research analyst due to impersonation by some other entity: 0$/,
    ),
  ).toBeVisible()
  await expect(
    page.getByText('^ Average Resolution time is the sum total of time taken to resolve each complaint'),
  ).toBeVisible()
})

test('the monthly trend runs from April to the month ending, with a Grand Total', async ({ page }) => {
  const table = page
    .getByRole('region', { name: 'Trend of monthly disposal of complaints (financial year 2024-25)' })
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
  expect(rows).toEqual(
    DEMO_COMPLAINT_BOARD_MONTHS.map((month, index) => [String(index + 1), monthLabel(month), '0', '0', '0', '0']),
  )
  expect(rows[0]![1]).toBe('April 2024')
  expect(total).toEqual(['', 'Grand Total', '0', '0', '0', '0'])
})

test('the annual trend has the financial year 2024-25 and a Grand Total', async ({ page }) => {
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
  expect(rows).toEqual([['1', '2024-25', '0', '0', '0', '0']])
  expect(total).toEqual(['', 'Grand Total', '0', '0', '0', '0'])
})

test('each table is reachable with the keyboard for scrolling on small screens', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  const region = page.getByRole('region', { name: 'Data for the month ending 30 November 2024' })
  await expect(region).toHaveAttribute('tabindex', '0')
  expect(await region.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true)
})

test('the tables have no serious accessibility violations in dark mode either', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await expectNoSeriousA11yViolations(page)
})
