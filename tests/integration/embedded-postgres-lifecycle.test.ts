import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { startEmbeddedPostgres } from '../../scripts/db/database'
import { freePorts } from '../support/ports'
import { cleanUpAfterEach, isRunning } from '../support/processes'

const GRACE_MS = 300
const cleanUp = cleanUpAfterEach()

type StandIn = { child: ChildProcess; httpPort: number; output: () => string; exited: Promise<number | null> }

/** The stand-in for `npm start` (tests/fixtures/embedded-store-stand-in.ts), once it serves. */
async function startStandIn(dataDir: string, pgPort: number): Promise<StandIn> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/embedded-store-stand-in.ts'], {
    env: {
      ...process.env,
      STAND_IN_DATA_DIR: dataDir,
      STAND_IN_PG_PORT: String(pgPort),
      STAND_IN_GRACE_MS: String(GRACE_MS),
    },
  })
  let output = ''
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const httpPort = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk
      const ready = /\{"httpPort":(\d+)\}/.exec(output)
      if (ready) resolve(Number(ready[1]))
    })
    void exited.then((code) => reject(new Error(`the stand-in exited with ${code} before serving: ${output}`)))
  })
  return { child, httpPort, output: () => output, exited }
}

function newDataDir(): string {
  const parent = mkdtempSync(path.join(tmpdir(), 'embedded-pg-'))
  cleanUp(() => rmSync(parent, { recursive: true, force: true }))
  return path.join(parent, 'postgres')
}

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url })
  client.on('error', () => {})
  await client.connect()
  try {
    return (await client.query(sql)).rows
  } finally {
    await client.end()
  }
}

const postmasterPid = (dataDir: string) =>
  Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])

// Each test makes a PostgreSQL data folder from nothing: 2 s on a quiet machine, over 20 s (the
// default) on a loaded 2-core one.
describe('the embedded PostgreSQL across runs', { timeout: 90_000 }, () => {
  it('starts again after the previous run was killed outright and left its server running', async () => {
    const dataDir = newDataDir()
    const pgPort = (await freePorts(1))[0]!
    const killed = await startStandIn(dataDir, pgPort)
    const orphan = postmasterPid(dataDir)
    cleanUp(() => void (isRunning(orphan) && process.kill(orphan, 'SIGKILL')))
    killed.child.kill('SIGKILL')
    await killed.exited
    expect(isRunning(orphan)).toBe(true)

    const database = await startEmbeddedPostgres({ dataDir, port: pgPort, databaseName: 'stand_in' })
    cleanUp(() => database.stop())
    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    const { rows } = await client.query<{ answer: number }>('SELECT 1 AS answer')
    await client.end()
    expect(rows).toEqual([{ answer: 1 }])
    expect(isRunning(orphan)).toBe(false)
  })

  it('starts the database again when its server dies, on the same data', async () => {
    const dataDir = newDataDir()
    const database = await startEmbeddedPostgres({
      dataDir,
      port: (await freePorts(1))[0]!,
      databaseName: 'stand_in',
    })
    cleanUp(() => database.stop())
    await query(database.url, 'CREATE TABLE kept (answer int); INSERT INTO kept VALUES (42)')
    const killed = postmasterPid(dataDir)
    process.kill(killed, 'SIGKILL')

    await expect
      .poll(() => query(database.url, 'SELECT answer FROM kept').catch(() => null), { timeout: 60_000 })
      .toEqual([{ answer: 42 }])
    expect(postmasterPid(dataDir)).not.toBe(killed)
    await database.stop()
    expect(existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(false)
  })

  it('still stops the database and exits when a request outlasts the grace period', async () => {
    const dataDir = newDataDir()
    const standIn = await startStandIn(dataDir, (await freePorts(1))[0]!)
    const postgres = postmasterPid(dataDir)
    cleanUp(() => void (isRunning(postgres) && process.kill(postgres, 'SIGKILL')))
    // A request the server never answers keeps server.close() waiting.
    const held = request({ host: '127.0.0.1', port: standIn.httpPort, path: '/' })
    held.on('error', () => {})
    held.end()
    await new Promise((resolve) => held.on('socket', (socket) => socket.on('connect', resolve)))

    standIn.child.kill('SIGTERM')
    expect(await standIn.exited).toBe(1)
    expect(standIn.output()).toContain(
      `Shutdown took longer than ${GRACE_MS / 1000} s; closing the open connections and stopping the database`,
    )
    expect(isRunning(postgres)).toBe(false)
    expect(existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(false)
  })
})
