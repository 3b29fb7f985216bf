import type { Page } from '@playwright/test'
import { formatIndiaDate } from '../../app/domain/dates'
import { subscriptionEndsAt } from '../../app/domain/subscriptions'
import { E2E_BUSINESS_DETAILS } from '../fixtures/business-details'
import { expectNoSeriousA11yViolations } from './axe'
import { CLAIMED_SERVICE, claimBankTransfer } from './bank-claims'
import { withE2eDatabase } from './database'
import { ASHA_RAO, uniqueMobile, uniquePan } from '../support/sample-customer'
import { expect, signInContext, test } from './fixtures'
import { emailsTo, useOwnClientAddress } from './sign-in-helpers'

/** The e-mail every claim gets at once (one-promise-per-fact.spec.ts); these tests read the one after the decision. */
const CLAIM_RECEIVED = 'We got your bank transfer claim'

/** `page` signed in as a customer with a complete profile and an e-mail address of their own (the tests read their mail). */
async function customerWithProfile(page: Page) {
  const email = `asha${uniqueMobile()}@example.in`
  const { phone } = await signInContext(page.context(), {
    completeProfile: true,
    details: { ...ASHA_RAO, email, pan: uniquePan() },
  })
  return { phone, email }
}

const pendingSection = (page: Page) => page.locator('details', { hasText: 'Payment(s) Pending for Verification' })

/** The customer's bank transfer claim, made as a customer makes it: /services, /pay, Pay Manually, I'll Pay & Send Screenshot. */
async function claimManualPayment(page: Page, utr: string) {
  await page.goto('/services')
  const checkbox = page.getByRole('checkbox', { name: CLAIMED_SERVICE.name, exact: true })
  await checkbox.click()
  await expect(checkbox).toBeChecked()
  await page.getByRole('link', { name: 'Proceed to Pay' }).click()
  await page.getByRole('link', { name: 'Pay Manually' }).click()
  const dialog = page.getByRole('dialog', { name: 'Manual Payment Instructions' })
  await dialog.getByLabel('Bank transfer reference (UTR), if you have it').fill(utr)
  await dialog.getByRole('button', { name: "I'll Pay & Send Screenshot" }).click()
  await expect(page).toHaveURL(/\/subscriptions\?from=payment$/)
  await expect(pendingSection(page).getByRole('heading', { name: 'Manual Payment' })).toHaveCount(1)
}

/** The customer's cards under "My Subscription(s)" on /subscriptions. */
const subscriptionCard = (page: Page, serviceName: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: serviceName, exact: true }) })

function pendingCard(page: Page, phone: string) {
  return page.getByRole('article', { name: new RegExp(phone.replace('+', '\\+')) })
}

test.beforeEach(async ({ page }) => useOwnClientAddress(page))

