import { readFile } from 'node:fs/promises'
import { test as base, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { E2E_BUSINESS_ENV } from '../fixtures/business-details'
import { e2eDatabaseUrlFile } from './database'
import { useOwnClientAddress } from './sign-in-helpers'
import type { signedInUser, SignedInUserOptions } from '../support/sessions'

// Signed-in people for the specs that are not about signing in: the user, their profile and a
// Session row are made in the test process by the functions the sign-in and the profile wizard
// call (tests/support/sessions.ts), against the end-to-end server's database, and the signed
// session cookie goes into the browser. Only sign-in.spec.ts and profile-wizard.spec.ts (and the
// specs about the API's own sign-in) go through /auth and the SMS outbox.

export type SignedInPerson = { userId: string; phone: string }

let sessions: Promise<{ signedInUser: typeof signedInUser }> | undefined

/**
 * The app's server modules, loaded once per worker with the server's settings: its database
 * (tests/e2e/serve.ts writes the URL once it is up, before any test runs), demo mode (so the
 * cookie is `session`, signed with the same `.data/demo-secret` key) and the business details
 * the agreement text is made from.
 */
function serverFunctions() {
  sessions ??= (async () => {
    process.env.DATABASE_URL = (await readFile(e2eDatabaseUrlFile(), 'utf8')).trim()
    process.env.DEMO_MODE = '1'
    Object.assign(process.env, E2E_BUSINESS_ENV)
    return import('../support/sessions')
  })()
  return sessions
}

/** A new signed-in user (see `signedInUser`), made directly in the server's database. */
export async function createSignedInUser(options: SignedInUserOptions = {}) {
  return (await serverFunctions()).signedInUser(options)
}

/** Signs `context` (a browser's, or the one a page belongs to) in as a new user; no page is loaded. */
export async function signInContext(
  context: BrowserContext,
  options: SignedInUserOptions = {},
): Promise<SignedInPerson> {
  const { userId, phone, cookie } = await createSignedInUser(options)
  const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)]
  const url = base.info().project.use.baseURL!
  await context.addCookies([{ name, value, url, httpOnly: true, sameSite: 'Lax' }])
  return { userId, phone }
}

export type SignedInPage = SignedInPerson & { page: Page }

/** The contexts a fixture signed in already: a test has one person on its own `page`. */
const signedInContexts = new WeakSet<BrowserContext>()

async function signInTestPage(page: Page, options: SignedInUserOptions): Promise<SignedInPage> {
  if (signedInContexts.has(page.context()))
    throw new Error('A test signs its own page in as one person; use otherAdmin for a second one')
  signedInContexts.add(page.context())
  return { ...(await signInContext(page.context(), options)), page }
}

/** A browser context of its own with this project's settings (JavaScript on or off), for a second person in a test. */
async function newPage(browser: Browser): Promise<Page> {
  const { baseURL, javaScriptEnabled } = base.info().project.use
  const context = await browser.newContext({ baseURL, javaScriptEnabled })
  const page = await context.newPage()
  await useOwnClientAddress(page)
  return page
}

// Each is `{ page, phone, userId }`: the test's own `page` (already signed in, nothing loaded yet),
// except otherAdmin's, which is a page of its own.
export const test = base.extend<
  {
    /** A new customer who has not started the profile wizard. */
    customer: SignedInPage
    /** A new customer with all three profile steps done (Asha Rao's details). */
    customerWithProfile: SignedInPage
    /** A new admin (role ADMIN, as ADMIN_PHONES gives it at sign-in). */
    admin: SignedInPage
    /** A second person in the test: an admin in a browser context of their own, with this project's settings. */
    otherAdmin: SignedInPage
  },
  { serverModules: void }
>({
  // Loading the app's server modules (Prisma's compiler among them) took a worker's first test 50 s
  // of its 60 at a load average of 30: loaded once per worker, on a clock of its own.
  serverModules: [
    // Playwright reads a fixture's dependencies from its first parameter, which must be a pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      await serverFunctions()
      await use()
    },
    { scope: 'worker', auto: true, timeout: 180_000 },
  ],
  customer: async ({ page }, use) => use(await signInTestPage(page, {})),
  customerWithProfile: async ({ page }, use) => use(await signInTestPage(page, { completeProfile: true })),
  admin: async ({ page }, use) => use(await signInTestPage(page, { role: 'ADMIN' })),
  otherAdmin: async ({ browser }, use) => {
    const page = await newPage(browser)
    await use({ ...(await signInContext(page.context(), { role: 'ADMIN' })), page })
    await page.context().close()
  },
})

export { expect } from '@playwright/test'
