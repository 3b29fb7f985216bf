// `npm run build`: React Router's build, then brotli and gzip copies of the hashed assets, then the
// server entry scripts/start.ts compiled to build/start.js (decision 057).
//
// React Router 7.18's config loader starts a Vite server of its own with `envFile: false`, which Vite 8
// reports as deprecated on every build; no configuration of ours sets it, and React Router 8 no longer
// does. That one known line is dropped from the build's output, so a deprecation of our own stands
// out; every other line passes through as it comes.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { stripVTControlCharacters } from 'node:util'
import { build as bundle } from 'esbuild'

const KNOWN_UPSTREAM_NOISE = ['The `envFile` option is deprecated, please use `envDir: false` instead.']

const build = spawn('npx', ['react-router', 'build'], { stdio: ['inherit', 'inherit', 'pipe'] })
// Compared without colour codes: FORCE_COLOR (set by Playwright's web server, among others) colours the line.
const withoutColour = (line) => stripVTControlCharacters(line).trim()
createInterface({ input: build.stderr }).on('line', (line) => {
  if (!KNOWN_UPSTREAM_NOISE.includes(withoutColour(line))) process.stderr.write(`${line}\n`)
})
const code = await new Promise((resolve) => build.on('close', resolve))
if (code !== 0) process.exit(code ?? 1)
await import('./precompress.mjs')

// What `npm start` runs (scripts/start.mjs): scripts/start.ts and the modules of ours it imports in
// one file of JavaScript, the packages left to node_modules as the React Router build leaves them.
// esbuild comes with tsx, a dependency, so the Docker build stage has it.
await bundle({
  entryPoints: ['scripts/start.ts'],
  outfile: 'build/start.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  packages: 'external',
  logLevel: 'warning',
})