test('an admin confirms a manual payment and the customer then has the subscription', async ({
  page,
  request,
  otherAdmin: { page: admin, phone: adminPhone },
}) => {
  // Two signed-in pages, a refused and an accepted confirmation, and three axe audits.
  test.slow()
  const customer = await customerWithProfile(page)
  const utr = `UTR${Date.now()}`
  await claimManualPayment(page, utr)
  await expect(page.getByText('No active subscriptions')).toBeVisible()

  await admin.goto('/services')
  await admin.getByRole('button', { name: 'Account' }).click()
  await admin.getByRole('link', { name: 'Admin', exact: true }).click()
  await expect(admin).toHaveURL(/\/admin\/payments$/)
  await expect(admin.getByRole('heading', { name: 'Payments to review' })).toBeVisible()
  const card = pendingCard(admin, customer.phone)
  await expect(card).toContainText(utr)
  await expect(card).toContainText(`${CLAIMED_SERVICE.name}: Rs. 2,999`)
  await expect(card).toContainText('Time left before expiry')
  await expect(card).toContainText(/6 days 23 hours|7 days/)
  await expectNoSeriousA11yViolations(admin)
  // The subscription runs from the confirmation: its end date is one of these (should India's midnight fall in between).
  const endsOn = new Set([formatIndiaDate(subscriptionEndsAt(new Date(), CLAIMED_SERVICE.durationDays))])
  await card.getByRole('button', { name: 'Confirm' }).click()
  // A second step, with or without JavaScript: nothing is confirmed until "Yes, confirm".
  const question = pendingCard(admin, customer.phone).getByText(/^Confirm payment of Rs\. 2,999 from asha rao\?$/i)
  await expect(question).toBeVisible()
  await expect(pendingCard(admin, customer.phone).getByRole('link', { name: 'Cancel' })).toBeVisible()
  await expectNoSeriousA11yViolations(admin)
  // The admin types what the bank statement shows. A payer name unlike the KYC name is refused
  // without a reason, the error on the reason's field and the typed values kept (with or without JavaScript).
  const confirmStep = pendingCard(admin, customer.phone)
  await confirmStep.getByRole('textbox', { name: 'UTR on the bank statement' }).fill('HDFC0000777666')
  await confirmStep.getByRole('textbox', { name: "Payer's account name on the bank statement" }).fill('Priya Mehta')
  await confirmStep.getByRole('button', { name: 'Yes, confirm' }).click()
  const reason = pendingCard(admin, customer.phone).getByRole('textbox', { name: /^Reason for accepting a payer name/ })
  await expect(reason).toHaveAttribute('aria-invalid', 'true')
  await expect(reason).toHaveAccessibleDescription(
    /^The payer's name "Priya Mehta" does not match the KYC name "ASHA RAO"\. Give the reason you accept this payment/,
  )
  await expect(
    pendingCard(admin, customer.phone).getByRole('textbox', { name: 'UTR on the bank statement' }),
  ).toHaveValue('HDFC0000777666')
  await expectNoSeriousA11yViolations(admin)
  await pendingCard(admin, customer.phone)
    .getByRole('textbox', { name: "Payer's account name on the bank statement" })
    .fill('RAO ASHA')
  await pendingCard(admin, customer.phone).getByRole('button', { name: 'Yes, confirm' }).click()
  await expect(admin.getByRole('status')).toHaveText(
    'Payment confirmed; the subscriptions are active and the customer was e-mailed.',
  )
  endsOn.add(formatIndiaDate(subscriptionEndsAt(new Date(), CLAIMED_SERVICE.durationDays)))
  await expect(pendingCard(admin, customer.phone)).toHaveCount(0)

  await page.goto('/subscriptions')
  await expect(page.getByRole('heading', { level: 1, name: 'My Subscription(s)' })).toBeVisible()
  await expect(subscriptionCard(page, CLAIMED_SERVICE.name)).toContainText(
    new RegExp(`Ends on (${[...endsOn].join('|')})RenewRenew automaticallyEnd subscription$`),
  )
  await expect(pendingSection(page)).toHaveCount(0)
  expect(await emailsTo(request, customer.email, { except: [CLAIM_RECEIVED] })).toEqual([
    expect.objectContaining({ subject: 'Your payment is confirmed' }),
  ])

  // The payments page shows what the statement said.
  await admin.goto('/admin/payments?method=MANUAL')
  const confirmed = admin.getByRole('article', { name: `Bank transfer ${utr}` })
  await expect(confirmed).toContainText('UTR on the bank statement: HDFC0000777666')
  await expect(confirmed).toContainText('Paid from the account of: RAO ASHA (Matches the KYC name)')

  await admin.goto('/admin/audit')
  const entries = admin.getByRole('listitem').filter({ hasText: 'payment.confirm on Payment' })
  await expect(entries.filter({ hasText: adminPhone })).toHaveCount(1)
})

test('the claim of an account closed meanwhile cannot be confirmed: a clear refusal, nothing paid', async ({
  page,
  otherAdmin: { page: admin },
}) => {
  // Two signed-in pages and an axe audit of the admin page after a refusal.
  test.slow()
  const customer = await customerWithProfile(page)
  // The claim as "I'll Pay & Send Screenshot" records it (the first test makes one through the pages).
  await claimBankTransfer(customer.phone)
  await admin.goto('/admin/payments')
  await pendingCard(admin, customer.phone).getByRole('button', { name: 'Confirm' }).click()
  await expect(pendingCard(admin, customer.phone).getByRole('button', { name: 'Yes, confirm' })).toBeVisible()
  // The customer's account is closed while the admin looks (a claim left pending by an older closing).
  await withE2eDatabase((db) => db.query('UPDATE users SET closed_at = now() WHERE phone = $1', [customer.phone]))

  await pendingCard(admin, customer.phone)
    .getByRole('textbox', { name: 'UTR on the bank statement' })
    .fill('SBIN00001111')
  await pendingCard(admin, customer.phone)
    .getByRole('textbox', { name: "Payer's account name on the bank statement" })
    .fill(ASHA_RAO.name)
  await pendingCard(admin, customer.phone).getByRole('button', { name: 'Yes, confirm' }).click()

  await expect(admin.getByRole('alert')).toHaveText(
    /^The customer closed their account on \d{2}-\d{2}-\d{4}: this claim cannot be confirmed and nothing was paid\./,
  )
  await expectNoSeriousA11yViolations(admin)
  const { rows } = await withE2eDatabase((db) =>
    db.query<{ status: string; subscriptions: string }>(
      `SELECT p.status, (SELECT count(*) FROM subscriptions s WHERE s.payment_id = p.id) AS subscriptions
       FROM payments p JOIN users u ON u.id = p.user_id WHERE u.phone = $1`,
      [customer.phone],
    ),
  )
  expect(rows).toEqual([{ status: 'PENDING_VERIFICATION', subscriptions: '0' }])
})

