import { expect, type Locator } from '@playwright/test'

/** No placeholder of the original texts ({email}, {phone}, ...), missing value or demo business detail left. */
export async function expectNoPlaceholders(region: Locator) {
  const text = await region.innerText()
  expect(text).not.toMatch(/\{[^{}\n]*\}/)
  expect(text).not.toMatch(/\bundefined\b|\bnull\b|\[object |NaN/)
  expect(text).not.toContain('Demo Research Analyst')
}
