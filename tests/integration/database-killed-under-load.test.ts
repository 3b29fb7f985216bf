import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { type ProvidedDatabase, startEmbeddedPostgres } from '../../scripts/db/database'
import { migrate } from '../../scripts/db/migrate'
import type { WriteKind } from '../fixtures/store-write-load'
import { freePorts } from '../support/ports'
import { cleanUpAfterEach, isRunning } from '../support/processes'

// The store's own PostgreSQL is killed outright (SIGKILL to the postmaster, as an out-of-memory
// killer or a power cut would) while customers write; the store starts it again on the same data folder.
// Nothing acknowledged may be lost, nothing may be half-made, and the running store must recover.

const WAIT_TIMEOUT_MS = 30_000
const POLL_INTERVAL_MS = 20
const GATEWAY_PAYMENTS_BEFORE_KILL = 6
const GATEWAY_PAYMENTS_AFTER_RESTART = 3

const cleanUp = cleanUpAfterEach()

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number)
  } catch {
    return []
  }
}

async function waitFor(condition: () => boolean, what: () => string): Promise<void> {
  const deadline = Date.now() + WAIT_TIMEOUT_MS
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what()}`)
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS))
  }
}

type LoadLine = { ack: WriteKind; id: string } | { failed: WriteKind; error: string } | { stopped: true }

/** The write load (tests/fixtures/store-write-load.ts), its report lines as they arrive. */
function startWriteLoad(env: Record<string, string>) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--import', 'tsx', 'tests/fixtures/store-write-load.ts'],
    {
      env: { ...process.env, ...env },
    },
  )
  const lines: LoadLine[] = []
  let pending = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk
    const complete = pending.split('\n')
    pending = complete.pop()!
    for (const line of complete) if (line.startsWith('{')) lines.push(JSON.parse(line) as LoadLine)
  })
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk).slice(-4000)))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  cleanUp(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await exited
  })
  const acknowledged = (kind: WriteKind) =>
    lines.flatMap((line) => ('ack' in line && line.ack === kind ? [line.id] : []))
  const failures = () => lines.filter((line) => 'failed' in line).length
  return { child, lines, acknowledged, failures, exited, stderr: () => stderr }
}

async function rows<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(sql, values)).rows
  } finally {
    await client.end()
  }
}

describe('the database killed under a write load', () => {
  it(
    'keeps every acknowledged write, leaves nothing half-made, and the store writes again after a restart',
    { timeout: 90_000 },
    async () => {
      const parent = mkdtempSync(path.join(tmpdir(), 'killed-db-'))
      cleanUp(() => rmSync(parent, { recursive: true, force: true }))
      const dataDir = path.join(parent, 'postgres')
      const port = (await freePorts(1))[0]!
      const postmasterPid = () => Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])

      const database: ProvidedDatabase = await startEmbeddedPostgres({ dataDir, port, databaseName: 'store' })
      // A server this test killed has nothing left to stop (and stopping it would wait for an exit that already happened).
      cleanUp(async () => {
        if (existsSync(path.join(dataDir, 'postmaster.pid')) && isRunning(postmasterPid())) await database.stop()
      })
      await migrate(database.url, { log: () => {} })
      const [service] = await rows<{ id: string }>(
        database.url,
        `INSERT INTO services (id, name, price_paise, duration_days, active, risk_level, delivery) VALUES (gen_random_uuid(), 'Load Service', 49900, 30, true, 'HIGH', 'Ideas on the website as published') RETURNING id::text`,
      )
      const [admin] = await rows<{ id: string }>(
        database.url,
        `INSERT INTO users (phone, role) VALUES ('+919000000001', 'ADMIN') RETURNING id::text`,
      )

      const load = startWriteLoad({
        DATABASE_URL: database.url,
        DEMO_MODE: '1',
        EMBEDDED_PG_DIR: dataDir,
        LOAD_SERVICE_ID: service!.id,
        LOAD_ADMIN_ID: admin!.id,
      })
      const gatewayPaid = () => load.acknowledged('gateway-paid').length
      await waitFor(
        () => gatewayPaid() >= GATEWAY_PAYMENTS_BEFORE_KILL,
        () => `${GATEWAY_PAYMENTS_BEFORE_KILL} payments before the kill: ${load.stderr()}`,
      )

      const killed = postmasterPid()
      const backends = childrenOf(killed)
      const failuresBeforeKill = load.failures()
      process.kill(killed, 'SIGKILL')
      // PostgreSQL refuses to start while a backend of the killed server still holds its shared memory.
      await waitFor(
        () => [killed, ...backends].every((pid) => !isRunning(pid)),
        () => 'the killed server and its backends to end',
      )
      await waitFor(
        () => load.failures() > failuresBeforeKill,
        () => 'the load to feel the outage',
      )

      // The store starts its database again by itself (restartWhenDead in scripts/db/database.ts).
      const paidBeforeRestart = gatewayPaid()
      await waitFor(
        () => gatewayPaid() >= paidBeforeRestart + GATEWAY_PAYMENTS_AFTER_RESTART,
        () => `payments after the restart: ${load.stderr()}`,
      )
      load.child.stdin.end()
      expect(await load.exited).toBe(0)

      // Every acknowledged write is there.
      const users = load.acknowledged('user')
      expect((await rows(database.url, 'SELECT id FROM users WHERE id = ANY($1::uuid[])', [users])).length).toBe(
        users.length,
      )
      const codes = load.acknowledged('sign-in-code')
      const phonesWithCode = await rows<{ phone: string }>(
        database.url,
        'SELECT DISTINCT phone FROM otp_challenges WHERE phone = ANY($1)',
        [codes],
      )
      expect(phonesWithCode.map((row) => row.phone).sort()).toEqual([...new Set(codes)].sort())
      const phonesWithSms = await rows<{ to: string }>(
        database.url,
        `SELECT DISTINCT data->>'to' AS to FROM pgboss.job WHERE name = 'send-sms'`,
      )
      expect(phonesWithSms.map((row) => row.to)).toEqual(expect.arrayContaining(codes))
      const claims = load.acknowledged('manual-claim')
      expect(
        (await rows(database.url, `SELECT id FROM payments WHERE id = ANY($1::uuid[]) AND method = 'MANUAL'`, [claims]))
          .length,
      ).toBe(claims.length)
      const paid = [...load.acknowledged('manual-paid'), ...load.acknowledged('gateway-paid')]
      expect(
        (await rows(database.url, `SELECT id FROM payments WHERE id = ANY($1::uuid[]) AND status = 'PAID'`, [paid]))
          .length,
      ).toBe(paid.length)

      // Nothing is half-made: a payment is paid with all its subscriptions (and, when an admin
      // confirmed it, its audit entry) or not at all.
      expect(
        await rows(
          database.url,
          `SELECT p.id FROM payments p LEFT JOIN subscriptions s ON s.payment_id = p.id
         WHERE p.status = 'PAID' GROUP BY p.id, p.cart HAVING count(s.id) <> jsonb_array_length(p.cart)`,
        ),
      ).toEqual([])
      expect(
        await rows(
          database.url,
          `SELECT s.id FROM subscriptions s LEFT JOIN payments p ON p.id = s.payment_id WHERE p.status IS DISTINCT FROM 'PAID'`,
        ),
      ).toEqual([])
      expect(
        await rows(database.url, `SELECT id FROM payments WHERE (status = 'PAID') <> (paid_at IS NOT NULL)`),
      ).toEqual([])
      const confirmedManual = await rows<{ id: string }>(
        database.url,
        `SELECT id::text FROM payments WHERE method = 'MANUAL' AND status = 'PAID' ORDER BY id`,
      )
      const auditedPayments = await rows<{ id: string }>(
        database.url,
        `SELECT subject_id AS id FROM audit_logs WHERE action = 'payment.confirm' AND subject_type = 'payment' ORDER BY subject_id`,
      )
      expect(auditedPayments).toEqual(confirmedManual)

      // The load did reach both sides of the outage.
      expect(load.failures()).toBeGreaterThan(0)
      expect(paidBeforeRestart).toBeGreaterThanOrEqual(GATEWAY_PAYMENTS_BEFORE_KILL)
    },
  )
})
