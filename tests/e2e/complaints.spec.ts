import { expect as baseExpect, type APIRequestContext, type Locator, type Page } from '@playwright/test'
import { SCORES_URL, SMART_ODR_URL } from '../../app/content/legal/regulatory'
import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'
import { gotoHydrated } from './hydration'
import { latestCode, PNG_1X1, uniqueMobile, useOwnClientAddress } from './sign-in-helpers'

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

const REFERENCE = /CMP-\d{4}-\d{6}/

/** Fills and sends the complaint form; returns the reference the page gives. */
async function fileComplaint(page: Page, text: string, { attach = false } = {}): Promise<string> {
  await page.getByLabel('What is it about?').selectOption({ label: 'Service deficiency' })
  await page.getByLabel('Your complaint').fill(text)
  if (attach)
    await page
      .getByLabel('Attachment (optional)')
      .setInputFiles({ name: 'proof.png', mimeType: 'image/png', buffer: PNG_1X1 })
  await page.getByRole('button', { name: 'File complaint' }).click()
  const filed = page.getByText(/^Your complaint CMP-\d{4}-\d{6} is filed\. We will resolve it by \d\d-\d\d-\d{4}\./)
  await expect(filed).toBeVisible()
  // The acknowledgement ends with the 21 days and where to escalate: SCORES, then SMART ODR.
  await expectEscalationLadder(page.getByRole('main'))
  return REFERENCE.exec((await filed.textContent())!)![0]
}

/** The escalation ladder in `region`: our 21 days, then SCORES, then SMART ODR, each portal a link. */
async function expectEscalationLadder(region: Locator) {
  const ladder = region.getByText(
    /^We resolve every complaint within 21 days of receiving it\. If we have not resolved yours/,
  )
  await expect(ladder).toBeVisible()
  await expect(ladder.getByRole('link', { name: SCORES_URL })).toHaveAttribute('href', SCORES_URL)
  await expect(ladder.getByRole('link', { name: SMART_ODR_URL })).toHaveAttribute('href', SMART_ODR_URL)
}

/** The admin opens the complaint from the register, answers it and resolves it. */
async function answerAndResolve(admin: Page, reference: string, answer: string) {
  await admin.goto('/admin/complaints')
  await expect(admin.getByRole('heading', { level: 1, name: 'Complaints' })).toBeVisible()
  await expectNoSeriousA11yViolations(admin)
  await admin.getByRole('link', { name: reference }).click()
  await expect(admin.getByRole('heading', { level: 1, name: `Complaint ${reference}` })).toBeVisible()
  await expectNoSeriousA11yViolations(admin)
  await admin.getByLabel('Mark as').selectOption({ label: 'Answered' })
  await admin.getByLabel('Text sent to the complainant').fill(answer)
  await admin.getByRole('button', { name: 'Save step' }).click()
  await expect(admin.getByText('Marked answered.')).toBeVisible()
  await admin.getByLabel('Mark as').selectOption({ label: 'Resolved' })
  await admin.getByLabel('Text sent to the complainant').fill('Resolved as answered.')
  await admin.getByRole('button', { name: 'Save step' }).click()
  await expect(admin.getByText('Marked resolved.')).toBeVisible()
  await expect(admin.getByText(/^Resolved: .* by /)).toBeVisible()
}

async function outboxHas(request: APIRequestContext, to: string, text: string) {
  await baseExpect
    .poll(
      async () => {
        const response = await request.get(`/dev/outbox.json?to=${encodeURIComponent(to)}`)
        const { messages } = (await response.json()) as { messages: { body: string }[] }
        return messages.some((message) => message.body.includes(text))
      },
      { timeout: 15_000, message: `a message to ${to} saying "${text}"` },
    )
    .toBe(true)
}

