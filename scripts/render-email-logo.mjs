// Renders public/email-logo.png from app/assets/logo-light.svg: mail clients (Gmail, Outlook) show
// no SVG, so the e-mails' logo is a PNG at twice its shown size. Run again when the logo changes:
//   node scripts/render-email-logo.mjs
import { readFileSync } from 'node:fs'
import { chromium } from '@playwright/test'

const SIZE_PX = 96
const svg = readFileSync('app/assets/logo-light.svg', 'utf8').replace(
  /width="\d+" height="\d+"/,
  `width="${SIZE_PX}" height="${SIZE_PX}"`,
)
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' })
const page = await browser.newPage({ viewport: { width: SIZE_PX, height: SIZE_PX } })
await page.setContent(`<body style="margin:0">${svg}</body>`)
await page.screenshot({ path: 'public/email-logo.png', omitBackground: true })
await browser.close()
