import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { demoSecretFile, readOrCreateDemoSecret } from '~/server/demo-secret.server'
import { parseEnv } from '~/server/env.server'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})
function dataFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'demo-secret-'))
  folders.push(folder)
  return folder
}

describe('the demo secret', () => {
  it('is created once per data folder, readable by its owner only, and read back the same', () => {
    const file = path.join(dataFolder(), '.data', 'demo-secret')
    const first = readOrCreateDemoSecret(file)
    expect(first).toMatch(/^[\w-]{43}$/)
    expect(readOrCreateDemoSecret(file)).toBe(first)
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('differs between data folders', () => {
    const one = readOrCreateDemoSecret(path.join(dataFolder(), 'demo-secret'))
    const other = readOrCreateDemoSecret(path.join(dataFolder(), 'demo-secret'))
    expect(one).not.toBe(other)
  })

  it('lives beside the embedded database, and under .data/ with DATABASE_URL', () => {
    expect(demoSecretFile(parseEnv({}))).toBe(path.join('.data', 'demo-secret'))
    expect(demoSecretFile(parseEnv({ EMBEDDED_PG_DIR: '/srv/store/postgres' }))).toBe('/srv/store/demo-secret')
    expect(demoSecretFile(parseEnv({ DATABASE_URL: 'postgresql://localhost/store' }))).toBe(
      path.join('.data', 'demo-secret'),
    )
  })
})
