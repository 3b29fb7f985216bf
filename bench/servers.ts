import { type ChildProcess, spawn } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { onCleanup } from './cleanup'
import { BROWSER_HEADERS } from './browser'

export const ROOT = path.resolve(import.meta.dirname, '..')
export const FLOOR_DIR = path.join(ROOT, 'bench/floor')
export const RESULTS_DIR = path.join(ROOT, 'bench/results')

// Its own data directory and port, so the bench never touches a developer's running store.
export const BENCH_PG_DIR = '.data/postgres-bench'
const BENCH_PG_PORT = '25439'

/** The store's database when the bench started it on the embedded server (no DATABASE_URL): as scripts/db/database.ts names it. */
export const benchDatabaseUrl = () => `postgresql://postgres:postgres@127.0.0.1:${BENCH_PG_PORT}/research_store`

export type RunningServer = { name: string; origin: string; pid: number; logFile: string; stop: () => Promise<void> }

function logPath(name: string): string {
  mkdirSync(RESULTS_DIR, { recursive: true })
  return path.join(RESULTS_DIR, `${name}.log`)
}

function tail(file: string, lines = 30): string {
  if (!existsSync(file)) return ''
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
}

/**
 * Spawns a command in its own process group with its output in bench/results/NAME.log. Its own
 * group keeps the terminal's Ctrl-C away from it: the bench sends exactly one SIGTERM instead,
 * because the store exits at once on a second signal, before stopping its embedded database.
 */
function spawnLogged(name: string, command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  const logFile = logPath(name)
  const fd = openSync(logFile, 'w')
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', fd, fd],
    detached: true,
  })
  closeSync(fd)
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, logFile, exited }
}

async function stopProcess(
  name: string,
  child: ChildProcess,
  exited: Promise<unknown>,
  graceMs: number,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  const timedOut = await Promise.race([exited.then(() => false), delay(graceMs).then(() => true)])
  if (timedOut && child.pid) {
    console.warn(`${name} did not stop within ${graceMs / 1000} s of SIGTERM: killing its process group`)
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {
      // The group ended on its own in between.
    }
    await exited
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Runs a build step to completion; its output goes to bench/results/NAME.log. */
export async function runBuild(name: string, command: string, args: string[], cwd: string): Promise<number> {
  const started = performance.now()
  const { child, logFile, exited } = spawnLogged(name, command, args, { cwd })
  const done = onCleanup(() => stopProcess(name, child, exited, 5_000))
  const code = await exited
  done()
  if (code !== 0) throw new Error(`${name} failed (exit ${code}); last lines of ${logFile}:\n${tail(logFile)}`)
  return performance.now() - started
}

/** The preferred port when it is free, otherwise any free port. */
export async function freePort(preferred: number): Promise<number> {
  for (const port of [preferred, 0]) {
    const found = await new Promise<number | null>((resolve) => {
      const probe = net.createServer()
      probe.once('error', () => resolve(null))
      probe.listen(port, () => {
        const address = probe.address()
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : null))
      })
    })
    if (found) return found
  }
  throw new Error('No free port')
}

