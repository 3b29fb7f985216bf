// The admin lists page by keyset (app/domain/keyset.ts): Next and Previous are plain links, so a
// walk through the pages works with and without JavaScript. Each test writes its own rows straight
// into the e2e database, in a place no other spec uses (a year of payments per project, customers
// with a name made for the test), and filters the list down to them; the lists without such a filter
// (the audit log, the refunds' sections) are walked whole and this test's rows picked out. The
// queries themselves are tested in tests/integration/admin-keyset.test.ts.
import { randomBytes } from 'node:crypto'
import type { Locator, Page } from '@playwright/test'
import type pg from 'pg'
import { ADMIN_PAGE_SIZE, CUSTOMER_SEARCH_LIMIT } from '../../app/domain/admin'
import { INVALID_CURSOR_MESSAGE } from '../../app/components/pager'
import { expectNoSeriousA11yViolations } from './axe'
import { withE2eDatabase } from './database'
import { uniqueMobile } from '../support/sample-customer'
import { expect, test } from './fixtures'
import { useOwnClientAddress } from './sign-in-helpers'

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

/** Rows for three pages: two full, one part-full. */
const ROWS = ADMIN_PAGE_SIZE * 2 + 20
const CUSTOMER_ROWS = CUSTOMER_SEARCH_LIMIT * 2 + 20

/** A year of payments no other spec writes in, one per project (they run side by side). */
const yearOf = (project: string) => (project === 'no-js' ? 2005 : 2004)

/** The order ids of the gateway payments the "All payments" list shows, top to bottom. */
async function listedOrders(page: Page): Promise<string[]> {
  const labels = await page
    .getByRole('region', { name: 'All payments' })
    .getByRole('article')
    .evaluateAll((articles) => articles.map((article) => article.getAttribute('aria-label') ?? ''))
  return labels.map((label) => label.replace(/^Gateway payment /, ''))
}

/** The names the customer search lists, top to bottom. */
async function listedCustomers(page: Page): Promise<string[]> {
  return page
    .getByRole('region', { name: /Customers matching|found for/ })
    .getByRole('listitem')
    .getByRole('link')
    .allTextContents()
}

const pager = (page: Page, label: string): Locator => page.getByRole('navigation', { name: label })

/** Clicks a pager link and waits until its page is shown (with JavaScript the old one stays until then). */
async function follow(page: Page, link: Locator) {
  const href = new URL((await link.getAttribute('href'))!, page.url()).href
  await link.click()
  await expect(page).toHaveURL(href)
}

/** What the page lists once it is no longer the page before (no two pages of a walk list the same rows). */
async function listedAnew(page: Page, listed: (page: Page) => Promise<string[]>, before: string[]) {
  await expect.poll(() => listed(page)).not.toEqual(before)
  return listed(page)
}

/**
 * Follows Next to the end, then Previous back while it is offered; what each page listed, in order.
 * Every page but the last is full; the page reached through a link keeps `filters` in its URL.
 */
async function walk(
  page: Page,
  label: string,
  listed: (page: Page) => Promise<string[]>,
  filters: RegExp,
  beforeNext?: (pageNumber: number) => Promise<void>,
  /** Stops going forward once the pages read hold what the test looks for (a list that others fill too). */
  enough?: (pages: string[][]) => boolean,
) {
  const forward = [await listed(page)]
  for (;;) {
    if (enough?.(forward)) break
    await beforeNext?.(forward.length)
    const next = pager(page, label).getByRole('link', { name: 'Next page' })
    if ((await next.count()) === 0) break
    await follow(page, next)
    await expect(page).toHaveURL(filters)
    forward.push(await listedAnew(page, listed, forward.at(-1)!))
  }
  const backward: string[][] = []
  for (;;) {
    const previous = pager(page, label).getByRole('link', { name: 'Previous page' })
    if ((await previous.count()) === 0) break
    await follow(page, previous)
    await expect(page).toHaveURL(filters)
    backward.push(await listedAnew(page, listed, backward.at(-1) ?? forward.at(-1)!))
  }
  return { forward, backward }
}

