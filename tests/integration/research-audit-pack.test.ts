import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { csvLine } from '~/domain/csv'
import { canonicalResearchContent } from '~/domain/research'
import {
  type AuditPackDeliveryRow,
  type AuditPackRollRow,
  deliveryCsvCells,
  parseAuditPackRecord,
  rollCsvCells,
} from '~/domain/research-audit-pack'
import * as rangePackRoute from '~/routes/admin/research-audit-pack'
import * as itemPackRoute from '~/routes/admin/research-item-audit-pack'
import { prisma } from '~/server/db.server'
import { researchAuditPack } from '~/server/research/audit-pack.server'
import { parsePublicKey, verifyAuditPack } from '~/server/research/audit-pack-verify.server'
import { zipEntries, zipStream } from '~/server/research/audit-pack-zip.server'
import { createResearchDraft } from '~/server/research/items.server'
import { publishResearchItem } from '~/server/research/publishing.server'
import { researchSigningKeyFromSeed } from '~/server/research/signing.server'
import { createService } from '../support/payment-fixtures'
import { getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

const DAY_MS = 86_400_000
const HOSTILE_TITLE = '=HYPERLINK("http://evil.example","click"), <script>alert(1)</script> "Banks"'

const DISCLOSURES = {
  financialInterest: false,
  ownershipOnePercent: false,
  compensationPastYear: false,
  aiToolsUsed: false,
  otherConflict: 'None',
} as const

async function thrown(promise: unknown): Promise<{ status: number }> {
  try {
    await promise
  } catch (error) {
    if (error instanceof Response) return error
    if (error && typeof error === 'object' && 'init' in error) return (error as { init: { status: number } }).init
    throw error
  }
  throw new Error('expected a thrown response')
}

/** An item published at `at` for a new service, on the roll of `customers` new subscribers. */
async function publishedItem(title: string, at: Date, customers = 2) {
  const service = await createService(`Equity ${title.slice(0, 20)}`, 100_000, 30)
  const subscribers = await Promise.all(
    Array.from({ length: customers }, () => signedInUser({ completeProfile: true })),
  )
  for (const subscriber of subscribers)
    await prisma.subscription.create({
      data: {
        userId: subscriber.userId,
        serviceId: service.id,
        startsAt: new Date(at.getTime() - DAY_MS),
        endsAt: new Date(at.getTime() + DAY_MS),
        grantReason: 'audit pack test',
        grantedById: subscriber.userId,
      },
    })
  const admin = await signedInUser({ role: 'ADMIN' })
  const draft = await createResearchDraft(admin.userId, {
    title,
    body: '## Summary\nMargins held.',
    serviceIds: [service.id],
    ...DISCLOSURES,
  })
  if (!draft.ok) throw new Error(draft.message)
  const published = await publishResearchItem(draft.id, admin.userId, at)
  if (!published.ok) throw new Error(published.reason)
  return { itemId: draft.id, admin, subscribers }
}

let folder: string | undefined
async function saved(body: ReadableStream<Uint8Array> | null, name = 'pack.zip'): Promise<string> {
  folder ??= mkdtempSync(path.join(tmpdir(), 'audit-pack-'))
  const file = path.join(folder, `${Date.now()}-${Math.random()}-${name}`)
  writeFileSync(file, Buffer.from(await new Response(body).arrayBuffer()))
  return file
}

async function filesOf(file: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for await (const entry of zipEntries(file)) {
    const chunks: Buffer[] = []
    for await (const chunk of await entry.open()) chunks.push(chunk as Buffer)
    files.set(entry.name, Buffer.concat(chunks).toString('utf8'))
  }
  return files
}

/** The pack rewritten with one file changed by `alter`, as someone with the zip and an editor could. */
async function tampered(file: string, name: string, alter: (text: string) => string): Promise<string> {
  const files = await filesOf(file)
  const entries = [...files].map(([entryName, text]) => ({
    name: entryName,
    content: async function* () {
      yield entryName === name ? alter(text) : text
    },
  }))
  const chunks: Buffer[] = []
  for await (const chunk of zipStream(entries, new Date())) chunks.push(chunk)
  return saved(new Response(Buffer.concat(chunks)).body, 'tampered.zip')
}

/** `npm run research:verify -- ...args`: its exit code and what it printed. */
async function researchVerify(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      'scripts/research-verify.ts',
      ...args,
    ])
    return { code: 0, output: stdout }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, output: failed.stdout + failed.stderr }
  }
}

