import { expect, test } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './axe'
import { fillProfileDetails, latestCode, signIn, uniqueMobile, uniquePan, useOwnClientAddress } from './sign-in-helpers'
import { gotoHydrated, hydrated } from './hydration'

// Every test here signs in through /auth, its code sent by the job queue to the dev outbox.
test.describe.configure({ timeout: 120_000 })
test.beforeEach(async ({ page }) => useOwnClientAddress(page))

test('a protected page sends a visitor to sign in, and the number and code sign them in', async ({ page, request }) => {
  await page.goto('/')
  await expect(page).toHaveURL(/\/auth$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Login or sign up' })).toBeVisible()
  await expect(page.getByLabel('Country code')).toHaveValue('IN')
  await expect(page.getByLabel('Country code').locator('option', { hasText: 'India (+91)' })).toHaveCount(1)
  await expect(page.getByText('Our team will never ask you for this code')).toBeVisible()
  await expectNoSeriousA11yViolations(page)

  await signIn(page, request)
  await expect(page.getByRole('heading', { name: 'Step 1 of 3: Your details' })).toBeVisible()
  await expectNoSeriousA11yViolations(page)
})

test('remembers where the visitor was going', async ({ page, request }) => {
  await page.goto('/details?redirectTo=%2Fservices')
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fdetails%3FredirectTo%3D%252Fservices$/)
  await signIn(page, request)
  await expect(page).toHaveURL(/\/details\?redirectTo=%2Fservices$/)
})

test("the header's Login/Sign up brings the visitor back to the page they were on", async ({ page, request }) => {
  await page.goto('/complaint-board')
  await page.getByRole('button', { name: 'Account' }).click()
  await page.getByRole('link', { name: 'Login/Sign up' }).click()
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fcomplaint-board$/)
  // On /auth itself the link keeps the page to come back to.
  await page.getByRole('button', { name: 'Account' }).click()
  await expect(page.getByRole('link', { name: 'Login/Sign up' })).toHaveAttribute(
    'href',
    '/auth?redirectTo=%2Fcomplaint-board',
  )
  await page.keyboard.press('Escape')
  await signIn(page, request)
  await expect(page).toHaveURL(/\/details\?redirectTo=%2Fcomplaint-board$/)
})

test('a wrong code says how many tries are left, and the right one still works', async ({ page, request }) => {
  const mobile = uniqueMobile()
  await page.goto('/auth')
  await page.getByLabel('Mobile number').fill(mobile)
  await page.getByRole('button', { name: 'Send OTP' }).click()
  const code = await latestCode(request, `+91${mobile}`)
  const wrong = code === '000000' ? '111111' : '000000'
  await page.getByLabel('6-digit code').fill(wrong)
  await page.getByRole('button', { name: 'Verify OTP' }).click()
  await expect(page.getByRole('alert')).toHaveText('That code is not right. You have 4 tries left.')
  await page.getByLabel('6-digit code').fill(code)
  await page.getByRole('button', { name: 'Verify OTP' }).click()
  await expect(page).toHaveURL(/\/details/)
})

test('asking for another code at once is refused with the wait, and changing the number goes back', async ({
  page,
  request,
}) => {
  const mobile = uniqueMobile()
  await page.goto('/auth')
  await page.getByLabel('Mobile number').fill(mobile)
  await page.getByRole('button', { name: 'Send OTP' }).click()
  await latestCode(request, `+91${mobile}`)
  const resend = page.getByRole('button', { name: 'Resend code' })
  if (test.info().project.use.javaScriptEnabled === false) {
    await expect(page.getByText(/^You can ask for a new code in \d+ seconds\.$/)).toBeVisible()
    await resend.click()
    await expect(page.getByRole('alert')).toContainText(
      /A code was just sent\. You can ask for another in \d+ seconds\./,
    )
  } else {
    await expect(resend).toBeDisabled()
    await expect(page.getByText(/You can resend in \d+ s\./)).toBeVisible()
  }
  await page.getByRole('button', { name: 'Change number' }).click()
  await expect(page.getByLabel('Mobile number')).toBeVisible()
})

test('a number that is not 10 digits is refused with the typed value kept', async ({ page }) => {
  await page.goto('/auth')
  await page.getByLabel('Mobile number').fill('98765')
  await page.getByRole('button', { name: 'Send OTP' }).click()
  await expect(page.getByText('Enter your 10-digit mobile number, like 98765 43210.')).toBeVisible()
  await expect(page.getByLabel('Mobile number')).toHaveValue('98765')
})

test('an Indian number that cannot be a mobile is refused with a word about the country code, and no code is sent', async ({
  page,
}) => {
  await page.goto('/auth')
  await page.getByLabel('Mobile number').fill('2212345678')
  await page.getByRole('button', { name: 'Send OTP' }).click()
  await expect(page.getByText('Indian mobile numbers start with 6, 7, 8 or 9.')).toBeVisible()
  await expect(page.getByLabel('Mobile number')).toHaveValue('2212345678')
  await expect(page.getByLabel('6-digit code')).toHaveCount(0)
})

