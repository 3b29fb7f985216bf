import { test, type Page } from '@playwright/test'

/**
 * Waits until React has hydrated the page (the root layout sets `<html data-hydrated>` in an effect), so a
 * press is handled by the page's script, not lost between the server's HTML and hydration. Without
 * JavaScript there is nothing to wait for: the press is the browser's own.
 */
export async function hydrated(page: Page): Promise<void> {
  if (test.info().project.use.javaScriptEnabled === false) return
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
}

/** `page.goto(url)`, then `hydrated(page)`. */
export async function gotoHydrated(page: Page, url: string) {
  const response = await page.goto(url)
  await hydrated(page)
  return response
}