test('an admin rejects a manual payment with a reason and the customer’s pending card is gone', async ({
  page,
  request,
  otherAdmin: { page: admin },
}) => {
  const customer = await customerWithProfile(page)
  await claimManualPayment(page, `UTR${Date.now()}`)

  await admin.goto('/admin/payments')
  const card = pendingCard(admin, customer.phone)
  await card.getByText('Reject…').click()
  await card
    .getByLabel('Reason for rejecting (sent to the customer)')
    .fill('No transfer with this UTR reached our account')
  await card.getByRole('button', { name: 'Reject payment' }).click()
  await expect(admin.getByRole('status')).toHaveText('Payment rejected; the customer was e-mailed the reason.')
  await expect(pendingCard(admin, customer.phone)).toHaveCount(0)

  await page.goto('/subscriptions')
  await expect(page.getByRole('heading', { level: 1, name: 'My Subscription(s)' })).toBeVisible()
  await expect(pendingSection(page)).toHaveCount(0)
  await expect(page.getByText('No active subscriptions')).toBeVisible()
  const [mail] = await emailsTo(request, customer.email, { except: [CLAIM_RECEIVED] })
  expect(mail).toMatchObject({ subject: 'We could not verify your payment' })
  expect(mail!.body).toContain('\nReason: No transfer with this UTR reached our account\n')
  // Who wrote, how to reach them, and what to do next.
  expect(mail!.body).toMatch(/^Hello Asha Rao,\n/)
  for (const line of [
    E2E_BUSINESS_DETAILS.name,
    `SEBI Registered Research Analyst, Registration No. ${E2E_BUSINESS_DETAILS.sebiRegistrationNumber}`,
    E2E_BUSINESS_DETAILS.supportEmail,
    E2E_BUSINESS_DETAILS.supportPhone,
    'See the claim and pay again: http://localhost:',
  ])
    expect(mail!.body).toContain(line)
})

test('rejecting without a real reason shows the error next to the field and keeps the claim', async ({
  page,
  otherAdmin: { page: admin },
}) => {
  const customer = await customerWithProfile(page)
  await claimManualPayment(page, `UTR${Date.now()}`)

  await admin.goto('/admin/payments')
  const card = pendingCard(admin, customer.phone)
  await card.getByText('Reject…').click()
  // Blanks pass the browser's required check; the schema (client with JavaScript, server without) refuses them.
  const reason = card.getByLabel('Reason for rejecting (sent to the customer)')
  await reason.fill('   ')
  await card.getByRole('button', { name: 'Reject payment' }).click()
  const refusedCard = pendingCard(admin, customer.phone)
  await expect(refusedCard.getByText('Give the reason for rejecting this payment; the customer sees it.')).toBeVisible()
  await expect(refusedCard.getByLabel('Reason for rejecting (sent to the customer)')).toHaveAttribute(
    'aria-invalid',
    'true',
  )
  await expectNoSeriousA11yViolations(admin)
  await admin.goto('/admin/payments')
  await expect(pendingCard(admin, customer.phone)).toHaveCount(1)
})

test('after a refused reason the Reject panel stays open while the reason is typed, and rejects', async ({
  page,
  otherAdmin: { page: admin },
}) => {
  const customer = await customerWithProfile(page)
  await claimManualPayment(page, `UTR${Date.now()}`)

  await admin.goto('/admin/payments')
  const card = () => pendingCard(admin, customer.phone)
  await card().getByText('Reject…').click()
  await card().getByLabel('Reason for rejecting (sent to the customer)').fill('   ')
  await card().getByRole('button', { name: 'Reject payment' }).click()
  await expect(card().getByText('Give the reason for rejecting this payment; the customer sees it.')).toBeVisible()
  await card().getByLabel('Reason for rejecting (sent to the customer)').fill('No transfer with this UTR')
  await card().getByLabel('Reason for rejecting (sent to the customer)').blur()
  await expect(card().getByRole('button', { name: 'Reject payment' })).toBeVisible()
  await card().getByRole('button', { name: 'Reject payment' }).click()
  await expect(admin.getByRole('status')).toHaveText('Payment rejected; the customer was e-mailed the reason.')
})

