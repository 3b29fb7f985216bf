import { randomInt, randomUUID } from 'node:crypto'
import { feeCapRefusal, feeCapRefusalMessage, SEBI_FEE_CAP_PAISE, taxableValuePaise } from '../../app/domain/fee-cap'
import { expectNoSeriousA11yViolations } from './axe'
import { PREMIUM } from './cart-helpers'
import { storedPan, withE2eDatabase } from './database'
import { expect, test } from './fixtures'
import { uniquePan, useOwnClientAddress } from './sign-in-helpers'
import { tickService } from './cart'

// The family fee cap (docs/payments.md): SEBI caps the fees one family pays a research analyst at Rs 1,51,000 a year,
// before GST. /pay says so before the customer presses, and refuses both ways to pay.

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

/** The e2e server's business is GST-registered at 18%. */
const GST_RATE_BASIS_POINTS = 1800
/** Rs 1,77,000 with GST: Rs 1,50,000 before it, leaving Rs 1,000 of the cap. */
const SPOUSE_PAID_PAISE = 17_700_000
const SPOUSE_GST_PAISE = 2_700_000
const PREMIUM_PRICE_PAISE = 299_900

/** A spouse with an account, whom the customer declared, paid Rs 1,77,000 just now (straight in the database). */
async function spousePaidNearTheCap(customerId: string, paidAt: Date) {
  await withE2eDatabase(async (client) => {
    const pan = uniquePan()
    const {
      rows: [spouse],
    } = await client.query<{ id: string }>(
      `INSERT INTO users (phone, pan_encrypted, pan_hash) VALUES ($1, $2, $3) RETURNING id`,
      [`+9197${String(randomInt(0, 100_000_000)).padStart(8, '0')}`, ...storedPan(pan)],
    )
    await client.query(
      `INSERT INTO family_members (user_id, pan_encrypted, pan_hash, relation) VALUES ($1, $2, $3, 'SPOUSE')`,
      [customerId, ...storedPan(pan)],
    )
    const {
      rows: [payment],
    } = await client.query<{ id: string }>(
      `INSERT INTO payments (user_id, method, status, amount_paise, cart, paid_at, paid_via, expires_at)
       VALUES ($1, 'MANUAL', 'PAID', $2, '[]', $3, 'admin', $3) RETURNING id`,
      [spouse!.id, SPOUSE_PAID_PAISE, paidAt],
    )
    await client.query(
      `INSERT INTO ledger_entries (user_id, kind, payment_id, amount_paise, gst_paise, gst_rate_basis_points, seller_gstin, document_number, occurred_at)
       VALUES ($1, 'PAYMENT', $2, $3, $4, $5, '00AAAAA0000A1Z5', $6, $7)`,
      [
        spouse!.id,
        payment!.id,
        SPOUSE_PAID_PAISE,
        SPOUSE_GST_PAISE,
        GST_RATE_BASIS_POINTS,
        `E2E/${randomUUID().slice(0, 8)}`,
        paidAt,
      ],
    )
  })
}

test('a family near the fee cap: /pay says so before paying and refuses both ways to pay', async ({
  customerWithProfile: { page, userId },
}) => {
  const paidAt = new Date()
  await spousePaidNearTheCap(userId, paidAt)
  const refusal = feeCapRefusal({
    now: paidAt,
    window: 'rolling-12-months',
    capPaise: SEBI_FEE_CAP_PAISE,
    paid: [{ paidAt, taxablePaise: SPOUSE_PAID_PAISE - SPOUSE_GST_PAISE }],
    committedPaise: 0,
    purchasePaise: taxableValuePaise(PREMIUM_PRICE_PAISE, GST_RATE_BASIS_POINTS),
  })
  const message = feeCapRefusalMessage(refusal!)
  expect(message).toContain('Your family has Rs 1,000 of it left; this purchase is Rs 2,541.53 before GST.')

  await tickService(page, PREMIUM)
  await page.goto('/pay')
  await expect(page.getByRole('status').filter({ hasText: message })).toBeVisible()
  await expectNoSeriousA11yViolations(page)

  await page.getByRole('button', { name: 'Pay on Website' }).click()
  await expect(page.getByRole('alert')).toHaveText(message)

  await page.getByRole('link', { name: 'Pay Manually' }).click()
  const dialog = page.getByRole('dialog', { name: 'Manual Payment Instructions' })
  await dialog.getByRole('button', { name: "I'll Pay & Send Screenshot" }).click()
  await expect(dialog.getByRole('alert')).toContainText(message)
  expect(
    await withE2eDatabase(
      async (client) => (await client.query('SELECT 1 FROM payments WHERE user_id = $1', [userId])).rowCount,
    ),
  ).toBe(0)
})

test('an accredited investor whose certificate the analyst recorded opts in on their account page, then withdraws', async ({
  customerWithProfile: { page, userId },
}) => {
  await withE2eDatabase((client) =>
    client.query(
      `UPDATE users SET fee_cap_exemption = 'ACCREDITED_INVESTOR', fee_cap_exemption_reason = 'Certificate seen',
         accreditation_certificate = 'AI-E2E-0042', accreditation_valid_until = '2099-12-31' WHERE id = $1`,
      [userId],
    ),
  )
  await page.goto('/account')
  await expect(page.getByText('The yearly fee limit applies to you.')).toBeVisible()
  await page.getByRole('link', { name: 'Choose to be treated as an accredited investor' }).click()
  await expect(page.getByRole('heading', { name: 'Accredited investor' })).toBeVisible()
  await expect(page.getByText(/accreditation certificate AI-E2E-0042 valid until 31-12-2099/)).toBeVisible()
  await expectNoSeriousA11yViolations(page)

  await page.getByLabel('I confirm this statement and choose to be treated as an accredited investor.').check()
  await page.getByRole('button', { name: 'Record my choice' }).click()
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: 'Recorded: you are treated as an accredited investor until 31-12-2099.' }),
  ).toBeVisible()
  await expect(page.getByText('The fee limit does not apply to your fees.')).toBeVisible()

  await page.getByRole('button', { name: 'Withdraw my choice' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: 'Withdrawn: the fee cap applies to you again.' }),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: 'Record my choice' })).toBeVisible()
})
