import { randomInt } from 'node:crypto'
import { serviceDeliveryText } from '../../app/domain/service-delivery'
import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'
import { useOwnClientAddress } from './sign-in-helpers'

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

test('an admin creates a service (after fixing a bad price and giving its risk level and delivery), edits it, and takes it off sale; /services follows each step', async ({
  admin: { page },
}) => {
  const name = `Options Desk ${randomInt(1e6)}`
  await page.goto('/admin/services')
  await expectNoSeriousA11yViolations(page)
  await page.getByRole('link', { name: 'New service' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'New service' })).toBeVisible()

  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Description').fill('Weekly options ideas\nEntry, target and stop loss')
  await page.getByLabel('Price in rupees').fill('0')
  await page.getByLabel('Duration in days').fill('30')
  await page.getByRole('button', { name: 'Create service' }).click()
  await expect(page.getByText('The price must be at least Rs. 1.')).toBeVisible()
  // Risk level and delivery are required: each left empty gets its message beside it.
  await expect(page.getByLabel('Risk level')).toHaveAccessibleDescription(/Choose the risk level of this research\./)
  await expect(page.getByLabel('How and how often the research is delivered')).toHaveAccessibleDescription(
    /Say how and how often the research is delivered\./,
  )
  await expect(page.getByLabel('Name')).toHaveValue(name)
  await expectNoSeriousA11yViolations(page)

  await page.getByLabel('Price in rupees').fill('2,499')
  await page.getByLabel('Risk level').selectOption({ label: 'Very high' })
  await page.getByLabel('How and how often the research is delivered').fill('Options ideas every Monday')
  await page.getByRole('button', { name: 'Create service' }).click()
  await expect(page.getByText('Service created; it is on sale now.')).toBeVisible()

  const card = page.getByRole('article', { name })
  await expect(card.getByText('Rs. 2,499 for 30 Days')).toBeVisible()
  await expect(card.getByRole('definition')).toHaveText([
    'Very high',
    serviceDeliveryText('Options ideas every Monday'),
  ])
  await card.getByRole('link', { name: `Edit ${name}` }).click()
  await expect(page.getByLabel('Price in rupees')).toHaveValue('2499')
  await expect(page.getByLabel('Risk level')).toHaveValue('VERY_HIGH')
  await expect(page.getByLabel('How and how often the research is delivered')).toHaveValue('Options ideas every Monday')
  await page.getByLabel('Price in rupees').fill('2999')
  await page.getByLabel('Risk level').selectOption({ label: 'High' })
  await page.getByRole('button', { name: 'Save service' }).click()
  await expect(page.getByText('Service saved.')).toBeVisible()

  await page.goto('/services')
  const listed = page.getByRole('article').filter({ hasText: name })
  await expect(listed.getByText('Rs. 2,999 for 30 Days')).toBeVisible()
  await expect(listed.getByRole('definition').first()).toHaveText('High')
  await expect(listed.getByText(serviceDeliveryText('Options ideas every Monday'))).toBeVisible()

  await page.goto('/admin/services')
  await page.getByRole('button', { name: `Take off sale: ${name}` }).click()
  await expect(page.getByRole('article', { name }).getByText('Taken off sale.')).toBeVisible()
  await expect(page.getByRole('article', { name }).getByText('Off sale', { exact: true })).toBeVisible()
  await page.goto('/services')
  await expect(page.getByRole('checkbox', { name, exact: true })).toHaveCount(0)
})

test('the services admin fits a 360 px phone without sideways scrolling', async ({ admin: { page } }) => {
  await page.setViewportSize({ width: 360, height: 740 })
  for (const path of ['/admin/services', '/admin/services/new']) {
    await page.goto(path)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  }
})