test('the payments list pages through its filter to the end and back, stable under a new payment', async ({
  admin: { page },
}, testInfo) => {
  // Three pages there and back, each read and one audited by axe: over a minute on a loaded machine.
  test.slow()
  const year = yearOf(testInfo.project.name)
  const tag = `order_pager${year}_`
  const insertPayment = (client: pg.Client, orderIds: string[], times: string[], status = 'FAILED') =>
    client.query(
      `WITH u AS (INSERT INTO users (phone) VALUES ($1) RETURNING id)
       INSERT INTO payments (user_id, method, status, amount_paise, currency, cart, gateway_order_id, created_at, paid_at)
       SELECT u.id, 'GATEWAY', $4::"PaymentStatus", 100, 'INR', '[]'::jsonb, o.order_id, o.created_at,
              CASE WHEN $4 = 'PAID' THEN o.created_at END
       FROM u, unnest($2::text[], $3::timestamptz[]) AS o(order_id, created_at)`,
      [`+91${uniqueMobile()}`, orderIds, times, status],
    )
  // Three payments to each minute, so rows of equal time are ordered by their id across page ends;
  // paid payments in between, which the status filter leaves out of every page.
  const expected = await withE2eDatabase(async (client) => {
    const time = (index: number) => new Date(Date.UTC(year, 5, 1, 6, Math.floor(index / 3))).toISOString()
    const indexes = [...Array(ROWS).keys()]
    await insertPayment(
      client,
      indexes.map((index) => `${tag}${String(index).padStart(3, '0')}`),
      indexes.map(time),
    )
    await insertPayment(
      client,
      indexes.slice(0, 30).map((index) => `${tag}paid${index}`),
      indexes.slice(0, 30).map((index) => time(index * 4)),
      'PAID',
    )
    const { rows } = await client.query<{ order: string }>(
      `SELECT gateway_order_id AS order FROM payments
        WHERE gateway_order_id LIKE $1 AND status = 'FAILED' ORDER BY created_at DESC, id DESC`,
      [`${tag}%`],
    )
    return rows.map((row) => row.order)
  })
  expect(expected).toHaveLength(ROWS)

  await page.goto('/admin/payments')
  await page.getByLabel('Status').selectOption('FAILED')
  await page.getByLabel('Method').selectOption('GATEWAY')
  await page.getByLabel('From (India date)').fill(`${year}-06-01`)
  await page.getByLabel('To (India date)').fill(`${year}-06-01`)
  await page.getByRole('button', { name: 'Filter' }).click()
  const filters = new RegExp(`status=FAILED&from=${year}-06-01&to=${year}-06-01&method=GATEWAY`)
  await expect(page).toHaveURL(filters)
  await expect(pager(page, 'Pages of payments').getByRole('link', { name: 'Next page' })).toBeVisible()
  await expectNoSeriousA11yViolations(page)

  // A payment newer than all of them arrives once the first page is read: the later pages do not move.
  const newest = `${tag}newest`
  const { forward, backward } = await walk(page, 'Pages of payments', listedOrders, filters, async (pageNumber) => {
    if (pageNumber === 1)
      await withE2eDatabase((client) => insertPayment(client, [newest], [`${year}-06-01T12:00:00Z`]))
  })
  expect(forward.map((rows) => rows.length)).toEqual([ADMIN_PAGE_SIZE, ADMIN_PAGE_SIZE, 20])
  expect(forward.flat()).toEqual(expected)
  // Back the same way: the same pages, then the first page as it is now, the new payment on top.
  expect(backward).toEqual([forward[1], forward[0], [newest, ...expected.slice(0, ADMIN_PAGE_SIZE - 1)]])
  await expect(page.getByText(INVALID_CURSOR_MESSAGE)).toHaveCount(0)

  // A changed link keeps the filters and starts again at the first page.
  await page.goto(page.url().replace(/before=[^&]*/, `after=${expected[ADMIN_PAGE_SIZE]}`))
  await expect(page.getByText(INVALID_CURSOR_MESSAGE)).toBeVisible()
  expect(await listedOrders(page)).toEqual(backward.at(-1))
})

