import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { prisma } from '~/server/db.server'
import { fileComplaint } from '~/server/complaints/filing.server'
import { stopJobs } from '~/server/jobs/queue.server'
import { markPaymentPaid } from '~/server/payments/core.server'
import { customerDocuments } from '~/server/payments/tax-documents.server'
import { getRequest, routeArgs } from '../support/route-requests'
import { signedInUser, type SignedInUser } from '../support/sessions'
import { cartItemOf, createPaymentRow, createService } from '../support/payment-fixtures'
import { databaseUrlFor, dropDatabase, uniqueDatabaseName } from '../support/test-database'

// A restore that is proven (docs/operations.md, Backup and restore): a store with customers, payments, invoices and
// complaints is backed up with `npm run db:backup`, restored with `npm run db:restore` into a database that does not
// exist yet, and the store is started on it as `npm start` starts one (migrations, the demo data step, the instance's
// start: jobs, cache sync) and served: it finds the same customers, PANs, invoices and complaints, the customer's
// session still signs them in, and the next invoice and complaint numbers follow the restored ones without a gap. Bad
// input: a backup from a store with other PAN keys, or another lookup key, a database that is not empty, a file that is
// no backup: each refused with a message, and nothing restored.
//
// The tools are PostgreSQL's own (pg_dump of the server's version or later: docs/operations.md).

const { serverUrl } = inject('testDatabase')
const sourceUrl = process.env.DATABASE_URL!
const folder = mkdtempSync(path.join(tmpdir(), 'store-backup-'))
const backupFile = path.join(folder, 'store.backup')
const SCRIPT_TIMEOUT_MS = 90_000
const createdDatabases: string[] = []

type Script = { code: number | null; output: string }

