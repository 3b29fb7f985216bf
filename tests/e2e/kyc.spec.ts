import { randomInt } from 'node:crypto'
import { expectNoSeriousA11yViolations } from './axe'
import { cartOfTwoOnPayPage } from './cart-helpers'
import { expect, signInContext, test } from './fixtures'
import { emailsTo, fillProfileDetails, signIn, uniquePan, useOwnClientAddress } from './sign-in-helpers'
import { ASHA_RAO } from '../support/sample-customer'

// KYC through the fake KRA (app/server/kyc/kra.server.ts): a PAN of the KRAPN... family is "not found".

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

const digits = () => String(randomInt(0, 1e4)).padStart(4, '0')

test('a customer the KRA does not find cannot pay, and is told what to do', async ({ page }) => {
  await signInContext(page.context(), {
    completeProfile: true,
    details: { ...ASHA_RAO, pan: `KRAPN${digits()}N` },
  })
  await cartOfTwoOnPayPage(page)
  await expect(page.getByText(/You cannot pay yet: your KYC .* is not found/)).toBeVisible()
  // Paying is refused before it starts: the buttons are disabled, and say why (tests/e2e/kyc-way-out.spec.ts).
  await expect(page.getByRole('button', { name: 'Pay on Website' })).toBeDisabled()
  await page.getByRole('link', { name: 'What to do about your KYC' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Your KYC details' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'KYC at the KRA: Not found' })).toBeVisible()
  await expect(page.getByText(/No KYC record was found/)).toBeVisible()
  await expectNoSeriousA11yViolations(page)
})

test('the wizard shows the KRA’s answer for the PAN typed at step 1: not found, with what to do', async ({
  page,
  request,
}) => {
  await signIn(page, request)
  await fillProfileDetails(page, { ...ASHA_RAO, pan: `KRAPN${digits()}N` })
  await page.getByRole('button', { name: 'Save and continue' }).click()
  await expect(page.getByRole('heading', { name: 'Step 2 of 3: PAN card' })).toBeVisible()
  await expect(page.getByTestId('kyc-status')).toContainText(
    'KYC at the KRA: Not found. No KYC record was found at the KYC registration agency (KRA)',
  )
  await expect(page.getByTestId('kyc-status')).toContainText('Until then you cannot pay.')
})

test('the wizard shows the KRA’s answer for the PAN typed at step 1: validated', async ({ page, request }) => {
  await signIn(page, request)
  await fillProfileDetails(page, { ...ASHA_RAO, pan: uniquePan() })
  await page.getByRole('button', { name: 'Save and continue' }).click()
  await expect(page.getByRole('heading', { name: 'Step 2 of 3: PAN card' })).toBeVisible()
  await expect(page.getByTestId('kyc-status')).toHaveText(
    'KYC at the KRA: Validated. Your KYC is in order: you can subscribe.',
  )
})

test('a validated customer sees their KYC in order and can go on to pay', async ({ customerWithProfile: { page } }) => {
  await cartOfTwoOnPayPage(page)
  await expect(page.getByText(/You cannot pay yet/)).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Pay on Website' })).toBeEnabled()
  await page.goto('/account/corrections')
  await expect(page.getByRole('heading', { name: 'KYC at the KRA: Validated' })).toBeVisible()
})

test('a correction request the admin approves changes the PAN and checks KYC again', async ({
  customerWithProfile: { page, userId },
  otherAdmin,
}) => {
  const newPan = uniquePan()
  await page.goto('/account/corrections')
  await page.getByLabel('Correct PAN').fill(newPan)
  await page.getByLabel('Why the details need correcting').fill('I typed one letter wrong')
  await page.getByRole('button', { name: 'Send correction request' }).click()
  await expect(page.getByText('Your correction request is sent.')).toBeVisible()
  await expect(page.getByText('Waiting for our team', { exact: false }).first()).toBeVisible()
  await expectNoSeriousA11yViolations(page)

  await otherAdmin.page.goto(`/admin/customers/${userId}`)
  await expect(otherAdmin.page.getByTestId('admin-kyc')).toContainText('Validated')
  await otherAdmin.page.getByRole('button', { name: 'Approve and check KYC' }).click()
  await expect(otherAdmin.page.getByText('Correction approved; the KRA answered validated.')).toBeVisible()
  await expect(otherAdmin.page.getByText(newPan).first()).toBeVisible()

  await page.goto('/account/corrections')
  await expect(page.getByText('Approved', { exact: false }).first()).toBeVisible()
  // The customer's page only displays the PAN: masked (the admin's customer page shows it whole).
  await expect(page.getByText(`${newPan.slice(0, 5)}****${newPan.slice(-1)}`).first()).toBeVisible()
  expect(await page.content()).not.toContain(newPan)
})

test('a correction request the admin rejects, with the reason the customer is e-mailed', async ({
  page,
  request,
  otherAdmin: { page: admin },
}) => {
  const email = `asha.rejected${Date.now()}${randomInt(0, 1000)}@example.in`
  const { userId } = await signInContext(page.context(), {
    completeProfile: true,
    details: { ...ASHA_RAO, email, pan: uniquePan() },
  })
  const newPan = uniquePan()
  await page.goto('/account/corrections')
  await page.getByLabel('Correct PAN').fill(newPan)
  await page.getByLabel('Why the details need correcting').fill('I typed one letter wrong')
  await page.getByRole('button', { name: 'Send correction request' }).click()
  await expect(page.getByText('Your correction request is sent.')).toBeVisible()

  await admin.goto(`/admin/customers/${userId}`)
  await admin.getByRole('button', { name: 'Reject' }).click()
  await expect(admin.getByText('Say why you reject it: the customer is sent the reason.')).toBeVisible()
  await admin.getByLabel('Reason for rejecting (sent to the customer)').fill('The PAN card image shows another number.')
  await admin.getByRole('button', { name: 'Reject' }).click()
  await expect(admin.getByText('Correction rejected.')).toBeVisible()
  await expectNoSeriousA11yViolations(admin)

  const [mail] = await emailsTo(request, email)
  expect(mail!.subject).toBe('Your correction request was not approved')
  expect(mail!.body).toContain('Reason: The PAN card image shows another number.')
  expect(mail!.body).toContain(`to ${newPan.slice(0, 5)}****${newPan.slice(-1)}`)
  expect(mail!.body).not.toContain(newPan)
})

test('the e-mail change page asks for a code sent to the new address', async ({ customerWithProfile: { page } }) => {
  await page.goto('/account/email')
  await page.getByLabel('New e-mail address').fill(`new-${digits()}@example.in`)
  await page.getByRole('button', { name: 'Send the code' }).click()
  await expect(page.getByLabel('Code from the e-mail')).toBeVisible()
  await expectNoSeriousA11yViolations(page)
})