test('the customer search pages through its results, keeps the query, and the pager links are reachable by keyboard', async ({
  admin: { page },
}) => {
  const word = `pager${randomBytes(4).toString('hex')}`
  const expected = await withE2eDatabase(async (client) => {
    const indexes = [...Array(CUSTOMER_ROWS).keys()]
    await client.query(
      `INSERT INTO users (phone, name, created_at)
       SELECT p.phone, p.name, '2026-01-01T00:00:00Z'::timestamptz + (p.i / 3) * interval '1 minute'
       FROM unnest($1::text[], $2::text[], $3::int[]) AS p(phone, name, i)`,
      [
        indexes.map(() => `+91${uniqueMobile()}`),
        indexes.map((index) => `${word} ${String(index).padStart(3, '0')}`),
        indexes,
      ],
    )
    const { rows } = await client.query<{ name: string }>(
      `SELECT name FROM users WHERE name LIKE $1 ORDER BY created_at DESC, id DESC`,
      [`${word} %`],
    )
    return rows.map((row) => row.name)
  })
  expect(expected).toHaveLength(CUSTOMER_ROWS)

  await page.goto('/admin/customers')
  await page.getByLabel('Phone, name, e-mail or PAN').fill(word)
  await page.getByRole('button', { name: 'Search' }).click()
  const filters = new RegExp(`[?&]q=${word}(&|$)`)
  await expect(page).toHaveURL(filters)
  await expect(page.getByRole('heading', { name: `Customers matching “${word}”, newest first` })).toBeVisible()

  // The pager's links are in the tab order, after the results, and named by what they do.
  const next = pager(page, 'Pages of customers').getByRole('link', { name: 'Next page' })
  await page.getByRole('link', { name: expected[CUSTOMER_SEARCH_LIMIT - 1]!, exact: true }).focus()
  await page.keyboard.press('Tab')
  await expect(next).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/[?&]after=/)
  const previous = pager(page, 'Pages of customers').getByRole('link', { name: 'Previous page' })
  await expect(previous).toBeVisible()
  await expectNoSeriousA11yViolations(page)
  await previous.focus()
  await page.keyboard.press('Enter')
  await expect(page).not.toHaveURL(/[?&]after=/)
  await expect(page).toHaveURL(filters)

  const { forward, backward } = await walk(page, 'Pages of customers', listedCustomers, filters)
  expect(forward.map((rows) => rows.length)).toEqual([CUSTOMER_SEARCH_LIMIT, CUSTOMER_SEARCH_LIMIT, 20])
  expect(forward.flat()).toEqual(expected)
  expect(backward).toEqual([forward[1], forward[0]])

  // A changed link keeps the query and starts again at the first page.
  await page.goto(`/admin/customers?q=${word}&after=${forward[1]![0]!.replace(' ', '_')}`)
  await expect(page.getByText(INVALID_CURSOR_MESSAGE)).toBeVisible()
  expect(await listedCustomers(page)).toEqual(forward[0])
})

/** The audit log's entries, top to bottom: "action on subject" and when, by whom. */
async function listedEntries(page: Page): Promise<string[]> {
  return page
    .getByRole('region', { name: 'Audit log' })
    .getByRole('listitem')
    .evaluateAll((items) =>
      items.map((item) => [...item.querySelectorAll(':scope > p')].map((line) => line.textContent).join(' | ')),
    )
}

// The log holds every other spec's entries too, more with each test of the suite: the walk goes past
// this test's entries and back, not to the log's end (the filtered lists above test the end).
test('the audit log pages by its serial id past its entries and back, each entry once, stable under new entries', async ({
  admin: { page, userId },
}) => {
  // Other specs' admins write to the log meanwhile: this test's entries are told apart by their subject.
  const subject = `pager-${randomBytes(4).toString('hex')}`
  const insertEntries = (client: pg.Client, ids: string[]) =>
    client.query(
      `INSERT INTO audit_logs (actor_id, action, subject_type, subject_id)
       SELECT $1, 'pager.check', $2, i FROM unnest($3::text[]) WITH ORDINALITY AS e(i, n) ORDER BY n`,
      [userId, subject, ids],
    )
  const ids = [...Array(ROWS).keys()].map((index) => String(index).padStart(3, '0'))
  await withE2eDatabase((client) => insertEntries(client, ids))
  const ours = (pages: string[][]) =>
    pages
      .flat()
      .filter((entry) => entry.startsWith(`pager.check on ${subject} `))
      .map((entry) => entry.split(' | ')[0]!.split(' ').at(-1)!)

  await page.goto('/admin/audit')
  await expect(pager(page, 'Pages of the audit log').getByRole('link', { name: 'Next page' })).toBeVisible()
  const { forward, backward } = await walk(
    page,
    'Pages of the audit log',
    listedEntries,
    /\/admin\/audit\?/,
    async (pageNumber) => {
      if (pageNumber === 1) await withE2eDatabase((client) => insertEntries(client, ['new']))
    },
    (pages) => ours(pages).length >= ids.length,
  )
  expect(forward.length).toBeGreaterThanOrEqual(3)
  expect(forward.slice(0, -1).every((entries) => entries.length === ADMIN_PAGE_SIZE)).toBe(true)
  expect(ours(forward)).toEqual(ids.toReversed())
  // Back to the first page as it is now, the new entry on top: every entry on the way, in order. (The
  // pages need not be the forward ones: the other project's copy of this test writes its entries at
  // the same time, and a serial id taken before a later commit can land inside a page already read.)
  expect(ours([backward.at(-1)!])[0]).toBe('new')
  expect([...new Set(ours([...backward.toReversed(), forward.at(-1)!]))]).toEqual(['new', ...ids.toReversed()])
})