test('Cancel on the confirmation step leaves the claim pending', async ({ page, otherAdmin: { page: admin } }) => {
  const customer = await customerWithProfile(page)
  await claimManualPayment(page, `UTR${Date.now()}`)
  await admin.setViewportSize({ width: 360, height: 740 })
  await admin.goto('/admin/payments')
  await pendingCard(admin, customer.phone).getByRole('button', { name: 'Confirm' }).click()
  await expect(pendingCard(admin, customer.phone).getByRole('button', { name: 'Yes, confirm' })).toBeVisible()
  const overflow = await admin.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
  expect(overflow, 'the confirmation step is wider than the phone').toBeLessThanOrEqual(0)
  await pendingCard(admin, customer.phone).getByRole('link', { name: 'Cancel' }).click()
  await expect(pendingCard(admin, customer.phone).getByRole('button', { name: 'Yes, confirm' })).toHaveCount(0)
  await expect(pendingCard(admin, customer.phone).getByRole('button', { name: 'Confirm' })).toBeVisible()
  await expect(admin.getByRole('status')).toHaveCount(0)
})

test('the admin console is a plain 404 for a customer and for a visitor', async ({ page }) => {
  const visitor = await page.goto('/admin/payments')
  expect(visitor?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: '404 Not Found' })).toBeVisible()
  await signInContext(page.context())
  await page.goto('/details')
  await page.getByRole('button', { name: 'Account' }).click()
  await expect(page.getByRole('link', { name: 'Subscriptions', exact: true })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Admin', exact: true })).toHaveCount(0)
  const customer = await page.goto('/admin')
  expect(customer?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: '404 Not Found' })).toBeVisible()
})

test('the admin pages fit a phone screen without sideways scrolling', async ({ page, otherAdmin: { page: admin } }) => {
  const customer = await customerWithProfile(page)
  await claimManualPayment(page, `UTR${'9'.repeat(19)}`) // the longest reference: 22 characters
  await admin.setViewportSize({ width: 360, height: 740 })
  for (const path of ['/admin/payments', '/admin/audit']) {
    await admin.goto(path)
    const overflow = await admin.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow, `${path} is wider than the phone`).toBeLessThanOrEqual(0)
  }
  await expectNoSeriousA11yViolations(admin)
  await admin.goto('/admin/payments')
  await expect(pendingCard(admin, customer.phone).getByRole('button', { name: 'Confirm' })).toBeVisible()
})

test('gateway payments are listed read-only with their gateway ids and filter by status and date', async ({
  admin: { page: admin },
}) => {
  const orderId = `order_e2e${Date.now()}${Math.floor(Math.random() * 1000)}`
  await withE2eDatabase((client) =>
    client.query(
      `WITH u AS (INSERT INTO users (phone) VALUES ($2) RETURNING id)
       INSERT INTO payments (user_id, method, status, amount_paise, currency, cart, gateway_order_id, failure_reason, created_at)
       SELECT u.id, 'GATEWAY', 'FAILED', s.price_paise, 'INR',
              jsonb_build_array(jsonb_build_object('serviceId', s.id, 'name', s.name, 'pricePaise', s.price_paise, 'durationDays', s.duration_days)),
              $1, 'Card declined', '2026-11-20T18:00:00Z'
       FROM u, (SELECT * FROM services WHERE active ORDER BY sort_order, name LIMIT 1) s`,
      [orderId, `+91${uniqueMobile()}`],
    ),
  )
  const row = (page: Page) => page.getByRole('article', { name: `Gateway payment ${orderId}` })

  await admin.goto('/admin/payments')
  await admin.getByLabel('Status').selectOption('FAILED')
  // 18:00 UTC on 20 November is 23:30 on 20 November in India.
  await admin.getByLabel('From (India date)').fill('2026-11-20')
  await admin.getByLabel('To (India date)').fill('2026-11-20')
  await admin.getByRole('button', { name: 'Filter' }).click()
  await expect(admin).toHaveURL(/status=FAILED&from=2026-11-20&to=2026-11-20/)
  await expect(row(admin)).toContainText('Card declined')
  await expect(row(admin)).toContainText('20-11-2026 23:30 IST')
  await expect(row(admin).getByRole('button')).toHaveCount(0)

  await admin.getByLabel('Status').selectOption('PAID')
  await admin.getByRole('button', { name: 'Filter' }).click()
  await expect(admin).toHaveURL(/status=PAID/)
  await expect(row(admin)).toHaveCount(0)
})