/** Polls until URL answers 200; fails early when the server process exits. */
async function waitFor200(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `Server for ${url} exited (${child.exitCode ?? child.signalCode}); last lines of ${logFile}:\n${tail(logFile)}`,
      )
    }
    try {
      const response = await fetch(url, { headers: BROWSER_HEADERS, signal: AbortSignal.timeout(5_000) })
      await response.arrayBuffer()
      if (response.status === 200) return
    } catch {
      // Not listening yet: try again.
    }
    await delay(100)
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s; last lines of ${logFile}:\n${tail(logFile)}`)
}

type ServerSpec = {
  name: string
  command: string
  args: string[]
  cwd: string
  env: NodeJS.ProcessEnv
  probeUrl: string
  timeoutMs: number
}

async function startServer({ name, command, args, cwd, env, probeUrl, timeoutMs }: ServerSpec) {
  const origin = new URL(probeUrl).origin
  const started = performance.now()
  const { child, logFile, exited } = spawnLogged(name, command, args, { cwd, env })
  const stop = () => stopProcess(name, child, exited, 20_000)
  const unregister = onCleanup(stop)
  await waitFor200(probeUrl, child, logFile, timeoutMs)
  const server: RunningServer = {
    name,
    origin,
    pid: child.pid!,
    logFile,
    stop: async () => {
      unregister()
      await stop()
    },
  }
  return { server, readyMs: performance.now() - started }
}

/**
 * What `npm start` runs (decision 057, 060): its environment (the `NAME=${NAME:-default}` assignments
 * before `exec node`, the default unless this process has NAME set) and Node's arguments (its flags,
 * then scripts/start.mjs).
 */
export function npmStartCommand(): { env: Record<string, string>; args: string[] } {
  const start = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } })
    .scripts.start
  const parts = /^((?:\w+=\S+ )*)exec node (.+)$/.exec(start)
  if (!parts) throw new Error(`package.json's start script is not "[NAME=value ...] exec node ...": ${start}`)
  const env: Record<string, string> = {}
  for (const assignment of parts[1]!.trim().split(' ').filter(Boolean)) {
    const [, name, value] = /^(\w+)=(.*)$/.exec(assignment)!
    const withDefault = /^\$\{(\w+):-(.*)\}$/.exec(value!)
    env[name!] = withDefault ? process.env[withDefault[1]!] || withDefault[2]! : value!
  }
  return { env, args: parts[2]!.split(' ') }
}

/** The store's production server (scripts/start.mjs, as `npm start` runs it) on the embedded database, or DATABASE_URL if set. */
export async function startStore(port: number, extraEnv: Record<string, string> = {}) {
  const databaseDir = path.join(ROOT, BENCH_PG_DIR)
  const firstDatabaseStart = !process.env.DATABASE_URL && !existsSync(databaseDir)
  const database = process.env.DATABASE_URL
    ? 'DATABASE_URL'
    : `embedded PostgreSQL in ${BENCH_PG_DIR} (${firstDatabaseStart ? 'new data directory: includes initdb' : 'existing data directory'})`
  const command = npmStartCommand()
  const env = {
    ...command.env,
    NODE_ENV: 'production',
    PORT: String(port),
    EMBEDDED_PG_DIR: BENCH_PG_DIR,
    EMBEDDED_PG_PORT: BENCH_PG_PORT,
    ...extraEnv,
  }
  const { server, readyMs } = await startServer({
    name: 'store',
    command: process.execPath,
    args: command.args,
    cwd: ROOT,
    env,
    probeUrl: `http://localhost:${port}/services`,
    timeoutMs: 180_000,
  })
  // scripts/start.mjs rebuilds when a source file is newer than the build (someone editing during
  // the bench), and that build then counts in the startup time.
  const log = readFileSync(server.logFile, 'utf8')
  const rebuiltOnStart = /No build yet|Sources changed/.test(log)
  // scripts/start.ts times the embedded database's start (its only addition to start-up).
  const databaseStart = log.match(/embedded PostgreSQL in .* \(started in (\d+) ms\)/)
  const embeddedDatabaseStartMs = databaseStart ? Number(databaseStart[1]) : null
  return { server, database, startupToFirst200Ms: readyMs, rebuiltOnStart, embeddedDatabaseStartMs, firstDatabaseStart }
}

/** The floor app under react-router-serve, as the research measured it. */
export async function startFloor(port: number) {
  const { server } = await startServer({
    name: 'floor',
    command: process.execPath,
    args: [path.join(ROOT, 'node_modules/@react-router/serve/bin.js'), 'build/server/index.js'],
    // react-router-serve also serves ./public from its working directory: the floor's, not the store's.
    cwd: FLOOR_DIR,
    env: { NODE_ENV: 'production', PORT: String(port) },
    probeUrl: `http://localhost:${port}/`,
    timeoutMs: 30_000,
  })
  return server
}
