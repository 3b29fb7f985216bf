import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SHUTDOWN_GRACE_MS } from '../../scripts/graceful-shutdown'
import { freePorts } from '../support/ports'
import { cleanUpAfterEach, isRunning } from '../support/processes'

// `npm start` (scripts/start.ts, run for real with its embedded PostgreSQL) gets SIGTERM, as from a
// deployment or `docker stop`, while customers are in the middle of slow uploads. The store serves
// tests/fixtures/slow-store-bundle.ts in place of the React Router build, so no build is needed.

const STORE_DIR = path.resolve('tests/fixtures/slow-store')
const START_SCRIPT = path.resolve('scripts/start.ts')
const SLOW_REQUESTS = 3
const BODY_HALF = 'x'.repeat(32 * 1024)
// An embedded PostgreSQL made from nothing, migrated and seeded: 40 s on a 2-core machine under a load of 17.
const START_TIMEOUT_MS = 90_000
/** What demo mode seeds at start. */
const DEMO_SERVICES = 5
const POLL_INTERVAL_MS = 50

const cleanUp = cleanUpAfterEach()

type Store = {
  child: ChildProcess
  output: () => string
  exited: Promise<number | null>
  waitForOutput: (text: string) => Promise<void>
}

function startStore(env: Record<string, string>): Store {
  const { DATABASE_URL: _ignored, ...inherited } = process.env
  const child = spawn(process.execPath, ['--import', 'tsx', START_SCRIPT], {
    cwd: STORE_DIR,
    env: { ...inherited, ...env },
  })
  let output = ''
  const waiters: { text: string; resolve: () => void }[] = []
  const collect = (chunk: Buffer) => {
    output += chunk
    for (const waiter of waiters.filter(({ text }) => output.includes(text))) waiter.resolve()
  }
  child.stdout!.on('data', collect)
  child.stderr!.on('data', collect)
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  cleanUp(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await exited
  })
  const waitForOutput = (text: string) =>
    new Promise<void>((resolve, reject) => {
      if (output.includes(text)) return resolve()
      waiters.push({ text, resolve })
      void exited.then((code) =>
        reject(new Error(`the store exited with ${code} before printing "${text}":\n${output}`)),
      )
    })
  return { child, output: () => output, exited, waitForOutput }
}

type SlowRequest = { answered: Promise<http.IncomingMessage>; finish: () => void; body: Promise<string> }

/** A POST whose body arrives in two halves; `answered` resolves once the store has started answering. */
function startSlowUpload(port: number, agent: http.Agent): SlowRequest {
  const request = http.request({
    host: '127.0.0.1',
    port,
    path: '/slow-upload',
    method: 'POST',
    agent,
    headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': BODY_HALF.length * 2 },
  })
  const answered = new Promise<http.IncomingMessage>((resolve, reject) => {
    request.on('response', resolve)
    request.on('error', reject)
  })
  request.write(BODY_HALF)
  const body = answered.then(async (response) => {
    let text = ''
    for await (const chunk of response) text += chunk
    return text
  })
  // Awaited by the test; a failing test's clean-up cuts it, which must not count as a second failure.
  body.catch(() => {})
  return { answered, finish: () => request.end(BODY_HALF), body }
}

/**
 * A page polling the store every POLL_INTERVAL_MS over one keep-alive connection, as browsers and
 * proxies reuse theirs, until a request fails; resolves with that failure's code.
 */
function pollUntilFailure(port: number): Promise<string | undefined> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  cleanUp(() => agent.destroy())
  const poll = () =>
    new Promise<void>((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port, path: '/poll', agent }, (response) => {
        response.resume()
        response.on('end', resolve)
      })
      request.on('error', reject)
    })
  return (async () => {
    for (;;) {
      try {
        await poll()
      } catch (error) {
        return (error as NodeJS.ErrnoException).code
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS))
    }
  })()
}

/** Whether a new TCP connection to `port` is refused. */
function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.on('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'))
  })
}

describe('SIGTERM while requests are in progress', () => {
  it(
    'finishes the requests being answered, refuses new connections, stops the database and exits 0 within the grace period',
    { timeout: 150_000 },
    async () => {
      const parent = mkdtempSync(path.join(tmpdir(), 'store-shutdown-'))
      cleanUp(() => rmSync(parent, { recursive: true, force: true }))
      const dataDir = path.join(parent, 'postgres')
      const [port, postgresPort] = (await freePorts(2)) as [number, number]
      const store = startStore({
        DEMO_MODE: '1',
        PORT: String(port),
        EMBEDDED_PG_DIR: dataDir,
        EMBEDDED_PG_PORT: String(postgresPort),
      })
      cleanUp(() => {
        const lockFile = path.join(dataDir, 'postmaster.pid')
        if (!existsSync(lockFile)) return
        const pid = Number(readFileSync(lockFile, 'utf8').split('\n')[0])
        if (isRunning(pid)) process.kill(pid, 'SIGKILL')
      })
      await Promise.race([
        store.waitForOutput('Research Store listening on'),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error(`the store did not start:\n${store.output()}`)), START_TIMEOUT_MS).unref(),
        ),
      ])
      const postgres = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])
      expect(isRunning(postgres), 'the embedded PostgreSQL runs').toBe(true)

      // Keep-alive, as browsers do: the store must not wait on their idle connections either.
      const agent = new http.Agent({ keepAlive: true })
      cleanUp(() => agent.destroy())
      const uploads = Array.from({ length: SLOW_REQUESTS }, () => startSlowUpload(port, agent))
      for (const upload of uploads) expect((await upload.answered).statusCode).toBe(200)
      const pollingStopped = pollUntilFailure(port)

      const signalledAt = Date.now()
      store.child.kill('SIGTERM')
      await store.waitForOutput('SIGTERM: shutting down')
      // The signal's line is printed just before the listening socket closes: poll for the refusal.
      while (!(await connectionRefused(port)))
        expect(Date.now() - signalledAt, 'new connections refused after the signal').toBeLessThan(SHUTDOWN_GRACE_MS)

      for (const upload of uploads) upload.finish()
      for (const upload of uploads)
        expect(JSON.parse(await upload.body)).toEqual({ bytes: BODY_HALF.length * 2, services: DEMO_SERVICES })

      expect(await store.exited, store.output()).toBe(0)
      expect(Date.now() - signalledAt).toBeLessThan(SHUTDOWN_GRACE_MS)
      expect(store.output()).not.toContain('Shutdown took longer')
      // The poller's keep-alive connection did not hold the shutdown: it was closed, and a new one refused.
      expect(['ECONNREFUSED', 'ECONNRESET']).toContain(await pollingStopped)
      expect(isRunning(postgres)).toBe(false)
      expect(existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(false)
    },
  )
})
