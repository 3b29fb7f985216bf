import type { APIRequestContext, Page } from '@playwright/test'
import { withE2eDatabase } from './database'
import { signIn } from './sign-in-helpers'

/** Signs `page` in with a new number and makes that user an admin, as ADMIN_PHONES would. */
export async function signInAsAdmin(page: Page, request: APIRequestContext): Promise<string> {
  const phone = await signIn(page, request)
  await withE2eDatabase((client) => client.query(`UPDATE users SET role = 'ADMIN' WHERE phone = $1`, [phone]))
  return phone
}