test('the refunds done page through their section to the end and back, each once, the section kept', async ({
  admin: { page },
}) => {
  // Refunds of one customer of this test, all older than any other spec's, so they fill the last pages.
  const name = `pager refunds ${randomBytes(4).toString('hex')}`
  const amounts = [...Array(ROWS).keys()].map((index) => (index + 1) * 100)
  const insertRefunds = (client: pg.Client, userId: string, paymentId: string, rows: number[], at: string) =>
    client.query(
      `WITH s AS (
         INSERT INTO subscriptions (user_id, service_id, grant_reason, granted_by, starts_at, ends_at)
         SELECT $1, (SELECT id FROM services ORDER BY sort_order, name LIMIT 1), 'e2e: paging', $1,
                $4::timestamptz + n * interval '2 days', $4::timestamptz + n * interval '2 days' + interval '1 day'
         FROM unnest($3::int[]) WITH ORDINALITY AS r(amount, n)
         RETURNING id, starts_at)
       INSERT INTO refunds (user_id, payment_id, subscription_id, kind, reason, amount_paise, status, processed_at, created_at)
       SELECT $1, $2, s.id, 'ENDING', 'ADMIN_ENDED', r.amount, 'PROCESSED', s.starts_at, s.starts_at
       FROM s JOIN unnest($3::int[]) WITH ORDINALITY AS r(amount, n)
         ON s.starts_at = $4::timestamptz + r.n * interval '2 days'`,
      [userId, paymentId, rows, at],
    )
  const { userId, paymentId } = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ userId: string; paymentId: string }>(
      `WITH u AS (INSERT INTO users (phone, name) VALUES ($1, $2) RETURNING id)
       INSERT INTO payments (user_id, method, status, amount_paise, currency, cart, created_at, paid_at)
       SELECT u.id, 'GATEWAY', 'PAID', 100, 'INR', '[]'::jsonb, '2003-01-01', '2003-01-01' FROM u
       RETURNING user_id AS "userId", id AS "paymentId"`,
      [`+91${uniqueMobile()}`, name],
    )
    await insertRefunds(client, rows[0]!.userId, rows[0]!.paymentId, amounts, '2003-02-01T00:00:00Z')
    return rows[0]!
  })
  const listedRefunds = (page: Page) =>
    page
      .getByRole('region', { name: 'Done' })
      .getByRole('listitem')
      .evaluateAll((items) => items.map((item) => item.querySelector('p')?.textContent ?? ''))
  const ours = (pages: string[][]) =>
    pages
      .flat()
      .filter((line) => line.includes(` to ${name} for `))
      .map((line) => line.split(' ')[1]!)
  // Newest first: the biggest amounts were written last.
  const expected = amounts.toReversed().map((paise) => String(paise / 100))

  await page.goto('/admin/refunds')
  const { forward, backward } = await walk(
    page,
    'Pages of Done',
    listedRefunds,
    /[?&]status=PROCESSED(&|$)/,
    async (n) => {
      if (n === 1)
        await withE2eDatabase((client) => insertRefunds(client, userId, paymentId, [99_900], '2026-01-01T00:00:00Z'))
    },
  )
  expect(forward.length).toBeGreaterThanOrEqual(3)
  expect(ours(forward)).toEqual(expected)
  expect([...new Set(ours([...backward.toReversed(), forward.at(-1)!]))]).toEqual(['999', ...expected])
})

// The whole set of changed links (garbage, another list's cursor, over-long, both directions) is in
// the security record, tests/e2e/api.hostile-input.spec.ts; here, what the admin sees in the browser.
test('a changed page link on any admin list shows its first page and says so, never an error', async ({
  admin: { page },
}) => {
  const lists = [
    { path: '/admin/payments?', label: 'Pages of payments' },
    { path: '/admin/customers?q=pager&', label: 'Pages of customers' },
    { path: '/admin/refunds?status=DUE&', label: 'Pages of Due: bank transfers to make' },
    { path: '/admin/audit?', label: 'Pages of the audit log' },
  ]
  const changed = [`before=${'9'.repeat(200)}`, `after=${encodeURIComponent("' OR 1=1 --")}`]
  for (const { path, label } of lists) {
    for (const query of changed) {
      const url = `${path}${query}`
      const response = await page.goto(url)
      expect(response?.status(), url).toBe(200)
      await expect(page.getByText(INVALID_CURSOR_MESSAGE), url).toBeVisible()
      // The first page: nothing newer to go back to.
      await expect(pager(page, label).getByRole('link', { name: 'Previous page' }), url).toHaveCount(0)
    }
  }
})