describe('the audit pack: refused', () => {
  it('is 404 for a customer and a visitor, and for a draft or an unknown item; a wrong range is 400', async () => {
    const { itemId, admin } = await publishedItem('Refused pack', new Date('2025-03-03T05:00:00Z'), 1)
    const customer = await signedInUser({ completeProfile: true })
    for (const cookie of [customer.cookie, undefined]) {
      expect(
        (
          await thrown(
            itemPackRoute.loader(routeArgs(getRequest(`/admin/research/${itemId}/audit-pack`, cookie), { itemId })),
          )
        ).status,
      ).toBe(404)
      expect(
        (
          await thrown(
            rangePackRoute.loader(
              routeArgs(getRequest('/admin/research/audit-pack?from=2025-01-01&to=2025-12-31', cookie)),
            ),
          )
        ).status,
      ).toBe(404)
    }
    const draft = await createResearchDraft(admin.userId, {
      title: 'Still a draft',
      body: 'Not yet.',
      serviceIds: (await prisma.researchItemService.findMany({ where: { itemId } })).map((link) => link.serviceId),
      ...DISCLOSURES,
    })
    if (!draft.ok) throw new Error(draft.message)
    for (const id of [draft.id, '00000000-0000-0000-0000-000000000000', 'nope'])
      expect(
        (
          await thrown(
            itemPackRoute.loader(
              routeArgs(getRequest(`/admin/research/${id}/audit-pack`, admin.cookie), { itemId: id }),
            ),
          )
        ).status,
      ).toBe(404)
    for (const query of ['from=2025-12-31&to=2025-01-01', 'from=2025-02-30x&to=2025-03-01', 'to=2025-03-01', ''])
      expect(
        (
          await thrown(
            rangePackRoute.loader(routeArgs(getRequest(`/admin/research/audit-pack?${query}`, admin.cookie))),
          )
        ).status,
      ).toBe(400)
    expect(await prisma.auditLog.count({ where: { action: 'research.audit-pack' } })).toBe(0)
  })
})

describe('the audit pack of one item', () => {
  it('holds the signed record as signed, the public key, the roll and every delivery row, as JSON and CSV', async () => {
    const { itemId, admin, subscribers } = await publishedItem(HOSTILE_TITLE, new Date('2025-04-10T05:30:00Z'))
    await prisma.user.update({ where: { id: subscribers[0]!.userId }, data: { name: '=cmd|" /C calc"!A0' } })
    const response = await itemPackRoute.loader(
      routeArgs(getRequest(`/admin/research/${itemId}/audit-pack`, admin.cookie), { itemId }),
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('application/zip')
    expect(response.headers.get('Content-Disposition')).toBe(`attachment; filename="research-audit-pack-${itemId}.zip"`)
    const file = await saved(response.body)
    const files = await filesOf(file)
    expect([...files.keys()]).toEqual([
      'public-key.pem',
      'records.jsonl',
      'records.csv',
      'roll.jsonl',
      'roll.csv',
      'deliveries.jsonl',
      'deliveries.csv',
      'manifest.json',
    ])

    const item = await prisma.researchItem.findUniqueOrThrow({ where: { id: itemId } })
    const [recordLine, ...moreRecords] = files.get('records.jsonl')!.trimEnd().split('\n')
    expect(moreRecords).toEqual([])
    const record = parseAuditPackRecord(recordLine!)!
    expect(record.signature).toBe(item.signature)
    expect(record.contentSha256).toBe(item.contentSha256)
    expect(record.canonicalContent).toBe(canonicalResearchContent(record.record))
    expect(record.record.title).toBe(HOSTILE_TITLE)
    expect(files.get('public-key.pem')).toContain('-----BEGIN PUBLIC KEY-----')

    // CSV: a title or name that starts as a formula is text, quoted where it holds quotes or commas.
    const recordsCsv = files.get('records.csv')!
    expect(recordsCsv.startsWith('\uFEFFItem id,Kind,Status,Title,')).toBe(true)
    expect(recordsCsv).toContain(
      `"'=HYPERLINK(""http://evil.example"",""click""), <script>alert(1)</script> ""Banks"""`,
    )
    const rollCsv = files.get('roll.csv')!
    expect(rollCsv).toContain(`"'=cmd|"" /C calc""!A0"`)
    expect(rollCsv.trimEnd().split('\r\n')).toHaveLength(3)

    const roll = files
      .get('roll.jsonl')!
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(roll.map((row) => row.userId).sort()).toEqual(subscribers.map((subscriber) => subscriber.userId).sort())
    expect(roll[0]).toMatchObject({ itemId, deliveredAt: '2025-04-10T05:30:00.000Z' })
    const deliveries = files
      .get('deliveries.jsonl')!
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line))
    const stored = await prisma.researchDelivery.findMany({ where: { itemId } })
    expect(deliveries).toHaveLength(stored.length)
    expect(stored.length).toBeGreaterThan(0)
    expect(deliveries[0]).toMatchObject({ itemId, channel: 'EMAIL', status: 'QUEUED', attempts: 0, sentAt: null })
    expect(files.get('deliveries.csv')!.trimEnd().split('\r\n')).toHaveLength(stored.length + 1)
    expect(JSON.parse(files.get('manifest.json')!)).toMatchObject({
      version: 1,
      scope: { itemId },
      rows: { records: 1, roll: 2, deliveries: stored.length },
    })

    expect(
      await prisma.auditLog.count({
        where: { action: 'research.audit-pack', subjectId: itemId, actorId: admin.userId },
      }),
    ).toBe(1)

    const verified = await verifyAuditPack(file, { givenKey: parsePublicKey(files.get('public-key.pem')!) })
    expect(verified).toMatchObject({ ok: true, records: 1, altered: [], problems: [], matchesGivenKey: true })
  })
})

