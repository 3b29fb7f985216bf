import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { loggerFor } from '../app/server/operations/logger.server'

const log = loggerFor('start')

export const SERVER_BUILD = path.resolve('build/server/index.js')
const SOURCES = ['app', 'server', 'public', 'package-lock.json', 'vite.config.ts', 'react-router.config.ts']

function newestMtimeMs(target: string): number {
  if (!existsSync(target)) return 0
  const stat = statSync(target)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtimeMs(path.join(target, entry)))
  return newest
}

/**
 * Runs `npm run build` when there is no build or a source file is newer than it. An install
 * without dev dependencies (the Docker runtime image) cannot build and serves the build it has.
 */
export function buildIfNeeded(): void {
  const builtAt = existsSync(SERVER_BUILD) ? statSync(SERVER_BUILD).mtimeMs : 0
  if (builtAt && !existsSync(path.resolve('node_modules/@react-router/dev'))) return
  const changedAt = Math.max(...SOURCES.map(newestMtimeMs))
  if (builtAt > changedAt) return
  log.info(builtAt ? 'Sources changed since the last build: rebuilding' : 'No build yet: building')
  const result = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' })
  if (result.status !== 0) throw new Error('The build failed (see above)')
}
