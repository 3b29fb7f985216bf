import { randomInt } from 'node:crypto'
import type { Locator, Page } from '@playwright/test'
import { withE2eDatabase } from './database'
import { ASHA_RAO } from '../support/sample-customer'
import { uniquePan } from './sign-in-helpers'
import { expect, signInContext, test } from './fixtures'
import { gotoHydrated, hydrated } from './hydration'

// What an admin's form refused is said on the field it concerns, announced with it (aria-invalid,
// aria-describedby) and with what was typed kept, with and without JavaScript; on a 360 px phone.

const PHONE = { width: 360, height: 740 }

test.beforeEach(async ({ page }) => page.setViewportSize(PHONE))

/** The field is marked invalid and its description (hint and errors) holds `message`. */
async function expectRefusedOnField(field: Locator, message: string | RegExp) {
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  await expect(field).toHaveAccessibleDescription(message)
}

/** One unbroken word of `length` characters, unique to this run. */
function longWord(length: number): string {
  const tag = `w${randomInt(1e9)}`
  return tag + 'x'.repeat(length - tag.length)
}

async function fillService(page: Page, name: string, description: string) {
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Description').fill(description)
  await page.getByLabel('Price in rupees').fill('999')
  await page.getByLabel('Duration in days').fill('30')
  await page.getByLabel('Risk level').selectOption({ label: 'High' })
  await page.getByLabel('How and how often the research is delivered').fill('Two to four ideas a week')
}

test('a service description with a 500-character line is accepted and wraps; one over 2,000 characters is refused on the field', async ({
  admin: { page },
}) => {
  const name = `Long line ${randomInt(1e9)}`
  const line = longWord(500)
  await gotoHydrated(page, '/admin/services/new')
  await fillService(page, name, `Weekly ideas\n${line}`)
  await page.getByRole('button', { name: 'Create service' }).click()
  await expect(page.getByText('Service created; it is on sale now.')).toBeVisible()
  try {
    // Hydrated, so that the edit page and its answer come through React, which moves the focus.
    await gotoHydrated(page, '/admin/services')
    await page.getByRole('link', { name: `Edit ${name}` }).click()
    await expect(page.getByLabel('Description')).toHaveValue(`Weekly ideas\n${line}`)

    // Too long as a whole: refused on the description, the limit stated, the text kept.
    const tooLong = `${longWord(1_500)}\n${longWord(501)}`
    await page.getByLabel('Description').fill(tooLong)
    await page.getByRole('button', { name: 'Save service' }).click()
    const description = page.getByLabel('Description')
    await expectRefusedOnField(description, /The description can have at most 2,000 characters\./)
    await expect(description).toHaveValue(tooLong)
    // With JavaScript the focus moves to it (Conform); without, the page comes back whole.
    if (test.info().project.use.javaScriptEnabled !== false) await expect(description).toBeFocused()
  } finally {
    await page.goto('/admin/services')
    await page.getByRole('button', { name: `Take off sale: ${name}` }).click()
    await expect(page.getByRole('article', { name }).getByText('Taken off sale.')).toBeVisible()
  }
})