describe('the audit pack of a date range', () => {
  it('holds the items published on those India dates, a batch at a time, and verify names the one record altered', async () => {
    const first = await publishedItem('Autos: first of the year', new Date('2024-12-31T19:00:00Z'), 2) // 1 Jan, India
    const second = await publishedItem('Metals: second', new Date('2025-01-20T06:00:00Z'), 5)
    await publishedItem('Outside the range', new Date('2025-02-01T00:00:00Z'), 1) // 1 Feb, India
    await publishedItem('Before the range', new Date('2024-12-31T18:00:00Z'), 1) // 31 Dec, India

    const pack = await researchAuditPack(
      first.admin.userId,
      { from: '2025-01-01', to: '2025-01-31' },
      { batchBytes: 64 },
    )
    const file = await saved(pack!.body)
    const files = await filesOf(file)
    const ids = files
      .get('records.jsonl')!
      .trimEnd()
      .split('\n')
      .map((line) => parseAuditPackRecord(line)!.id)
    expect(ids).toEqual([first.itemId, second.itemId])
    expect(files.get('roll.jsonl')!.trimEnd().split('\n')).toHaveLength(7)
    expect(files.get('roll.csv')!.trimEnd().split('\r\n')).toHaveLength(8)
    expect(JSON.parse(files.get('manifest.json')!).rows).toMatchObject({ records: 2, roll: 7 })
    // The pack's order: the items' rows one item after the other, oldest first, each item's by customer (their
    // ids are random, so not the order they were written in) and then channel. The SQL's ORDER BY names only the
    // items' order; the rows' is their subquery's (decision 067).
    const rowsOf = (file: string) =>
      files
        .get(file)!
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { itemId: string; userId: string; channel?: string })
    const packOrder = ({ itemId, userId, channel }: { itemId: string; userId: string; channel?: string }) =>
      `${ids.indexOf(itemId)} ${userId} ${channel ? ['EMAIL', 'SMS', 'TELEGRAM'].indexOf(channel) : ''}`
    for (const file of ['roll.jsonl', 'deliveries.jsonl']) {
      const order = rowsOf(file).map(packOrder)
      expect(order).toEqual([...order].sort())
    }
    expect(new Set(rowsOf('roll.jsonl').map((row) => row.userId))).toEqual(
      new Set([...first.subscribers, ...second.subscribers].map((subscriber) => subscriber.userId)),
    )
    expect(await verifyAuditPack(file)).toMatchObject({ ok: true, records: 2 })
    writeFileSync(path.join(folder!, 'public-key.pem'), files.get('public-key.pem')!)
    const passed = await researchVerify(file)
    expect(passed).toMatchObject({ code: 0 })
    expect(passed.output).toContain('Records: 2, altered: 0')

    // One byte of the second record's title, in its fields.
    const alteredFields = await tampered(file, 'records.jsonl', (text) =>
      text.replace('"title":"Metals: second"', '"title":"Metals: secOnd"'),
    )
    const script = await researchVerify(alteredFields, '--key', path.join(folder!, 'public-key.pem'))
    expect(script.code).toBe(1)
    expect(script.output).toContain(`ALTERED record ${second.itemId} (records.jsonl line 2, "Metals: secOnd")`)
    expect(script.output).toContain('Key given: the same key')
    expect(script.output).not.toContain(first.itemId)
    const caught = await verifyAuditPack(alteredFields)
    expect(caught.ok).toBe(false)
    expect(caught.altered).toEqual([expect.objectContaining({ id: second.itemId, title: 'Metals: secOnd', line: 2 })])

    // The same byte in the signed text as well: the hash and the signature still catch it.
    const alteredBoth = await tampered(file, 'records.jsonl', (text) =>
      text.replaceAll('Metals: second', 'Metals: secOnd'),
    )
    const caughtBoth = await verifyAuditPack(alteredBoth)
    expect(caughtBoth.altered.map((record) => record.id)).toEqual([second.itemId])
    expect(caughtBoth.altered[0]!.problems).toContain('the signature does not verify')

    // A record taken out: the manifest's count says so.
    const shortened = await tampered(file, 'records.jsonl', (text) => text.split('\n')[0]! + '\n')
    expect((await verifyAuditPack(shortened)).problems).toEqual(['the manifest counts 2 records, records.jsonl has 1'])

    // Another key: the pack verifies against the key inside it, not against the store's.
    const otherKey = researchSigningKeyFromSeed(Buffer.alloc(32, 7).toString('base64'))
    expect(await verifyAuditPack(file, { givenKey: otherKey.publicKey })).toMatchObject({
      ok: false,
      matchesGivenKey: false,
    })
    // It starts research:verify twice, each a Node process of its own.
  }, 120_000)
})