/** `npm run db:backup` / `db:restore` as a person runs them (their script, JSON logs to read). */
function runScript(script: 'db-backup' | 'db-restore', file: string, env: Record<string, string>): Promise<Script> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, file], {
      env: { ...process.env, LOG_FORMAT: 'json', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}

/** A database name on the test server that does not exist yet, dropped after the file. */
function newDatabase(label: string): { name: string; url: string } {
  const name = uniqueDatabaseName(label)
  createdDatabases.push(name)
  return { name, url: databaseUrlFor(serverUrl, name) }
}

async function databaseExists(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    return ((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount ?? 0) > 0
  } finally {
    await client.end()
  }
}

/** Two fresh random keys, as another store would have (openssl rand -base64 32). */
const otherKey = () => randomBytes(32).toString('base64')

type Snapshot = {
  customer: SignedInUser
  pan: string
  openClaimId: string
  documentNumbers: string[]
  complaintReferences: string[]
  payments: { id: string; status: string; amountPaise: number }[]
}
let before: Snapshot

const complaintText = 'The research note for this month did not arrive by e-mail, though the service is paid for.'

beforeAll(async () => {
  const customer = await signedInUser({ completeProfile: true })
  const service = await createService('Backed up', 149_900, 30)
  const item = cartItemOf(service)
  const order = await createPaymentRow(customer.userId, [item])
  await markPaymentPaid(order.id, {
    gatewayPaymentId: `pay_backup_${order.id.slice(0, 8)}`,
    paidAt: new Date(),
    source: 'webhook',
  })
  const claim = await createPaymentRow(customer.userId, [item], { method: 'MANUAL' })
  await markPaymentPaid(claim.id, { paidAt: new Date(), source: 'admin' })
  const openClaim = await createPaymentRow(customer.userId, [item], { method: 'MANUAL' })
  await fileComplaint({
    source: 'DIRECTLY_FROM_INVESTORS',
    category: 'OTHER',
    text: complaintText,
    impersonation: false,
    userId: customer.userId,
    receivedAt: new Date(),
  })
  const user = await prisma.user.findUniqueOrThrow({ where: { id: customer.userId }, select: { pan: true } })
  before = {
    customer,
    pan: user.pan!,
    openClaimId: openClaim.id,
    documentNumbers: (await customerDocuments(customer.userId)).map((document) => document.number).sort(),
    complaintReferences: (await prisma.complaint.findMany({ select: { reference: true } })).map((row) => row.reference),
    payments: await prisma.payment.findMany({
      where: { userId: customer.userId },
      select: { id: true, status: true, amountPaise: true },
      orderBy: { createdAt: 'asc' },
    }),
  }
  expect(before.documentNumbers).toEqual([expect.stringMatching(/\/\d{6}$/), expect.stringMatching(/\/\d{6}$/)])

  const backup = await runScript('db-backup', backupFile, { DATABASE_URL: sourceUrl })
  expect(backup.output).toContain('Backed up the store')
  expect(backup.code, backup.output).toBe(0)
}, 120_000)

afterAll(async () => {
  for (const name of createdDatabases) await dropDatabase(serverUrl, name)
  rmSync(folder, { recursive: true, force: true })
})

describe('npm run db:backup', () => {
  it(
    'writes a custom-format archive that only its owner can read, and names the PAN key to keep with it',
    async () => {
      expect(readFileSync(backupFile).subarray(0, 5).toString()).toBe('PGDMP')
      expect(statSync(backupFile).mode & 0o777).toBe(0o600)
      const again = await runScript('db-backup', backupFile, { DATABASE_URL: sourceUrl })
      expect(again.code).toBe(1)
      expect(again.output).toContain('exists already; give the backup a new name')
    },
    SCRIPT_TIMEOUT_MS,
  )
})

describe('npm run db:restore refuses, and restores nothing', () => {
  it(
    "a backup from a store with other PAN keys: this store's keys cannot read its PANs",
    async () => {
      const target = newDatabase('refused')
      const restore = await runScript('db-restore', backupFile, {
        DATABASE_URL: target.url,
        PAN_ENCRYPTION_KEY: otherKey(),
        PAN_LOOKUP_KEY: otherKey(),
      })
      expect(restore.code).toBe(1)
      expect(restore.output).toContain("Restore refused: This backup's PANs were encrypted with key")
      expect(restore.output).toContain('which this store does not have')
      expect(restore.output).toContain('Nothing was restored.')
      expect(await databaseExists(target.name)).toBe(false)
    },
    SCRIPT_TIMEOUT_MS,
  )

  it(
    'a backup whose lookup hashes another PAN_LOOKUP_KEY made',
    async () => {
      const target = newDatabase('refused')
      const restore = await runScript('db-restore', backupFile, {
        DATABASE_URL: target.url,
        // The key the tests' store encrypts with (demo mode's, made once per data folder), another lookup key.
        PAN_ENCRYPTION_KEY: readFileSync('.data/demo-pan-key', 'utf8').trim(),
        PAN_LOOKUP_KEY: otherKey(),
      })
      expect(restore.code).toBe(1)
      expect(restore.output).toContain('lookup hashes were made with another PAN_LOOKUP_KEY')
      expect(await databaseExists(target.name)).toBe(false)
    },
    SCRIPT_TIMEOUT_MS,
  )

  it(
    'into a database that already holds a store',
    async () => {
      const tablesBefore = await prisma.$queryRaw<
        { count: bigint }[]
      >`SELECT count(*) FROM pg_tables WHERE schemaname = 'public'`
      const restore = await runScript('db-restore', backupFile, { DATABASE_URL: sourceUrl })
      expect(restore.code).toBe(1)
      expect(restore.output).toMatch(/The database \S+ is not empty \(\d+ tables\): restore into a new database/)
      expect(await prisma.$queryRaw`SELECT count(*) FROM pg_tables WHERE schemaname = 'public'`).toEqual(tablesBefore)
      expect(await prisma.payment.count({ where: { userId: before.customer.userId } })).toBe(3)
    },
    SCRIPT_TIMEOUT_MS,
  )

  it(
    'a file that is no backup',
    async () => {
      const notABackup = path.join(folder, 'notes.txt')
      writeFileSync(notABackup, 'not a backup')
      const target = newDatabase('refused')
      const restore = await runScript('db-restore', notABackup, { DATABASE_URL: target.url })
      expect(restore.code).toBe(1)
      expect(restore.output).toContain('is not a backup made by npm run db:backup')
      expect(await databaseExists(target.name)).toBe(false)
    },
    SCRIPT_TIMEOUT_MS,
  )
})

describe('a restored store', () => {
  it('starts, finds the same data, and its invoice and complaint numbers follow on without a gap', async () => {
    const target = newDatabase('restored')
    const restore = await runScript('db-restore', backupFile, { DATABASE_URL: target.url })
    expect(restore.code, restore.output).toBe(0)
    expect(restore.output).toContain('Restored')

    // The store that made the backup stops; one is started on the restored database, as npm start does.
    await stopJobs()
    await prisma.$disconnect()
    const globals = globalThis as { prisma?: unknown; prismaPool?: unknown }
    delete globals.prisma
    delete globals.prismaPool
    process.env.DATABASE_URL = target.url
    vi.resetModules()
    const { env } = await import('~/server/env.server')
    const { prepareDatabase } = await import('../../scripts/db/prepare')
    await prepareDatabase(env)
    const store = await import('../../server/app')
    await store.startInstance()
    const server = store.app.listen(0)
    try {
      await new Promise((resolve) => server.once('listening', resolve))
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const restored = (await import('~/server/db.server')).prisma
      const [current] = await restored.$queryRaw<{ database: string }[]>`SELECT current_database() AS database`
      expect(current?.database).toBe(target.name)

      // The same data, read by the restored store with its keys.
      const user = await restored.user.findUniqueOrThrow({
        where: { id: before.customer.userId },
        select: { pan: true },
      })
      expect(user.pan).toBe(before.pan)
      expect(await restored.user.findFirst({ where: { pan: before.pan }, select: { id: true } })).toEqual({
        id: before.customer.userId,
      })
      expect(
        await restored.payment.findMany({
          where: { userId: before.customer.userId },
          select: { id: true, status: true, amountPaise: true },
          orderBy: { createdAt: 'asc' },
        }),
      ).toEqual(before.payments)
      const complaints = await restored.complaint.findMany({ select: { reference: true, text: true } })
      expect(complaints.map((row) => row.reference)).toEqual(before.complaintReferences)
      expect(complaints[0]!.text).toBe(complaintText)

      // The customer's page of invoices, with the session cookie from before the backup.
      const invoicesRoute = await import('~/routes/invoices')
      const page = (await invoicesRoute.loader(routeArgs(getRequest('/invoices', before.customer.cookie)))) as {
        documents: { number: string }[]
      }
      expect(page.documents.map((document) => document.number).sort()).toEqual(before.documentNumbers)

      // Served: healthy, and its figures are the restored store's.
      expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200)
      const metrics = await (await fetch(`${baseUrl}/metrics`)).text()
      expect(metrics).toContain('research_store_payments_open{state="PENDING_VERIFICATION"} 1')

      // The numbers follow on: the open claim paid now gets the next invoice number, a new complaint the next reference.
      const core = await import('~/server/payments/core.server')
      await core.markPaymentPaid(before.openClaimId, { paidAt: new Date(), source: 'admin' })
      const documents = (
        await (await import('~/server/payments/tax-documents.server')).customerDocuments(before.customer.userId)
      ).map((document) => document.number)
      const next = documents.find((number) => !before.documentNumbers.includes(number))!
      expect(next).toBe(followingNumber(before.documentNumbers.at(-1)!))
      const filing = await import('~/server/complaints/filing.server')
      // Another text: the same one again within minutes would be the complaint already filed.
      const complaint = await filing.fileComplaint({
        source: 'DIRECTLY_FROM_INVESTORS',
        category: 'OTHER',
        text: `${complaintText} Again, after the restore.`,
        impersonation: false,
        userId: before.customer.userId,
        receivedAt: new Date(),
      })
      expect(complaint.reference).toBe(followingNumber(before.complaintReferences.at(-1)!))
    } finally {
      await new Promise((resolve) => server.close(resolve))
      await store.closeApp()
      delete globals.prisma
      delete globals.prismaPool
    }
  }, 120_000)
})

/** INV/2627/000002 → INV/2627/000003: the same number with its last digits counted on by one. */
function followingNumber(number: string): string {
  const [, prefix, digits] = /^(.*?)(\d+)$/.exec(number)!
  return `${prefix}${String(Number(digits) + 1).padStart(digits!.length, '0')}`
}
