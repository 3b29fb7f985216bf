import { randomInt } from 'node:crypto'
import { expect as baseExpect } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './axe'
import { createSignedInUser, expect, test } from './fixtures'
import { uniquePan } from './sign-in-helpers'
import { ASHA_RAO } from '../support/sample-customer'

// The admin e-mails a notice to chosen customers (issue 28 item 7): reviewed (who it reaches), then
// sent once, and the customer receives it; with JavaScript and without, at a phone's width.

test('the admin reviews a notice to a chosen customer, sends it, and the customer gets it by e-mail', async ({
  admin: { page },
  request,
}) => {
  await page.setViewportSize({ width: 360, height: 740 })
  const email = `notice-${randomInt(1e9)}@example.in`
  const customer = await createSignedInUser({ details: { ...ASHA_RAO, email, pan: uniquePan() } })
  const subject = `Reports move to 8 am (${randomInt(1e9)})`

  await page.goto('/admin/notices')
  await expect(page.getByRole('heading', { name: 'Notices to customers' })).toBeVisible()
  await page.getByRole('radio', { name: 'Chosen customers, by mobile number (closed accounts too)' }).check()
  await page.getByLabel('Mobile numbers (for chosen customers)').fill(`${customer.phone}\n12345`)
  await page.getByLabel('Subject').fill(subject)
  await page
    .getByLabel('Notice', { exact: true })
    .fill('From Monday the reports come at 8 am.\n\nThank you for staying with us.')
  await page.getByRole('button', { name: 'Review' }).click()
  // A number that is no Indian mobile is refused on its field, with what was typed kept.
  const numbers = page.getByLabel('Mobile numbers (for chosen customers)')
  await expect(numbers).toHaveAttribute('aria-invalid', 'true')
  await expect(numbers).toHaveAccessibleDescription(/Not a 10-digit Indian mobile number: 12345/)
  await expect(page.getByLabel('Subject')).toHaveValue(subject)

  await numbers.fill(customer.phone)
  await page.getByRole('button', { name: 'Review' }).click()
  await expect(page.getByText('It reaches 1 customer by e-mail.')).toBeVisible()
  await expectNoSeriousA11yViolations(page)
  await page.getByRole('button', { name: 'Send to 1 customer' }).click()
  await expect(page.getByText(`The notice "${subject}" is queued to 1 customer by e-mail.`)).toBeVisible()

  await baseExpect
    .poll(
      async () => {
        const response = await request.get(`/dev/outbox.json?to=${encodeURIComponent(email)}`)
        const { messages } = (await response.json()) as { messages: { subject: string | null; body: string }[] }
        return messages.filter((message) => message.subject === subject).map((message) => message.body)
      },
      { timeout: 20_000, message: `the notice e-mailed to ${email}` },
    )
    .toEqual([expect.stringContaining('From Monday the reports come at 8 am.')])
})