describe('the lines of the roll and the log', () => {
  // PostgreSQL writes them (decision 059); they must be what the row types, JSON.stringify and csvLine say.
  it('are JSON.stringify of each row and csvLine of its cells, whatever a name or a provider wrote', async () => {
    const { itemId, admin, subscribers } = await publishedItem('Lines', new Date('2025-05-05T05:05:05.123Z'), 3)
    const hostile = ['=1+2 "Rao", Asha\r\nback\\slash\ttab \u0001\u001f राम ₹ 😀', '-2.5', '+919876543210', '']
    await prisma.user.update({ where: { id: subscribers[0]!.userId }, data: { name: hostile[0], email: '@x.example' } })
    await prisma.user.update({ where: { id: subscribers[1]!.userId }, data: { name: hostile[1] } })
    await prisma.user.update({ where: { id: subscribers[2]!.userId }, data: { name: hostile[3] } })
    await prisma.researchDelivery.updateMany({
      where: { itemId, userId: subscribers[0]!.userId },
      data: {
        status: 'FAILED',
        attempts: 3,
        failedAt: new Date('2025-05-05T06:00:00Z'),
        lastError: hostile[0],
        providerMessageId: '-abc,"d"',
      },
    })
    await prisma.researchDelivery.updateMany({
      where: { itemId, userId: subscribers[1]!.userId },
      data: { status: 'SENT', attempts: 1, sentAt: new Date('2025-05-05T05:06:00Z'), providerMessageId: hostile[2] },
    })
    const files = await filesOf(await saved((await researchAuditPack(admin.userId, { itemId }))!.body))

    const rollLines = files.get('roll.jsonl')!.split('\n').slice(0, -1)
    const roll = rollLines.map((line) => JSON.parse(line) as AuditPackRollRow)
    expect(rollLines).toEqual(roll.map((row) => JSON.stringify(row)))
    expect(roll.map((row) => Object.keys(row))).toEqual(
      roll.map(() => ['itemId', 'userId', 'name', 'phone', 'email', 'deliveredAt']),
    )
    expect(roll.map((row) => row.name).sort()).toEqual([...hostile.slice(0, 2), hostile[3]].sort())
    expect(roll[0]!.deliveredAt).toBe('2025-05-05T05:05:05.123Z')
    expect(files.get('roll.csv')).toBe(
      '\uFEFFItem id,Customer id,Name,Phone,E-mail,Delivered (UTC)\r\n' +
        roll.map((row) => csvLine(rollCsvCells(row))).join(''),
    )

    const deliveryLines = files.get('deliveries.jsonl')!.split('\n').slice(0, -1)
    const deliveries = deliveryLines.map((line) => JSON.parse(line) as AuditPackDeliveryRow)
    expect(deliveryLines).toEqual(deliveries.map((row) => JSON.stringify(row)))
    expect(deliveries).toHaveLength(3)
    expect(deliveries.map((row) => row.lastError)).toContain(hostile[0])
    expect(deliveries.map((row) => row.providerMessageId)).toContain(hostile[2])
    expect(deliveries.find((row) => row.status === 'SENT')).toMatchObject({
      attempts: 1,
      sentAt: '2025-05-05T05:06:00.000Z',
    })
    expect(files.get('deliveries.csv')!.split('\r\n', 1)[0]).toBe(
      '\uFEFFDelivery id,Item id,Customer id,Channel,Status,Attempts,Queued (UTC),Sent (UTC),Delivered (UTC),Failed (UTC),Provider message id,Failure reason',
    )
    expect(files.get('deliveries.csv')!.slice(files.get('deliveries.csv')!.indexOf('\r\n') + 2)).toBe(
      deliveries.map((row) => csvLine(deliveryCsvCells(row))).join(''),
    )
  })
})
