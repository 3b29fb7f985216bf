import pg from 'pg'
import { CSV_BYTE_ORDER_MARK, type CsvCell, csvCellSql, csvLine, csvLineSql, plainCellSql } from '~/domain/csv'
import { indiaMidnight, MS_PER_DAY } from '~/domain/dates'
import { canonicalResearchContent } from '~/domain/research'
import {
  attachmentEntryName,
  AUDIT_PACK_FILES,
  AUDIT_PACK_FORMAT_VERSION,
  type AuditPackRange,
  type AuditPackRecord,
  DELIVERIES_CSV_HEADER,
  RECORDS_CSV_HEADER,
  recordCsvCells,
  ROLL_CSV_HEADER,
} from '~/domain/research-audit-pack'
import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'
import { env } from '../env.server'
import { releasableChunk } from '../http/released-chunks.server'
import { afterKey, batchesInKeyOrder } from '../keyset.server'
import { researchItemSelect, researchRecordOf } from './items.server'
import { researchSigningKey, type ResearchSigningKey } from './signing.server'
import { zipStream, type ZipEntrySource } from './audit-pack-zip.server'
import { getFileStorage } from '../storage.server'

// The audit pack (docs/research.md, "Audit pack"; decision 041): the signed records of one item or of
// every item published in a date range, the public key, the roll and the delivery log, as a zip
// written while it is downloaded. The roll and the log are read by a cursor on a connection of the
// pack's own, in one snapshot (the JSON and CSV files of a table hold the same rows), a batch at a time.

/** Rows fetched from a cursor at a time: the memory a pack holds however large its range. */
export const AUDIT_PACK_BATCH_ROWS = 2_000

/** Signed records read at a time (each with its body, up to the body limit). */
const AUDIT_PACK_RECORD_BATCH_ROWS = 100

/** How long a download may wait for its reader before PostgreSQL ends its snapshot (and the download). */
const STALLED_DOWNLOAD_TIMEOUT = '10min'

export type AuditPackScope = { itemId: string } | AuditPackRange

export type AuditPack = { filename: string; body: ReadableStream<Uint8Array> }

/**
 * The pack of one published item, or of the items published on the India dates `from` to `to` (both
 * included); null when the item is not a signed record. Audited before its first byte: it names customers.
 */
export async function researchAuditPack(
  actorId: string,
  scope: AuditPackScope,
  {
    now = new Date(),
    key = researchSigningKey(),
    batchRows = AUDIT_PACK_BATCH_ROWS,
  }: { now?: Date; key?: ResearchSigningKey; batchRows?: number } = {},
): Promise<AuditPack | null> {
  const where = itemsWhere(scope, now)
  if ('itemId' in scope) {
    const signed = await prisma.researchItem.count({ where: { id: scope.itemId, signature: { not: null } } })
    if (!signed) return null
  }
  await prisma.$transaction((tx) =>
    recordAudit(
      tx,
      {
        actorId,
        action: 'research.audit-pack',
        subjectType: 'itemId' in scope ? 'research_item' : 'research_audit_pack',
        subjectId: 'itemId' in scope ? scope.itemId : `${scope.from}..${scope.to}`,
        before: null,
        after: { scope },
      },
      now,
    ),
  )
  // The PDFs go in the pack as stored, so research:verify can hash each against its signed record.
  const attachments = await prisma.researchItem.findMany({
    where: { ...where, signature: { not: null }, attachmentKey: { not: null } },
    orderBy: [{ publishedAt: 'asc' }, { id: 'asc' }],
    select: { id: true, attachmentKey: true },
  })
  const filename =
    'itemId' in scope
      ? `research-audit-pack-${scope.itemId}.zip`
      : `research-audit-pack-${scope.from}-to-${scope.to}.zip`
  return { filename, body: webStream(packBytes(scope, where, now, key, batchRows, attachments)) }
}

type ItemsWhere = { id: string } | { publishedAt: { gte: Date; lt: Date } }

