import { existsSync } from 'node:fs'
import { isbot } from 'isbot'
import { type Browser, chromium } from 'playwright-core'
import { onCleanup } from './cleanup'

export const CHROMIUM_PATH = '/usr/bin/chromium'
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

// isbot treats curl, autocannon and HeadlessChrome as bots, and the floor app (React Router's default
// server entry) then renders a different (fully buffered) response, so every request the bench makes
// looks like desktop Chrome. The store renders every page whole for everyone (app/entry.server.tsx).
export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36'
export const BROWSER_HEADERS = { 'User-Agent': BROWSER_USER_AGENT, 'Accept-Encoding': 'gzip, deflate, br' }
/**
 * Lighthouse's mobile runs. Lighthouse 12's own default is already a browser's (older ones added
 * "Chrome-Lighthouse", a bot to isbot), but it is set here so that an upgrade cannot change the
 * render path under the figures.
 */
export const MOBILE_BROWSER_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36'

/** The floor app decides its render path with isbot: the bench's user agents must not be bots to it. */
export function assertBrowserUserAgents(): void {
  for (const userAgent of [BROWSER_USER_AGENT, MOBILE_BROWSER_USER_AGENT]) {
    if (isbot(userAgent)) throw new Error(`isbot takes the bench's user agent for a bot: ${userAgent}`)
  }
}

export const hasChromium = () => existsSync(CHROMIUM_PATH)

export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_FLAGS,
    // The bench stops Chromium itself (cleanup.ts), after its servers' shutdown has been requested.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  })
  const unregister = onCleanup(() => browser.close())
  browser.once('disconnected', unregister)
  return browser
}
