import { expect, type Locator } from '@playwright/test'

/** No SPEC placeholder ({email}, {phone}, ...), missing value or demo business detail left in the text. */
export async function expectNoPlaceholders(region: Locator) {
  const text = await region.innerText()
  expect(text).not.toMatch(/\{[^{}\n]*\}/)
  expect(text).not.toMatch(/\bundefined\b|\bnull\b|\[object |NaN/)
  expect(text).not.toContain('Demo Research Analyst')
}
