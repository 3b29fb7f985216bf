import http from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import type { Browser, Response } from 'playwright-core'
import { BROWSER_USER_AGENT } from './browser'

export type LoadedResource = {
  url: string
  kind: 'js' | 'css' | 'html' | 'other'
  status: number
  bodyBytes: number
  headerBytes: number
  rawBytes: number
}

export type FirstLoad = {
  javaScriptEnabled: boolean
  jsBytes: number
  jsRawBytes: number
  cssBytes: number
  cssFiles: number
  scriptRequests: number
  totalBytes: number
  requests: number
  resources: LoadedResource[]
}

function kindOf(contentType: string, resourceType: string): LoadedResource['kind'] {
  if (/javascript/.test(contentType) || resourceType === 'script') return 'js'
  if (/text\/css/.test(contentType) || resourceType === 'stylesheet') return 'css'
  if (/text\/html/.test(contentType)) return 'html'
  return 'other'
}

/**
 * Loads URL once in a fresh context (cold cache) and sums the compressed body bytes of every
 * response, as Chromium received them. Chromium's own /favicon.ico request is made by the browser,
 * not the page, so Playwright never sees it and it is not counted.
 */
export async function measureFirstLoad(browser: Browser, url: string, javaScriptEnabled: boolean): Promise<FirstLoad> {
  const context = await browser.newContext({ userAgent: BROWSER_USER_AGENT, javaScriptEnabled })
  try {
    const page = await context.newPage()
    const pending: Promise<LoadedResource>[] = []
    const onResponse = (response: Response) => {
      const request = response.request()
      pending.push(
        (async () => {
          const sizes = await request.sizes()
          return {
            url: response.url(),
            kind: kindOf((await response.headerValue('content-type')) ?? '', request.resourceType()),
            status: response.status(),
            bodyBytes: sizes.responseBodySize,
            headerBytes: sizes.responseHeadersSize,
            rawBytes: await response.body().then(
              (body) => body.length,
              () => 0,
            ),
          }
        })(),
      )
    }
    page.on('response', onResponse)
    // networkidle also catches chunks that hydration or lazy routes fetch after `load`.
    const response = await page.goto(url, { waitUntil: 'networkidle' })
    if (response?.status() !== 200) throw new Error(`${url} answered ${response?.status()} in Chromium`)
    // A response arriving later (the browser's own requests on a loaded machine) would be read after
    // the context closes: stop listening before summing.
    page.off('response', onResponse)
    const resources = await Promise.all(pending)
    const sum = (list: LoadedResource[]) => list.reduce((total, resource) => total + resource.bodyBytes, 0)
    const js = resources.filter((resource) => resource.kind === 'js')
    const css = resources.filter((resource) => resource.kind === 'css')
    return {
      javaScriptEnabled,
      jsBytes: sum(js),
      jsRawBytes: js.reduce((total, resource) => total + resource.rawBytes, 0),
      cssBytes: sum(css),
      cssFiles: css.length,
      scriptRequests: js.length,
      totalBytes: sum(resources),
      requests: resources.length,
      resources: resources.sort((a, b) => b.bodyBytes - a.bodyBytes),
    }
  } finally {
    await context.close()
  }
}

export type HtmlSize = {
  url: string
  status: number
  contentEncoding: string
  compressedBytes: number
  rawBytes: number
}

/** The document's body bytes on the wire, requested as a desktop Chrome that accepts br and gzip. */
export function measureHtml(url: string): Promise<HtmlSize> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      url,
      { headers: { 'User-Agent': BROWSER_USER_AGENT, 'Accept-Encoding': 'br, gzip', Accept: 'text/html' } },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () => {
          const body = Buffer.concat(chunks)
          const contentEncoding = response.headers['content-encoding'] ?? 'identity'
          const raw =
            contentEncoding === 'br' ? brotliDecompressSync(body) : contentEncoding === 'gzip' ? gunzipSync(body) : body
          resolve({
            url,
            status: response.statusCode ?? 0,
            contentEncoding,
            compressedBytes: body.length,
            rawBytes: raw.length,
          })
        })
      },
    )
    request.on('error', reject)
    request.setTimeout(30_000, () => request.destroy(new Error(`${url} timed out`)))
  })
}