function itemsWhere(scope: AuditPackScope, now: Date): ItemsWhere {
  if ('itemId' in scope) return { id: scope.itemId }
  const end = new Date(indiaMidnight(scope.to).getTime() + MS_PER_DAY)
  // Items published after the pack began are the next pack's: the roll and the log then match the records.
  return { publishedAt: { gte: indiaMidnight(scope.from), lt: end < now ? end : now } }
}

async function* packBytes(
  scope: AuditPackScope,
  where: ItemsWhere,
  now: Date,
  key: ResearchSigningKey,
  batchRows: number,
  attachments: { id: string; attachmentKey: string | null }[],
): AsyncGenerator<Buffer> {
  const snapshot = new PackSnapshot(where)
  const counts = { records: 0, roll: 0, deliveries: 0 }
  /** Attachments the storage no longer has: their entries are empty, and the manifest names them. */
  const missingAttachments: string[] = []
  const entries: ZipEntrySource[] = [
    {
      name: AUDIT_PACK_FILES.publicKey,
      content: async function* () {
        yield key.publicKeyPem
      },
    },
    { name: AUDIT_PACK_FILES.recordsJson, content: () => jsonLines(signedRecords(where), counts, 'records') },
    {
      name: AUDIT_PACK_FILES.recordsCsv,
      content: () => csvFile(RECORDS_CSV_HEADER, signedRecords(where), recordCsvCells),
    },
    {
      name: AUDIT_PACK_FILES.rollJson,
      content: () => countedLines(snapshot.lines(linesSql(ROLL, 'json'), batchRows), counts, 'roll'),
    },
    {
      name: AUDIT_PACK_FILES.rollCsv,
      content: () => csvLines(ROLL_CSV_HEADER, snapshot.lines(linesSql(ROLL, 'csv'), batchRows)),
    },
    {
      name: AUDIT_PACK_FILES.deliveriesJson,
      content: () => countedLines(snapshot.lines(linesSql(DELIVERIES, 'json'), batchRows), counts, 'deliveries'),
    },
    {
      name: AUDIT_PACK_FILES.deliveriesCsv,
      content: () => csvLines(DELIVERIES_CSV_HEADER, snapshot.lines(linesSql(DELIVERIES, 'csv'), batchRows)),
    },
    ...attachments.map(({ id, attachmentKey }) => ({
      name: attachmentEntryName(id),
      content: async function* () {
        const stored = attachmentKey ? await getFileStorage().get(attachmentKey) : null
        if (!stored) return void missingAttachments.push(id)
        for await (const chunk of stored.body as unknown as AsyncIterable<Uint8Array>) yield chunk
      },
    })),
    // Last, so it can count what came before it.
    {
      name: AUDIT_PACK_FILES.manifest,
      content: async function* () {
        yield JSON.stringify(
          {
            format: 'research-store audit pack',
            version: AUDIT_PACK_FORMAT_VERSION,
            scope,
            createdAt: now.toISOString(),
            signingKeyFingerprint: key.fingerprint,
            files: AUDIT_PACK_FILES,
            rows: counts,
            attachments: { files: attachments.length, missingFromStorage: missingAttachments },
          },
          null,
          2,
        )
      },
    },
  ]
  try {
    yield* zipStream(entries, now)
  } finally {
    await snapshot.close()
  }
}

/** The signed records in scope, oldest first, each with the exact text its signature is over. */
async function* signedRecords(where: ItemsWhere): AsyncGenerator<AuditPackRecord[]> {
  const batches = batchesInKeyOrder(
    (after, take) =>
      prisma.researchItem.findMany({
        where: { ...where, signature: { not: null }, ...afterKey('publishedAt', after) },
        orderBy: [{ publishedAt: 'asc' }, { id: 'asc' }],
        take,
        select: researchItemSelect,
      }),
    (item) => ({ at: item.publishedAt!, id: item.id }),
    AUDIT_PACK_RECORD_BATCH_ROWS,
  )
  for await (const items of batches) {
    yield items.flatMap((item) => {
      const record = researchRecordOf(item)
      if (!record || !item.signature) return []
      return [
        {
          id: item.id,
          status: item.status,
          contentSha256: item.contentSha256 ?? '',
          signature: item.signature,
          signingKeyFingerprint: item.signingKeyFingerprint ?? '',
          canonicalContent: canonicalResearchContent(record),
          record,
        },
      ]
    })
  }
}