test('a number pasted with spaces and +91 is kept whole and signs in', async ({ page, request }) => {
  const mobile = uniqueMobile()
  const pasted = `+91 ${mobile.slice(0, 5)} ${mobile.slice(5)}`
  await page.goto('/auth')
  const field = page.getByLabel('Mobile number')
  await field.focus()
  await page.keyboard.insertText(pasted)
  await expect(field).toHaveValue(pasted)
  expect(await field.evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(true)
  await page.getByRole('button', { name: 'Send OTP' }).click()
  await expect(page.getByText(`We sent a 6-digit code to +91${mobile}`)).toBeVisible()
  await page.getByLabel('6-digit code').fill(await latestCode(request, `+91${mobile}`))
  await page.getByRole('button', { name: 'Verify OTP' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Enter Details' })).toBeVisible()
})

test('the details step shows each error next to its field and keeps what was typed', async ({ page, request }) => {
  await signIn(page, request)
  // The PAN is uppercased as it is typed only once the page's script runs; /details may have come as a
  // whole page, its scripts after the first paint.
  await hydrated(page)
  await page
    .locator('form')
    .first()
    .evaluate((form) => form.setAttribute('novalidate', ''))
  await fillProfileDetails(page, { name: 'Asha Rao', email: 'asha@example', dob: '2001-05-17', pan: 'abcde1234f' })
  await page.getByRole('button', { name: 'Save and continue' }).click()
  await expect(page.getByText('Enter an e-mail address like name@example.com.')).toBeVisible()
  await expect(page.getByText("This is not an individual's PAN: its fourth letter must be P.")).toBeVisible()
  // The name stays as typed; with JavaScript the PAN is uppercased as it is typed, without, the server does it on save.
  const javaScript = test.info().project.use.javaScriptEnabled !== false
  await expect(page.getByLabel('Name')).toHaveValue('Asha Rao')
  await expect(page.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByLabel('E-mail')).toHaveValue('asha@example')
  await expect(page.getByLabel('PAN', { exact: true })).toHaveValue(javaScript ? 'ABCDE1234F' : 'abcde1234f')
})

test('the details step refuses someone under 18', async ({ page, request }) => {
  await signIn(page, request)
  await page
    .locator('form')
    .first()
    .evaluate((form) => form.setAttribute('novalidate', ''))
  const seventeen = new Date()
  seventeen.setFullYear(seventeen.getFullYear() - 17)
  await fillProfileDetails(page, {
    name: 'young one',
    email: 'y@example.in',
    dob: seventeen.toISOString().slice(0, 10),
    pan: 'ABCPE1234F',
  })
  await page.getByRole('button', { name: 'Save and continue' }).click()
  await expect(page.getByText('You must be 18 or older to subscribe.')).toBeVisible()
})

test('the wizard resumes at the details step when left before it, then at the PAN card step', async ({
  page,
  request,
}) => {
  await signIn(page, request)
  await expect(page.getByRole('heading', { name: 'Step 1 of 3: Your details' })).toBeVisible()
  await page.goto('/services')
  await page.goto('/details')
  await expect(page.getByRole('heading', { name: 'Step 1 of 3: Your details' })).toBeVisible()
  await expect(page.getByLabel('Name')).toHaveValue('')

  await fillProfileDetails(page, { name: 'Asha Rao', email: 'Asha@Example.in', dob: '2001-05-17', pan: uniquePan() })
  await page.getByRole('button', { name: 'Save and continue' }).click()
  await expect(page.getByRole('heading', { name: 'Step 2 of 3: PAN card' })).toBeVisible()
  await page.goto('/services')
  await page.goto('/details')
  await expect(page.getByRole('heading', { name: 'Step 2 of 3: PAN card' })).toBeVisible()
})

test('a signed-in user who opens /auth lands on /details, and logging out signs them out and empties the cart', async ({
  page,
  request,
}) => {
  await signIn(page, request)
  await page.goto('/auth')
  await expect(page).toHaveURL(/\/details$/)
  await gotoHydrated(page, '/services')
  // The tick is saved in the cart cookie by its POST: reload only once that answer has come.
  const saved = page.waitForResponse(
    (response) => response.request().method() === 'POST' && new URL(response.url()).pathname.startsWith('/services'),
  )
  await page.getByRole('checkbox').first().click()
  await saved
  await expect(page.getByRole('checkbox').first()).toBeChecked()
  await page.reload()
  await expect(page.getByRole('checkbox').first()).toBeChecked()

  await page.getByRole('button', { name: 'Account' }).click()
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/services$/)
  await expect(page.getByRole('status').filter({ hasText: 'You are signed out.' })).toBeVisible()
  await expect(page.getByRole('checkbox').first()).not.toBeChecked()
  await page.goto('/details')
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fdetails$/)
})

test('a form posted from another site is refused', async ({ request }) => {
  const response = await request.post('/auth', {
    headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
    data: 'intent=send&country=IN&mobile=9876543210',
  })
  expect(response.status()).toBe(403)
})
