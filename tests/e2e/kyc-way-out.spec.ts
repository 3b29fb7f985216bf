import { randomInt } from 'node:crypto'
import type { Page } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './axe'
import { cartOfTwoOnPayPage } from './cart-helpers'
import { withE2eDatabase } from './database'
import { expect, signInContext, test } from './fixtures'
import { uniquePan, useOwnClientAddress } from './sign-in-helpers'
import { ASHA_RAO } from '../support/sample-customer'

// A customer whose KYC the KRA does not accept has a way out (issue 32): in the wizard, back to
// step 1 to correct the details, or "Check my KYC again"; on /pay, the reason in words, and pay
// buttons that say why they are disabled. At a phone's width. The fake KRA's test PANs
// (app/server/kyc/kra.server.ts): KRAPN… not found, KRAPH… on hold, KRAPJ… rejected.

const PHONE = { width: 360, height: 740 }

test.beforeEach(async ({ page }) => {
  await useOwnClientAddress(page)
  await page.setViewportSize(PHONE)
})

const digits = () => String(randomInt(0, 1e4)).padStart(4, '0')
const BACK_TO_STEP_1 = 'Back to step 1: correct your name, PAN or date of birth'

/** A customer who saved step 1 (the KRA answered for `pan`) and is at step 2 of the wizard. */
async function atStepTwo(page: Page, pan: string) {
  const person = await signInContext(page.context(), { details: { ...ASHA_RAO, pan } })
  await page.goto('/details')
  await expect(page.getByRole('heading', { name: 'Step 2 of 3: PAN card' })).toBeVisible()
  return person
}

test('a customer the KRA does not find goes back to step 1, corrects the PAN, and the check passes', async ({
  page,
}) => {
  await atStepTwo(page, `KRAPN${digits()}N`)
  await expect(page.getByTestId('kyc-status')).toContainText(
    'KYC at the KRA: Not found. No KYC record was found at the KYC registration agency (KRA)',
  )
  await expect(page.getByTestId('kyc-status')).toContainText('go back to step 1 and correct them')
  await expect(page.getByTestId('kyc-status')).not.toContainText('correction below')

  await page.getByRole('link', { name: BACK_TO_STEP_1 }).click()
  await expect(page.getByRole('heading', { name: 'Step 1 of 3: Your details' })).toBeVisible()
  await expect(page.getByText('The KRA answered “Not found” for the details you saved.')).toBeVisible()
  // The saved details are there to correct.
  await expect(page.getByLabel('Name')).toHaveValue('Asha Rao')
  await expectNoSeriousA11yViolations(page)

  await page.getByLabel('PAN', { exact: true }).fill(uniquePan())
  await page.getByRole('button', { name: 'Save and continue' }).click()
  await expect(page.getByRole('heading', { name: 'Step 2 of 3: PAN card' })).toBeVisible()
  await expect(page.getByTestId('kyc-status')).toHaveText(
    'KYC at the KRA: Validated. Your KYC is in order: you can subscribe.',
  )
  await expect(page.getByRole('button', { name: 'Check my KYC again' })).toHaveCount(0)
})

for (const { prefix, label } of [
  { prefix: 'KRAPH', label: 'On hold' },
  { prefix: 'KRAPJ', label: 'Rejected' },
]) {
  test(`the wizard's note for a KYC ${label.toLowerCase()} names the ways out, and both exist`, async ({ page }) => {
    await atStepTwo(page, `${prefix}${digits()}Z`)
    const note = page.getByTestId('kyc-status')
    await expect(note).toContainText(`KYC at the KRA: ${label}.`)
    await expect(note).toContainText('Check my KYC again')
    await expect(note).toContainText('go back to step 1 and correct them')
    await expect(page.getByRole('button', { name: 'Check my KYC again' })).toBeVisible()
    await expect(page.getByRole('link', { name: BACK_TO_STEP_1 })).toBeVisible()
    await expectNoSeriousA11yViolations(page)
  })
}

test('"Check my KYC again" in the wizard asks the KRA again, and the answer is audited', async ({ page }) => {
  const pan = uniquePan()
  const { userId } = await signInContext(page.context(), { details: { ...ASHA_RAO, pan } })
  // The KRA held this KYC on hold when step 1 was saved; the customer has since put it right there.
  await withE2eDatabase((client) => client.query(`UPDATE users SET kyc_status = 'ON_HOLD' WHERE id = $1`, [userId]))
  await page.goto('/details')
  await expect(page.getByTestId('kyc-status')).toContainText('KYC at the KRA: On hold.')
  await page.getByRole('button', { name: 'Check my KYC again' }).click()
  await expect(page.getByText('The KRA answered: Validated.')).toBeVisible()
  await expect(page.getByTestId('kyc-status')).toContainText('KYC at the KRA: Validated.')
  await expect(page.getByRole('heading', { name: 'Step 2 of 3: PAN card' })).toBeVisible()
  const audited = await withE2eDatabase((client) =>
    client.query<{ after: { kycStatus: string } }>(
      `SELECT after FROM audit_logs WHERE subject_id = $1 AND action = 'kyc.recheck'`,
      [userId],
    ),
  )
  expect(audited.rows.map((row) => row.after.kycStatus)).toEqual(['VALIDATED'])
})

test('/pay says in words why a customer the KRA does not find cannot pay, and the pay buttons say why they are disabled', async ({
  page,
}) => {
  await signInContext(page.context(), { completeProfile: true, details: { ...ASHA_RAO, pan: `KRAPN${digits()}N` } })
  await cartOfTwoOnPayPage(page)
  const refusal =
    'You cannot pay yet: your KYC at the KYC registration agency (KRA) is not found. If your name, PAN or date of birth is wrong, ask for a correction on your KYC details page; if they are right, complete your KYC through your broker or mutual fund, then check it again there.'
  await expect(page.getByText(refusal)).toBeVisible()
  await expect(page.getByText('/account/corrections')).toHaveCount(0)

  const payOnWebsite = page.getByRole('button', { name: 'Pay on Website' })
  await expect(payOnWebsite).toBeDisabled()
  await expect(payOnWebsite).toHaveAccessibleDescription(new RegExp(`^${refusal.replace(/[()]/g, '\\$&')}`))
  const payManually = page.getByRole('link', { name: 'Pay Manually' })
  await expect(payManually).toHaveAttribute('aria-disabled', 'true')
  await expect(payManually).toHaveAccessibleDescription(new RegExp(`^${refusal.replace(/[()]/g, '\\$&')}`))
  await expectNoSeriousA11yViolations(page)

  await page.getByRole('link', { name: 'What to do about your KYC' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Your KYC details' })).toBeVisible()
  await expect(page.getByText(/If your name, PAN or date of birth is wrong, ask for a correction below/)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Send correction request' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Check my KYC again' })).toBeVisible()
})