async function* jsonLines<Row>(
  batches: AsyncIterable<Row[]>,
  counts: Record<'records' | 'roll' | 'deliveries', number>,
  counted: 'records' | 'roll' | 'deliveries',
): AsyncGenerator<string> {
  for await (const rows of batches) {
    counts[counted] += rows.length
    let text = ''
    for (const row of rows) text += JSON.stringify(row) + '\n'
    yield text
  }
}

/** Lines the database wrote, a batch at a time, counted. */
async function* countedLines(
  batches: AsyncIterable<LinesBatch>,
  counts: Record<'records' | 'roll' | 'deliveries', number>,
  counted: 'records' | 'roll' | 'deliveries',
): AsyncGenerator<string> {
  for await (const { text, rows } of batches) {
    counts[counted] += rows
    yield text
  }
}

async function* csvLines(header: readonly string[], batches: AsyncIterable<LinesBatch>): AsyncGenerator<string> {
  yield CSV_BYTE_ORDER_MARK + csvLine(header)
  for await (const { text } of batches) yield text
}

async function* csvFile<Row>(
  header: readonly string[],
  batches: AsyncIterable<Row[]>,
  cells: (row: Row) => CsvCell[],
): AsyncGenerator<string> {
  yield CSV_BYTE_ORDER_MARK + csvLine(header)
  for await (const rows of batches) {
    let text = ''
    for (const row of rows) text += csvLine(cells(row))
    yield text
  }
}

/** A time as JSON writes a Date, computed by PostgreSQL (cheaper than a Date per cell). */
const utc = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/**
 * A table of the pack as PostgreSQL writes its lines (decision 059): `line` names the row's fields
 * as AuditPackRollRow and AuditPackDeliveryRow do, in their order, and `csvColumns` the CSV's cells
 * as rollCsvCells and deliveryCsvCells do, so a JSON line is JSON.stringify of the row and a CSV line
 * csvLine of its cells (tests/integration/research-audit-pack.test.ts holds them equal). Only the
 * `textColumns`, which hold what a customer or a provider wrote, are guarded and quoted: the others
 * are ids, names of states, counts and times, which need neither (and cost PostgreSQL 4 times less).
 */
type PackTable = {
  from: string
  line: string
  orderBy: string
  csvColumns: readonly string[]
  textColumns: ReadonlySet<string>
}

const ROLL: PackTable = {
  from: `research_items i
    JOIN research_roll r ON r.item_id = i.id
    JOIN users u ON u.id = r.user_id`,
  line: `SELECT r.item_id AS "itemId", r.user_id AS "userId", u.name, u.phone, u.email,
    ${utc('r.delivered_at')} AS "deliveredAt"`,
  orderBy: 'i.published_at, i.id, r.user_id',
  csvColumns: ['itemId', 'userId', 'name', 'phone', 'email', 'deliveredAt'],
  textColumns: new Set(['name', 'phone', 'email']),
}

const DELIVERIES: PackTable = {
  from: `research_items i
    JOIN research_deliveries d ON d.item_id = i.id`,
  line: `SELECT d.id, d.item_id AS "itemId", d.user_id AS "userId", d.channel, d.status, d.attempts,
    ${utc('d.queued_at')} AS "queuedAt", ${utc('d.sent_at')} AS "sentAt", ${utc('d.delivered_at')} AS "deliveredAt",
    ${utc('d.failed_at')} AS "failedAt", d.provider_message_id AS "providerMessageId", d.last_error AS "lastError"`,
  orderBy: 'i.published_at, i.id, d.user_id, d.channel',
  csvColumns: [
    'id',
    'itemId',
    'userId',
    'channel',
    'status',
    'attempts',
    'queuedAt',
    'sentAt',
    'deliveredAt',
    'failedAt',
    'providerMessageId',
    'lastError',
  ],
  textColumns: new Set(['providerMessageId', 'lastError']),
}

