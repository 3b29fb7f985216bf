import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// The generated client as `node scripts/prisma-generate.mjs` wrote it from prisma/schema.prisma.
const generatedClass = readFileSync('app/generated/prisma/internal/class.ts', 'utf8')

describe('the Prisma client', () => {
  it("loads the query compiler's small build, half the WebAssembly of the fast one (decision 060)", () => {
    const builds = [...generatedClass.matchAll(/query_compiler_(\w+)_bg/g)].map((match) => match[1])
    expect(builds.length).toBeGreaterThan(0)
    expect(new Set(builds)).toEqual(new Set(['small']))
  })
})
