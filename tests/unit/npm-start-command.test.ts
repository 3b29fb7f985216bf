import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { npmStartCommand } from '../../bench/servers'

const startScript = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start

// A `node` that prints what it was given, first on the PATH the start script runs with (as npm runs it: sh -c).
const stubDir = mkdtempSync(path.join(tmpdir(), 'npm-start-stub-'))
writeFileSync(
  path.join(stubDir, 'node'),
  '#!/bin/sh\nprintf \'%s\\n\' "MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX-unset}" "$@"\n',
)
chmodSync(path.join(stubDir, 'node'), 0o755)
afterAll(() => rmSync(stubDir, { recursive: true, force: true }))

function runStartScript(env: Record<string, string>): { arenas: string; args: string[] } {
  const { MALLOC_ARENA_MAX: _ignored, ...inherited } = process.env
  const run = spawnSync('sh', ['-c', startScript], {
    env: { ...inherited, ...env, PATH: `${stubDir}:${process.env.PATH}` },
    encoding: 'utf8',
  })
  const [arenas, ...args] = run.stdout.trim().split('\n')
  return { arenas: arenas!.replace('MALLOC_ARENA_MAX=', ''), args }
}

describe('npm start', () => {
  it('gives Node two malloc arenas unless MALLOC_ARENA_MAX is set (decision 060)', () => {
    expect(runStartScript({}).arenas).toBe('2')
    expect(runStartScript({ MALLOC_ARENA_MAX: '8' }).arenas).toBe('8')
  })

  it('is what the bench starts: the same environment, flags and script', () => {
    const { arenas, args } = runStartScript({})
    expect(npmStartCommand()).toEqual({ env: { MALLOC_ARENA_MAX: arenas }, args })
    expect(args.at(-1)).toBe('scripts/start.mjs')
  })
})
