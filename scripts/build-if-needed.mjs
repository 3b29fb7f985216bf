// Whether `npm start` must build first, in plain JavaScript: it runs before the compiled server entry
// exists (scripts/start.mjs).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/** `scripts/start.ts` compiled by `npm run build` (scripts/build.mjs). */
export const START_BUILD = path.resolve('build/start.js')
/** What `npm start` serves: the React Router build (server/app.ts and the routes) and the compiled start. */
const BUILT_FILES = [path.resolve('build/server/index.js'), START_BUILD]
// What goes into either: the compiled start takes in scripts/ and prisma/seed.ts as well as app/ and server/.
const SOURCES = [
  'app',
  'server',
  'scripts',
  'prisma/seed.ts',
  'public',
  'package-lock.json',
  'vite.config.ts',
  'react-router.config.ts',
]

function newestMtimeMs(target) {
  if (!existsSync(target)) return 0
  const stat = statSync(target)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtimeMs(path.join(target, entry)))
  return newest
}

/**
 * Runs `npm run build` when a built file is missing or a source file is newer than it. An install
 * without dev dependencies (the Docker runtime image) cannot build and serves the build it has.
 * Its one line is plain text, like the build's own output that follows it: the store's logger is
 * TypeScript, loaded only by the compiled start.
 */
export function buildIfNeeded() {
  const builtAt = Math.min(...BUILT_FILES.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)))
  if (!existsSync(path.resolve('node_modules/@react-router/dev'))) {
    const missing = BUILT_FILES.filter((file) => !existsSync(file))
    if (missing.length)
      throw new Error(
        `No build to serve (${missing.join(', ')} missing), and no dev dependencies to make one: run npm run build`,
      )
    return
  }
  const changedAt = Math.max(...SOURCES.map(newestMtimeMs))
  if (builtAt > changedAt) return
  process.stderr.write(`${builtAt ? 'Sources changed since the last build: rebuilding' : 'No build yet: building'}\n`)
  const result = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' })
  if (result.status !== 0) throw new Error('The build failed (see above)')
}
