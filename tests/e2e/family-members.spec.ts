import { expectNoSeriousA11yViolations } from './axe'
import { createSignedInUser, expect, test } from './fixtures'
import { fillProfileDetails, uniquePan, useOwnClientAddress } from './sign-in-helpers'
import { ASHA_RAO } from '../support/sample-customer'
import { readStoredPan, storedPan, withE2eDatabase } from './database'

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

const familyOf = (userId: string) =>
  withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ pan: string; relation: string }>(
      'SELECT pan_encrypted AS pan, relation FROM family_members WHERE user_id = $1 ORDER BY created_at',
      [userId],
    )
    return rows.map((row) => ({ ...row, pan: readStoredPan(row.pan) }))
  })

const WHY =
  "SEBI caps the fees a research analyst may charge one family at Rs 1,51,000 a year; we count your family's payments together."

test('step 1 of /details takes family members’ PANs and says which row is wrong', async ({
  customer: { page, userId },
}) => {
  const [spouse, mother] = [uniquePan(), uniquePan()]
  await page.goto('/details')
  await expect(page.getByText(WHY, { exact: false })).toBeVisible()
  await fillProfileDetails(page, { ...ASHA_RAO, pan: uniquePan() })
  await page.getByLabel('Family member 1: PAN').fill(spouse)
  await page.getByLabel('Family member 1: relation').selectOption('Spouse')
  await page.getByRole('button', { name: 'Add a family member' }).click()
  // Without JavaScript the page came back from the server with a second row, what was typed kept.
  await expect(page.getByLabel('Family member 1: PAN')).toHaveValue(spouse)
  await page.getByLabel('Family member 2: PAN').fill('ABCDE1234F')
  await page.getByLabel('Family member 2: relation').selectOption('Parent')
  await expectNoSeriousA11yViolations(page)
  await page.getByRole('button', { name: 'Save and continue' }).click()

  const secondPan = page.getByLabel('Family member 2: PAN')
  await expect(secondPan).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText("This is not an individual's PAN: its fourth letter must be P.")).toBeVisible()
  await expect(page.getByLabel('Family member 1: PAN')).not.toHaveAttribute('aria-invalid', 'true')
  await secondPan.fill(mother)
  await page.getByRole('button', { name: 'Save and continue' }).click()
  await expect(page.getByRole('heading', { name: 'Step 2 of 3: PAN card' })).toBeVisible()
  expect(await familyOf(userId)).toEqual([
    { pan: spouse, relation: 'SPOUSE' },
    { pan: mother, relation: 'PARENT' },
  ])
})

test('a customer edits their family members later, from the account menu', async ({
  customerWithProfile: { page },
}) => {
  const [spouse, mother] = [uniquePan(), uniquePan()]
  await page.goto('/services')
  await page.getByRole('button', { name: 'Account' }).click()
  await page.getByRole('link', { name: 'Family members' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Family members' })).toBeVisible()
  await expect(page.getByText(WHY, { exact: false })).toBeVisible()
  await page.getByLabel('Family member 1: PAN').fill(spouse)
  await page.getByLabel('Family member 1: relation').selectOption('Spouse')
  await page.getByRole('button', { name: 'Add a family member' }).click()
  await page.getByLabel('Family member 2: PAN').fill(mother)
  await page.getByLabel('Family member 2: relation').selectOption('Parent')
  await page.getByRole('button', { name: 'Save family members' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Family members saved.' })).toBeVisible()
  await expect(page.getByLabel('Family member 2: relation')).toHaveValue('PARENT')
  await expectNoSeriousA11yViolations(page)

  await page.getByRole('button', { name: 'Remove family member 1' }).click()
  await expect(page.getByLabel('Family member 1: PAN')).toHaveValue(mother)
  await expect(page.getByLabel('Family member 2: PAN')).toHaveCount(0)
  // The first save's status is still on the page: wait for this save's own answer before reloading.
  const saved = page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' && new URL(response.url()).pathname.startsWith('/family-members'),
  )
  await page.getByRole('button', { name: 'Save family members' }).click()
  await saved
  await expect(page.getByRole('status').filter({ hasText: 'Family members saved.' })).toBeVisible()
  await page.reload()
  await expect(page.getByLabel('Family member 1: PAN')).toHaveValue(mother)
  await expect(page.getByLabel('Family member 2: PAN')).toHaveCount(0)
})

test('a PAN another account holds gets a clear message on the field, not an error page', async ({
  customer: { page },
}) => {
  const taken = uniquePan()
  await createSignedInUser({ details: { ...ASHA_RAO, pan: taken } })
  await page.goto('/details')
  await fillProfileDetails(page, { ...ASHA_RAO, name: 'Ravi Rao', pan: taken.toLowerCase() })
  await page.getByRole('button', { name: 'Save and continue' }).click()

  const pan = page.getByLabel('PAN', { exact: true })
  await expect(pan).toHaveAttribute('aria-invalid', 'true')
  await expect(
    page.getByText(
      "This PAN is already registered with another account. If it is yours, sign in with that account's mobile number; if not, or you no longer have that number, write to us at ",
      { exact: false },
    ),
  ).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Step 1 of 3: Your details' })).toBeVisible()
  await expect(page.getByLabel('Name')).toHaveValue(/ravi rao/i)
  await expectNoSeriousA11yViolations(page)
})

test('an admin sees the declared family PANs and marks a customer exempt from the fee cap, then removes the mark', async ({
  admin: { page },
}) => {
  const customer = await createSignedInUser({ completeProfile: true })
  const spouse = uniquePan()
  await withE2eDatabase((client) =>
    client.query(
      "INSERT INTO family_members (user_id, pan_encrypted, pan_hash, relation) VALUES ($1, $2, $3, 'SPOUSE')",
      [customer.userId, ...storedPan(spouse)],
    ),
  )
  await page.goto(`/admin/customers/${customer.userId}`)
  await expect(page.getByText(`${spouse} (Spouse)`)).toBeVisible()

  await page.getByRole('button', { name: 'Mark exempt from the fee cap' }).click()
  // Without JavaScript the server refuses the empty form; with it, the page does.
  await expect(page.getByText('Choose accredited investor or non-individual client.')).toBeVisible()
  await page.getByLabel('Exempt as').selectOption('Non-individual client')
  await page
    .getByLabel('Grounds for the exemption')
    .fill('A private trust (PAN AAATT1234Q), trust deed seen on 26-11-2026')
  await expectNoSeriousA11yViolations(page)
  await page.getByRole('button', { name: 'Mark exempt from the fee cap' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: 'Marked exempt from the fee cap: Non-individual client.' }),
  ).toBeVisible()
  await expect(
    page.getByText(
      'Exempt: Non-individual client. Reason: A private trust (PAN AAATT1234Q), trust deed seen on 26-11-2026',
    ),
  ).toBeVisible()

  await page.getByRole('button', { name: 'Remove the exemption' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: 'The fee cap applies to this customer again.' }),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: 'Mark exempt from the fee cap' })).toBeVisible()
})
