import { test, type APIRequestContext, type Browser, type Page } from '@playwright/test'
import { withE2eDatabase } from './database'
import { signIn, useOwnClientAddress } from './sign-in-helpers'

/** A browser context of its own with this project's settings (JavaScript on or off), for a second person in a test. */
export async function newPage(browser: Browser): Promise<Page> {
  const { baseURL, javaScriptEnabled } = test.info().project.use
  const context = await browser.newContext({ baseURL, javaScriptEnabled })
  const page = await context.newPage()
  await useOwnClientAddress(page)
  return page
}

/** Signs `page` in with a new number and makes that user an admin, as ADMIN_PHONES would. */
export async function signInAsAdmin(page: Page, request: APIRequestContext): Promise<string> {
  const phone = await signIn(page, request)
  await withE2eDatabase((client) => client.query(`UPDATE users SET role = 'ADMIN' WHERE phone = $1`, [phone]))
  return phone
}