/** The table's lines in `format`, one text per row, in the pack's order (ITEMS_IN_SCOPE standing for the scope). */
function linesSql(table: PackTable, format: 'json' | 'csv'): string {
  const text =
    format === 'json'
      ? `row_to_json(line)::text || E'\\n'`
      : csvLineSql(
          table.csvColumns.map((column) =>
            (table.textColumns.has(column) ? csvCellSql : plainCellSql)(`line."${column}"::text`),
          ),
        )
  return `SELECT ${text}
    FROM ${table.from}
    CROSS JOIN LATERAL (${table.line}) line
    WHERE i.signature IS NOT NULL AND ITEMS_IN_SCOPE
    ORDER BY ${table.orderBy}`
}

/**
 * One connection and one read-only snapshot for the pack's roll and log: each file is a cursor over
 * it, fetched a batch at a time, so both files of a table hold the same rows however the tables change.
 */
class PackSnapshot {
  private client: pg.Client | null = null
  private cursors = 0

  constructor(private readonly where: ItemsWhere) {}

  private async open(): Promise<pg.Client> {
    if (this.client) return this.client
    const client = new pg.Client({ connectionString: env.DATABASE_URL })
    // A connection lost between two FETCHes fails the next one, which ends the download; unheard, it would end the store.
    client.on('error', () => {})
    this.client = client
    await client.connect()
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    await client.query(`SET LOCAL idle_in_transaction_session_timeout = '${STALLED_DOWNLOAD_TIMEOUT}'`)
    return client
  }

  /**
   * The lines of `sql` (one text a row; ITEMS_IN_SCOPE standing for the scope's condition), `batchRows`
   * at a time. The next batch is asked for before this one is handed on, so PostgreSQL writes it while
   * the zip compresses this one.
   */
  async *lines(sql: string, batchRows: number): AsyncGenerator<LinesBatch> {
    const client = await this.open()
    const cursor = `audit_pack_${++this.cursors}`
    const [condition, values] =
      'id' in this.where
        ? ['i.id = $1::uuid', [this.where.id]]
        : ['i.published_at >= $1 AND i.published_at < $2', [this.where.publishedAt.gte, this.where.publishedAt.lt]]
    await client.query({
      text: `DECLARE ${cursor} NO SCROLL CURSOR FOR ${sql.replace('ITEMS_IN_SCOPE', condition)}`,
      values,
    })
    const fetchBatch = () => {
      const batch = client.query<[string]>({ text: `FETCH FORWARD ${batchRows} FROM ${cursor}`, rowMode: 'array' })
      // A download ended early closes the connection under a batch asked for: its failure is nobody's to hear.
      batch.catch(() => {})
      return batch
    }
    for (let next: Promise<{ rows: [string][] }> | null = fetchBatch(); next;) {
      const { rows }: { rows: [string][] } = await next
      next = rows.length === batchRows ? fetchBatch() : null
      let text = ''
      for (const [line] of rows) text += line
      if (rows.length) yield { text, rows: rows.length }
    }
    await client.query(`CLOSE ${cursor}`)
  }

  async close() {
    const client = this.client
    this.client = null
    await client?.end().catch(() => {})
  }
}

type LinesBatch = { text: string; rows: number }

/** The pack as a response body, read only as fast as the download goes. */
function webStream(bytes: AsyncGenerator<Buffer>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async pull(controller) {
      const next = await bytes.next()
      // zlib's chunks share their memory; a copy of its own can be released once written (released-chunks.server.ts).
      if (next.done) controller.close()
      else controller.enqueue(releasableChunk(new Uint8Array(next.value)))
    },
    async cancel() {
      await bytes.return(undefined)
    },
  })
}
