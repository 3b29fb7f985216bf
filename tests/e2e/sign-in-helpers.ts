import { randomInt } from 'node:crypto'
import { expect, type APIRequestContext, type Page } from '@playwright/test'
import { ASHA_RAO, PNG_1X1, uniqueMobile, uniquePan } from '../support/sample-customer'

export { PNG_1X1, uniqueMobile, uniquePan }

/**
 * Every test appears to come from its own address (the server trusts X-Forwarded-For from loopback),
 * so the per-IP sign-in limits of one test do not spill into another.
 */
export async function useOwnClientAddress(page: Page) {
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` })
}

/** The newest code the dev outbox delivered to `phone`, waiting for the job queue to send it. */
export async function latestCode(request: APIRequestContext, phone: string, notBefore = 0): Promise<string> {
  let code = ''
  await expect
    .poll(
      async () => {
        const response = await request.get(`/dev/outbox.json?to=${encodeURIComponent(phone)}`)
        const { messages } = (await response.json()) as { messages: { id: number; body: string }[] }
        const newest = messages.find((message) => message.id > notBefore)
        code = newest?.body.match(/\b(\d{6})\b/)?.[1] ?? ''
        return code
      },
      { timeout: 15_000, message: `an SMS to ${phone} in the dev outbox` },
    )
    .toMatch(/^\d{6}$/)
  return code
}

/**
 * The e-mails the dev outbox delivered to `email`, waiting for the send-email job; with `except`,
 * those whose subject is not one of them (the "we got your claim" e-mail that comes before a decision).
 */
export async function emailsTo(request: APIRequestContext, email: string, { except = [] as string[] } = {}) {
  let messages: { subject: string; body: string }[] = []
  await expect
    .poll(
      async () => {
        const response = await request.get(`/dev/outbox.json?to=${encodeURIComponent(email)}`)
        messages = ((await response.json()) as { messages: typeof messages }).messages.filter(
          (message) => !except.includes(message.subject),
        )
        return messages.length
      },
      { timeout: 15_000, message: `an e-mail to ${email} in the dev outbox` },
    )
    .toBeGreaterThan(0)
  return messages
}

/** Signs in through /auth as a person would; returns the E.164 number used. */
export async function signIn(page: Page, request: APIRequestContext, mobile = uniqueMobile()): Promise<string> {
  const phone = `+91${mobile}`
  if (!page.url().includes('/auth')) await page.goto('/auth')
  await page.getByLabel('Mobile number').fill(mobile)
  await page.getByRole('button', { name: 'Send OTP' }).click()
  await expect(page.getByText(`We sent a 6-digit code to ${phone}`)).toBeVisible()
  await page.getByLabel('6-digit code').fill(await latestCode(request, phone))
  await page.getByRole('button', { name: 'Verify OTP' }).click()
  // The URL changes before the page's content arrives; wait for the page itself.
  await expect(page.getByRole('heading', { level: 1, name: 'Enter Details' })).toBeVisible()
  return phone
}

export async function fillProfileDetails(
  page: Page,
  details: { name: string; email: string; dob: string; pan: string },
) {
  await page.getByLabel('Name').fill(details.name)
  await page.getByLabel('E-mail').fill(details.email)
  await page.getByLabel('Date of birth').fill(details.dob)
  await page.getByLabel('PAN', { exact: true }).fill(details.pan)
}

/** Step 1 of /details with valid details (Asha Rao's, at `email`, with a PAN of its own), through to step 2. */
export async function completeDetailsStep(page: Page, email = ASHA_RAO.email) {
  await fillProfileDetails(page, { ...ASHA_RAO, email, pan: uniquePan() })
  await page.getByRole('button', { name: 'Save and continue' }).click()
  await expect(page.getByRole('heading', { name: 'Step 2 of 3: PAN card' })).toBeVisible()
}

/** Step 2 of /details with a valid image, through to step 3. */
export async function completePanCardStep(page: Page) {
  await page
    .getByLabel('Upload Pan Card under 10MB')
    .setInputFiles({ name: 'pan.png', mimeType: 'image/png', buffer: PNG_1X1 })
  await page.getByRole('button', { name: 'Upload and continue' }).click()
  await expect(page.getByRole('heading', { name: 'Step 3 of 3: Terms and Agreement' })).toBeVisible()
}

/** The boxes of step 3 of /details, one a document (app/domain/consent.ts), in the page's order. */
export const ACKNOWLEDGEMENT_LABELS = [
  'I have read and accept the Terms and Conditions.',
  'I have read and understood the Most Important Terms and Conditions (MITC).',
  'I give the consent statement above, in its words.',
  'I have read the Investor Charter for research analysts.',
  /^I consent to the processing of my personal data/,
] as const

/** Ticks every acknowledgement of step 3 of /details (the button is the caller's). */
export async function tickAcknowledgements(page: Page) {
  for (const label of ACKNOWLEDGEMENT_LABELS) await page.getByLabel(label).check()
}

/** Step 3 of /details: every box ticked, then "Accept Terms and Continue" (where it lands is the caller's to check). */
export async function completeAgreementStep(page: Page) {
  await tickAcknowledgements(page)
  await page.getByRole('button', { name: 'Accept Terms and Continue' }).click()
}
