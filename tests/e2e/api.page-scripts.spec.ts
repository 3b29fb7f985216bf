import { expect, test } from '@playwright/test'
import { REGULATORY_PATHS } from '../support/public-pages'

// A customer page preloads the layout's script files and its own route's, and no form library it
// does not use (decision 022): each further file costs a round trip on a slow network, and the
// public pages' LCP is held within 1.05x of a bare page's (issue 32 item 8, BENCH_ONLY=lighthouse).
// A module shared by several pages that imports Zod falls out of the `shared` chunk into files of
// its own, preloaded by every page that reaches it; this notices that without running Lighthouse.

const LAYOUT_FILES = ['entry.client', 'rolldown-runtime', 'framework', 'root', 'shared']

const PAGES_WITHOUT_FORM_LIBRARIES = ['/services', ...REGULATORY_PATHS]

/**
 * The script files a page preloads, by chunk name (the file name less its 8-character hash): listed on its boot
 * module, which preloads them once the page has painted (decision 061).
 */
function preloadedChunks(html: string): string[] {
  const preloads = /<script[^>]* data-preloads="([^"]*)"/.exec(html)?.[1] ?? ''
  return [...preloads.matchAll(/\/assets\/([^ ]+)\.js/g)].map((match) => match[1]!.slice(0, -9))
}

test('each public page preloads the layout and its own route only', async ({ request }) => {
  for (const path of PAGES_WITHOUT_FORM_LIBRARIES) {
    const response = await request.get(path)
    expect(response.status(), path).toBe(200)
    const chunks = preloadedChunks(await response.text())
    expect(chunks.slice(0, LAYOUT_FILES.length), path).toEqual(LAYOUT_FILES)
    expect(chunks.slice(LAYOUT_FILES.length), path).toHaveLength(1)
  }
})
