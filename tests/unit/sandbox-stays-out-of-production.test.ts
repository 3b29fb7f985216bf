import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const SANDBOX_MODULE = 'app/demo/razorpay-sandbox.server.ts'

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name)
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full)
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : []
  })
}

// A deployment prunes dev dependencies and must never answer api.razorpay.com itself: the sandbox
// (and msw) may be reached only through the one dynamic import in app/server/payments/gateway/choice.server.ts.
describe('the sandbox gateway in the server bundle', () => {
  const files = [...sourceFiles('app'), ...sourceFiles('server')].filter((file) => file !== SANDBOX_MODULE)

  it('is imported statically by no module, and msw by none but the sandbox', () => {
    const staticImport = /^\s*import\s+(?!type\b)[^;]*?from\s+['"]([^'"]+)['"]/gm
    const offenders = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(staticImport)]
        .map((match) => match[1]!)
        .filter(
          (specifier) =>
            specifier === 'msw' || specifier.startsWith('msw/') || specifier.endsWith('razorpay-sandbox.server'),
        )
        .map((specifier) => `${file} imports ${specifier}`),
    )
    expect(offenders).toEqual([])
  })

  it('is loaded dynamically in exactly one place', () => {
    const dynamicImports = files.filter((file) =>
      readFileSync(file, 'utf8').includes("import('~/demo/razorpay-sandbox.server')"),
    )
    expect(dynamicImports).toEqual(['app/server/payments/gateway/choice.server.ts'])
  })
})