test('a service named or described in wording the advertisement code forbids is refused on the field, the text kept', async ({
  admin: { page },
}) => {
  const name = `Best Picks ${randomInt(1e9)}`
  const description = 'Momentum ideas\nguaranteed 30% returns'
  await gotoHydrated(page, '/admin/services/new')
  await fillService(page, name, description)
  await page.getByRole('button', { name: 'Create service' }).click()
  const nameField = page.getByLabel('Name')
  const descriptionField = page.getByLabel('Description')
  await expectRefusedOnField(nameField, /SEBI's advertisement code forbids "Best"/)
  await expectRefusedOnField(descriptionField, /SEBI's advertisement code forbids "guaranteed"/)
  await expect(nameField).toHaveValue(name)
  await expect(descriptionField).toHaveValue(description)
  // Nothing was created.
  await page.goto('/admin/services')
  await expect(page.getByRole('article', { name })).toHaveCount(0)
})

test('rejecting a correction request without a reason is refused on the reason box', async ({
  page,
  otherAdmin: { page: admin },
}) => {
  await admin.setViewportSize(PHONE)
  const { userId } = await signInContext(page.context(), {
    completeProfile: true,
    details: { ...ASHA_RAO, email: `asha.refused${randomInt(1e9)}@example.in`, pan: uniquePan() },
  })
  await page.goto('/account/corrections')
  await page.getByLabel('Correct PAN').fill(uniquePan())
  await page.getByLabel('Why the details need correcting').fill('I typed one letter wrong')
  await page.getByRole('button', { name: 'Send correction request' }).click()
  await expect(page.getByText('Your correction request is sent.')).toBeVisible()

  await gotoHydrated(admin, `/admin/customers/${userId}`)
  const reason = admin.getByLabel('Reason for rejecting (sent to the customer)')
  await reason.fill('   ')
  await admin.getByRole('button', { name: 'Reject' }).click()
  await expect(admin.getByRole('alert')).toContainText('Not rejected: the reason below is needed.')
  await expectRefusedOnField(reason, 'Say why you reject it: the customer is sent the reason.')
  await expect(reason).toHaveValue('   ')
})

test('a past time to publish a research draft is refused on the field, with the time kept', async ({
  admin: { page, userId: adminId },
}) => {
  const itemId = await withE2eDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO research_items (title, body, financial_interest, ownership_one_percent, compensation_past_year,
                                   other_conflict, ai_tools_used, author_id)
       VALUES ($1, 'Margins held.', false, false, false, 'None', false, $2) RETURNING id`,
      [`Refused schedule ${randomInt(1e9)}`, adminId],
    )
    await client.query(
      `INSERT INTO research_item_services (item_id, service_id) SELECT $1, id FROM services WHERE name = 'Equity Premium'`,
      [rows[0]!.id],
    )
    return rows[0]!.id
  })
  await gotoHydrated(page, `/admin/research/${itemId}`)
  const publishAt = page.getByLabel('Publish at (India time)')
  await publishAt.fill('2020-01-01T09:00')
  await page.getByRole('button', { name: 'Schedule' }).click()
  await expectRefusedOnField(publishAt, /That time has passed: choose a later minute, or publish now\./)
  await expect(publishAt).toHaveValue('2020-01-01T09:00')
})

test("a complaint step refused because another admin's came first keeps the answer typed", async ({
  admin: { page },
}) => {
  const sourceReference = `SCORES-${randomInt(1e9)}`
  await page.goto('/admin/complaints')
  await page.getByLabel('Source', { exact: true }).selectOption({ label: 'SEBI SCORES' })
  await page.getByLabel('Its reference at the source').fill(sourceReference)
  await page.getByLabel('Category', { exact: true }).selectOption({ label: 'Other' })
  await page.getByLabel('The complaint', { exact: true }).fill('The report came a day late.')
  await page.getByRole('button', { name: 'Enter complaint' }).click()
  await expect(page.getByText(`SEBI SCORES, reference ${sourceReference}`)).toBeVisible()
  await hydrated(page)

  // Another admin's step lands while this one types.
  await withE2eDatabase((client) =>
    client.query('UPDATE complaints SET version = version + 1 WHERE source_reference = $1', [sourceReference]),
  )
  const answer = `We checked the delivery log: it went out late. ${randomInt(1e9)}`
  await page.getByLabel('Mark as').selectOption({ label: 'Answered' })
  await page.getByLabel('Text sent to the complainant').fill(answer)
  await page.getByRole('button', { name: 'Save step' }).click()
  await expect(page.getByRole('alert')).toContainText('Another admin changed this complaint a moment ago.')
  await expect(page.getByLabel('Text sent to the complainant')).toHaveValue(answer)
})

test('on a 360 px phone the admin navigation is one row that opens to every section', async ({ admin: { page } }) => {
  await gotoHydrated(page, '/admin/payments')
  const menu = page.getByText('Admin menu: Payments')
  await expect(menu).toBeVisible()
  // One row, a finger's height (44 px), not the three or four rows of all its links.
  expect((await menu.boundingBox())!.height).toBeLessThanOrEqual(48)
  await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0)

  await menu.click()
  const nav = page.getByRole('navigation', { name: 'Admin' })
  await expect(nav.getByRole('link')).toHaveCount(11)
  await nav.getByRole('link', { name: 'Customers' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible()
  await expect(page.getByText('Admin menu: Customers')).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
})

// A sentence of the terms (app/content/legal/terms.ts).
const TERMS_SENTENCE = 'means this website and every page, form and feature on it.'

function occurrences(text: string, sentence: string) {
  return text.split(sentence).length - 1
}

test('/terms-and-conditions sends the terms once', async ({ page }) => {
  const response = await page.request.get('/terms-and-conditions')
  expect(response.status()).toBe(200)
  expect(occurrences(await response.text(), TERMS_SENTENCE)).toBe(1)
  // And the page still shows them, after hydration too.
  await gotoHydrated(page, '/terms-and-conditions')
  await expect(page.getByText(TERMS_SENTENCE)).toBeVisible()
  // Reached from another page (a client navigation with JavaScript), the text comes in the loader data.
  await gotoHydrated(page, '/services')
  await page.getByRole('contentinfo').getByRole('link', { name: 'Terms and Conditions' }).click()
  await expect(page.getByText(TERMS_SENTENCE)).toBeVisible()
})

test('the agreement step sends the terms once', async ({ page }) => {
  const { userId } = await signInContext(page.context(), { completeProfile: true })
  await withE2eDatabase((client) =>
    client.query('UPDATE users SET agreement_accepted_at = NULL WHERE id = $1', [userId]),
  )
  const response = await page.request.get('/details')
  expect(response.status()).toBe(200)
  expect(occurrences(await response.text(), TERMS_SENTENCE)).toBe(1)
  await gotoHydrated(page, '/details')
  await expect(page.getByText(TERMS_SENTENCE)).toBeVisible()
})