test('a visitor confirms a phone, files a complaint, and gets the answer by SMS', async ({
  page,
  request,
  otherAdmin: { page: admin },
}) => {
  test.slow()
  const mobile = uniqueMobile()
  const phone = `+91${mobile}`
  await page.goto('/complaints/new')
  await expect(page.getByRole('heading', { level: 1, name: 'File a complaint' })).toBeVisible()
  await expectNoSeriousA11yViolations(page)
  await page.getByLabel('Mobile number or e-mail address').fill(mobile)
  await page.getByRole('button', { name: 'Send code' }).click()
  await expect(page.getByText(`We sent a 6-digit code to ${phone}`)).toBeVisible()
  await page.getByLabel('6-digit code').fill(await latestCode(request, phone))
  await page.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByText(`Filing as ${phone} (confirmed).`)).toBeVisible()
  await expectNoSeriousA11yViolations(page)

  const reference = await fileComplaint(page, 'My research note of Monday never arrived.')
  await outboxHas(request, phone, reference)
  await answerAndResolve(admin, reference, 'The note was re-sent to you today.')
  await outboxHas(request, phone, 'The note was re-sent to you today.')
  await outboxHas(request, phone, `${SCORES_URL}; if you are still not satisfied`)
})

test('a customer files a complaint with an image and sees the answer at /complaints', async ({
  customer: { page },
  otherAdmin: { page: admin },
}) => {
  test.slow()
  await page.goto('/complaints/new')
  const reference = await fileComplaint(page, 'The refund I was promised has not come.', { attach: true })
  await page.getByRole('link', { name: 'See your complaints and our answers' }).click()
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^${reference}`) })).toBeVisible()
  await expect(page.getByText('No answer yet.')).toBeVisible()
  await expectNoSeriousA11yViolations(page)

  await answerAndResolve(admin, reference, 'Your refund was paid today.')
  await expect(admin.getByRole('link', { name: 'Open the attached image' })).toBeVisible()
  await page.reload()
  await expect(page.getByText('Your refund was paid today.')).toBeVisible()
  await expect(page.getByText(/Status: Resolved\./)).toBeVisible()
  await expectEscalationLadder(page.getByRole('listitem').filter({ hasText: reference }))
})

test('the admin enters a SCORES complaint with its own reference and finds it among those due', async ({
  admin: { page },
}) => {
  test.slow()
  await page.goto('/admin/complaints')
  const scoresReference = `SEBIE/MH26/${uniqueMobile()}`
  await page.getByLabel('Source', { exact: true }).selectOption({ label: 'SEBI SCORES' })
  await page.getByLabel('Its reference at the source').fill(scoresReference)
  await page.getByLabel('Category', { exact: true }).selectOption({ label: 'Payment or refund' })
  // Received 20 days ago: due tomorrow (21 days), so among those due in the next 3 days.
  const received = new Date(Date.now() + 5.5 * 3600_000 - 20 * 86_400_000).toISOString().slice(0, 10)
  await page.getByLabel('Received on').fill(received)
  await page.getByLabel('The complaint', { exact: true }).fill('Forwarded by SEBI: a refund not paid.')
  await page.getByRole('button', { name: 'Enter complaint' }).click()
  await expect(page.getByText(`SEBI SCORES, reference ${scoresReference}`)).toBeVisible()
  await page.goto('/admin/complaints')
  await page.getByLabel('Show', { exact: true }).selectOption({ label: 'Overdue or due in 3 days' })
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page).toHaveURL(/status=due/)
  await expect(page.getByRole('row', { name: new RegExp(scoresReference) })).toContainText('due soon')
})

test('a filed complaint leaves the form for its reference on a phone, and the same text sent again is that complaint', async ({
  customer: { page },
}) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await gotoHydrated(page, '/complaints/new')
  const text = `The note of ${Date.now()} never came.`
  const reference = await fileComplaint(page, text)
  const filed = page.getByText(`Your complaint ${reference} is filed.`)
  await expect(filed).toBeInViewport()
  await expect(page.getByLabel('Your complaint')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'File complaint' })).toHaveCount(0)
  await expectNoSeriousA11yViolations(page)

  await page.getByRole('link', { name: 'File another complaint' }).click()
  await expect(page.getByLabel('Your complaint')).toHaveValue('')
  expect(await fileComplaint(page, text)).toBe(reference)
  await page.goto('/complaints')
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^CMP-`) })).toHaveCount(1)
})
