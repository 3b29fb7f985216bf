import { CUSTOMER_RESEARCH_PAGE_SIZE } from '../../app/domain/research-list'
import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'
import { gotoHydrated } from './hydration'
import { readerWithResearch } from './research-helpers'

// The customer's research list (docs/research.md, decision 040): a service filter that is a plain
// GET form, keyset pages as plain links, unread marks cleared by opening an item, and a malformed
// filter or cursor answered with the first page and a notice.

const ITEMS = CUSTOMER_RESEARCH_PAGE_SIZE + 2

test('the customer filters their research by service, pages through it, and opening an item clears its unread mark', async ({
  customerWithProfile: { page, userId },
}) => {
  test.slow()
  const tag = `${Date.now()}`
  const { services, titles } = await readerWithResearch(userId, tag, ITEMS)
  const [alpha, beta] = [services[0]!, services[1]!]
  const entry = (title: string) =>
    page.getByRole('listitem').filter({ has: page.getByRole('link', { name: title, exact: true }) })

  await gotoHydrated(page, '/')
  await page.getByRole('link', { name: 'Your research' }).click()
  await expect(page).toHaveURL(/\/research$/)
  await expect(page.getByRole('link', { name: titles[0]!, exact: true })).toBeVisible()
  await expect(page.getByRole('link', { name: /^Note \d+ / })).toHaveCount(CUSTOMER_RESEARCH_PAGE_SIZE)
  await expect(entry(titles[0]!)).toContainText('Unread')
  await expectNoSeriousA11yViolations(page)

  await page.getByRole('link', { name: 'Next page' }).click()
  await expect(page.getByRole('link', { name: /^Note \d+ / })).toHaveCount(ITEMS - CUSTOMER_RESEARCH_PAGE_SIZE)
  await expect(page.getByRole('link', { name: titles.at(-1)!, exact: true })).toBeVisible()
  await page.getByRole('link', { name: 'Previous page' }).click()
  await expect(page.getByRole('link', { name: titles[0]!, exact: true })).toBeVisible()

  // Odd notes are Beta's (index n % 2 = 1), even notes Alpha's.
  await page.getByLabel('Service').selectOption({ label: beta.name })
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page).toHaveURL(/service=/)
  await expect(page.getByRole('link', { name: /^Note \d+ / })).toHaveCount(ITEMS / 2)
  await expect(page.getByRole('listitem').filter({ hasText: alpha.name })).toHaveCount(0)
  await expectNoSeriousA11yViolations(page)

  await page.getByRole('link', { name: titles[0]!, exact: true }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(titles[0]!)
  await page.getByRole('link', { name: 'All your research' }).click()
  await expect(entry(titles[0]!)).not.toContainText('Unread')
  await expect(entry(titles[2]!)).toContainText('Unread')
})

test('a malformed filter or page link shows the first page with a notice, not an error', async ({
  customerWithProfile: { page, userId },
}) => {
  // An axe audit on a busy machine: more than the usual 60 s.
  test.slow()
  const { titles } = await readerWithResearch(userId, `${Date.now()}`, ITEMS)
  const answer = await page.goto(`/research?service=%3Cscript%3Ealert(1)%3C%2Fscript%3E&after=${'9'.repeat(90)}`)
  expect(answer?.status()).toBe(200)
  await expect(page.getByText('That service is not one of yours; showing research of every service.')).toBeVisible()
  await expect(page.getByText('That page link was not valid')).toBeVisible()
  await expect(page.getByRole('link', { name: titles[0]!, exact: true })).toBeVisible()
  await expectNoSeriousA11yViolations(page)
})
