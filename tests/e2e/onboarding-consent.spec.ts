import { expect, test } from '@playwright/test'
import { test as withPeople } from './fixtures'
import { expectNoSeriousA11yViolations } from './axe'
import {
  ACKNOWLEDGEMENT_LABELS,
  completeDetailsStep,
  completePanCardStep,
  emailsTo,
  signIn,
  tickAcknowledgements,
  useOwnClientAddress,
} from './sign-in-helpers'

// Acceptances (docs/regulatory.md, Acceptances are records): the notice at collection, what each field is for, a box
// per document at the agreement step (each its own record), and the e-mailed copy of all of them.
test.describe.configure({ timeout: 120_000 })
test.beforeEach(async ({ page }) => useOwnClientAddress(page))

test('/auth tells what the number is for, with the privacy policy, before the code is sent', async ({ page }) => {
  await page.goto('/auth')
  const notice = page.getByText(/^Privacy notice: we use your mobile number to send you sign-in codes/)
  await expect(notice).toBeVisible()
  await expect(notice.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy')
  // Before the button that sends the code.
  const [noticeBox, buttonBox] = [
    await notice.boundingBox(),
    await page.getByRole('button', { name: 'Send OTP' }).boundingBox(),
  ]
  expect(noticeBox!.y).toBeLessThan(buttonBox!.y)
  await expectNoSeriousA11yViolations(page)
})

test('onboarding: each field says what it is for, each document is acknowledged on its own, and a copy is e-mailed', async ({
  page,
  request,
}) => {
  await signIn(page, request)
  await expect(page.getByLabel('Name')).toHaveAccessibleDescription(/for KYC and your invoices/)
  await expect(page.getByLabel('E-mail')).toHaveAccessibleDescription(/your copy of the terms you accept/)
  await expect(page.getByLabel('Date of birth')).toHaveAccessibleDescription(/For KYC, and to check that you are 18/)
  await expect(page.getByLabel('PAN', { exact: true })).toHaveAccessibleDescription(/fee limit per family/)
  const email = `asha.copy${Date.now()}${Math.floor(Math.random() * 1000)}@example.in`
  await completeDetailsStep(page, email)
  await completePanCardStep(page)

  // Each document readable without JavaScript at its own address, and a box for each.
  for (const [name, href] of [
    ['Read the Terms and Conditions', '/terms-and-conditions'],
    ['Read the Most Important Terms and Conditions (MITC)', '/mitc'],
    ['Read the Consent statement', '/terms-and-conditions#consent'],
    ['Read the Investor Charter', '/investor-charter'],
    ['Read the Privacy Policy', '/privacy-policy'],
  ] as const) {
    await expect(page.getByRole('link', { name: new RegExp(`^${name.replace(/[()]/g, '\\$&')}`) })).toHaveAttribute(
      'href',
      href,
    )
  }
  for (const label of ACKNOWLEDGEMENT_LABELS) await expect(page.getByLabel(label)).not.toBeChecked()
  // The consent to processing is a box of its own, apart from the terms.
  await expect(page.getByLabel(/^I consent to the processing of my personal data/)).toBeVisible()
  await expectNoSeriousA11yViolations(page)

  await tickAcknowledgements(page)
  await page.getByRole('button', { name: 'Accept Terms and Continue' }).click()
  await expect(page.getByRole('heading', { level: 1, name: /hello, asha rao/i })).toBeVisible()

  const [copy] = await emailsTo(request, email)
  expect(copy!.subject).toBe('Your copy of the terms you accepted')
  for (const [title, version] of [
    ['Terms and Conditions', /agreement-[0-9a-f]{12}/],
    ['Most Important Terms and Conditions \\(MITC\\)', /mitc-[0-9a-f]{12}/],
    ['Consent statement', /consent-[0-9a-f]{12}/],
    ['Investor Charter', /charter-[0-9a-f]{12}/],
  ] as const) {
    expect(copy!.body).toMatch(
      new RegExp(`- ${title}: version ${version.source}, accepted \\d{2}-\\d{2}-\\d{4} \\d{2}:\\d{2} IST`),
    )
    expect(copy!.body).toMatch(new RegExp(`===== ${title} \\(version ${version.source}\\) =====`))
  }
  expect(copy!.body).toContain(
    'I have read and understood the terms and conditions applicable to the research services',
  )
})

test('the documents read on their own pages, the MITC too', async ({ page }) => {
  await page.goto('/mitc')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Most Important Terms and Conditions (MITC)')
  await expect(page.getByText(/^Version: mitc-[0-9a-f]{12}$/)).toBeVisible()
  await page.goto('/terms-and-conditions#consent')
  await expect(page.getByRole('heading', { name: '32. Consent statement' })).toBeVisible()
})

withPeople(
  "the admin's customer page shows each acceptance: document, version, channel, address and browser",
  async ({ customerWithProfile, otherAdmin: { page: admin } }) => {
    await admin.goto(`/admin/customers/${customerWithProfile.userId}`)
    const history = admin.getByRole('region', { name: 'Acceptances' })
    await expect(history.getByRole('row')).toHaveCount(1 + ACKNOWLEDGEMENT_LABELS.length)
    for (const document of [
      'Terms and Conditions',
      'Most Important Terms and Conditions (MITC)',
      'Consent statement',
      'Investor Charter',
      'Privacy Policy',
    ]) {
      await expect(history.getByRole('cell', { name: document, exact: true })).toBeVisible()
    }
    await expect(history.getByRole('cell', { name: 'tests/support/sessions.ts' }).first()).toBeVisible()
    await expectNoSeriousA11yViolations(admin)
  },
)
