import { randomInt } from 'node:crypto'
import { expectNoSeriousA11yViolations } from './axe'
import { cartOfTwoOnPayPage } from './cart-helpers'
import { withE2eDatabase } from './database'
import { expect, signInContext, test } from './fixtures'
import { useOwnClientAddress } from './sign-in-helpers'
import { ASHA_RAO } from '../support/sample-customer'

// The KRA's record must match the profile (issue 28 item 4, decision 047): /pay says why a
// customer whose KRA record carries another name or date of birth cannot pay, with its buttons
// disabled and saying why, until the admin decides on the customer's page. The fake KRA's test
// PANs (app/server/kyc/kra.server.ts): KRAPM… another name, KRAPD… another date of birth.

test.beforeEach(async ({ page }) => {
  await useOwnClientAddress(page)
})

const digits = () => String(randomInt(0, 1e4)).padStart(4, '0')
const escape = (text: string) => text.replace(/[()]/g, '\\$&')

test('/pay refuses a customer whose KRA record has another date of birth until the admin accepts it', async ({
  page,
  otherAdmin,
}) => {
  const { userId } = await signInContext(page.context(), {
    completeProfile: true,
    details: { ...ASHA_RAO, pan: `KRAPD${digits()}D` },
  })
  await cartOfTwoOnPayPage(page)
  const refusal = page.getByText(
    'You cannot pay yet: the date of birth the KYC registration agency (KRA) holds for your PAN is not the date of birth in your profile. The analyst will check whether the record is yours; you can pay once they have.',
    { exact: false },
  )
  await expect(refusal).toBeVisible()
  const payOnWebsite = page.getByRole('button', { name: 'Pay on Website' })
  await expect(payOnWebsite).toBeDisabled()
  await expect(payOnWebsite).toHaveAccessibleDescription(
    new RegExp(`^${escape('You cannot pay yet: the date of birth the KYC registration agency (KRA)')}`),
  )
  await expect(page.getByRole('link', { name: 'Pay Manually' })).toHaveAttribute('aria-disabled', 'true')
  await expectNoSeriousA11yViolations(page)

  const admin = otherAdmin.page
  await admin.goto(`/admin/customers/${userId}`)
  const section = admin.getByRole('region', { name: "The KRA's record differs from the profile" })
  await expect(section.getByRole('row', { name: 'Date of birth (differs) 17-05-2001 17-05-2000' })).toBeVisible()
  await expect(section.getByRole('row', { name: 'Name asha rao ASHA RAO' })).toBeVisible()
  await expect(admin.getByTestId('kra-record-decision')).toHaveText(
    'Waiting for your decision: the customer cannot pay until then.',
  )
  await expectNoSeriousA11yViolations(admin)
  await section.getByRole('button', { name: 'Accept: the record is the same person' }).click()
  await expect(admin.getByText('Decided: accepted: the record is the same person.')).toBeVisible()
  await expect(admin.getByTestId('kra-record-decision')).toContainText('Accepted: the record is the same person')

  const audited = await withE2eDatabase((client) =>
    client.query<{ actor_id: string }>(
      `SELECT actor_id FROM audit_logs WHERE subject_id = $1 AND action = 'customer.kra-record.accept'`,
      [userId],
    ),
  )
  expect(audited.rows).toEqual([{ actor_id: otherAdmin.userId }])

  await page.goto('/pay')
  await expect(page.getByText(/You cannot pay yet/)).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Pay on Website' })).toBeEnabled()
})

test('an admin who asks for a correction leaves /pay refused, saying what to do', async ({ page, otherAdmin }) => {
  const { userId } = await signInContext(page.context(), {
    completeProfile: true,
    details: { ...ASHA_RAO, pan: `KRAPM${digits()}M` },
  })
  const admin = otherAdmin.page
  await admin.goto(`/admin/customers/${userId}`)
  const section = admin.getByRole('region', { name: "The KRA's record differs from the profile" })
  await expect(section.getByRole('row', { name: 'Name (differs) asha rao RECORD NAME DIFFERS' })).toBeVisible()
  await section.getByRole('button', { name: 'Ask the customer to correct their details' }).click()
  await expect(admin.getByTestId('kra-record-decision')).toContainText(
    'The customer was asked to correct their details',
  )

  await cartOfTwoOnPayPage(page)
  await expect(
    page.getByText(
      'The analyst has checked it and asks you to correct your details: ask for a correction on your KYC details page',
      { exact: false },
    ),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: 'Pay on Website' })).toBeDisabled()
  await page.getByRole('link', { name: 'What to do about your KYC' }).click()
  await expect(page.getByText('The KRA holds: name RECORD NAME DIFFERS, date of birth 17-05-2001.')).toBeVisible()
  await expect(page.getByText(/asks you to correct your details: ask for a correction below/)).toBeVisible()
  await expectNoSeriousA11yViolations(page)
})
