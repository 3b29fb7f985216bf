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
import { COPY_LINES_BATCH_BYTES, copyLines, type LinesBatch } from '../copy-lines.server'
import { afterKey, batchesInKeyOrder } from '../keyset.server'
import { researchItemSelect, researchRecordOf } from './items.server'
import { researchSigningKey, type ResearchSigningKey } from './signing.server'
import { zipStream, type ZipEntrySource } from './audit-pack-zip.server'
import { getFileStorage } from '../storage.server'

// The audit pack (docs/research.md, "Audit pack"; decision 041): the signed records of one item or of
// every item published in a date range, the public key, the roll and the delivery log, as a zip
// written while it is downloaded. The roll and the log are read by COPY on a connection of the pack's
// own, in one snapshot (the JSON and CSV files of a table hold the same rows), a batch at a time.

/** Signed records read at a time (each with its body, up to the body limit). */
const AUDIT_PACK_RECORD_BATCH_ROWS = 100

/** How long a download may wait for its reader before PostgreSQL ends its snapshot (and the download). */
const STALLED_DOWNLOAD_MS = 10 * 60_000

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
    batchBytes = COPY_LINES_BATCH_BYTES,
  }: { now?: Date; key?: ResearchSigningKey; batchBytes?: number } = {},
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
  return { filename, body: webStream(packBytes(scope, where, now, key, batchBytes, attachments)) }
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
  batchBytes: number,
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
      content: () => countedLines(snapshot.lines(linesSql(ROLL, 'json'), batchBytes), counts, 'roll'),
    },
    {
      name: AUDIT_PACK_FILES.rollCsv,
      content: () => csvLines(ROLL_CSV_HEADER, snapshot.lines(linesSql(ROLL, 'csv'), batchBytes)),
    },
    {
      name: AUDIT_PACK_FILES.deliveriesJson,
      content: () => countedLines(snapshot.lines(linesSql(DELIVERIES, 'json'), batchBytes), counts, 'deliveries'),
    },
    {
      name: AUDIT_PACK_FILES.deliveriesCsv,
      content: () => csvLines(DELIVERIES_CSV_HEADER, snapshot.lines(linesSql(DELIVERIES, 'csv'), batchBytes)),
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
): AsyncGenerator<Buffer> {
  for await (const { bytes, rows } of batches) {
    counts[counted] += rows
    yield bytes
  }
}

async function* csvLines(
  header: readonly string[],
  batches: AsyncIterable<LinesBatch>,
): AsyncGenerator<string | Buffer> {
  yield CSV_BYTE_ORDER_MARK + csvLine(header)
  for await (const { bytes } of batches) yield bytes
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
 * A field of a pack line and how it is written: `id` an id or the name of a state (JSON quotes it, nothing
 * needs escaping or guarding), `count` a number, `time` a time (UTC, as JSON writes a Date), `text` what a
 * customer or a provider wrote (JSON escapes it, CSV guards and quotes it).
 */
type PackField = { name: string; sql: string; kind: 'id' | 'count' | 'time' | 'text' }

/**
 * A table of the pack as PostgreSQL writes its lines (decisions 059, 064, 065 and 067): `fields` are named and ordered
 * as AuditPackRollRow and AuditPackDeliveryRow, and as rollCsvCells and deliveryCsvCells, so a JSON line is
 * JSON.stringify of the row and a CSV line csvLine of its cells (tests/integration/research-audit-pack.test.ts
 * holds them equal). Only `text` fields are escaped, guarded and quoted: the others are ids, names of states,
 * counts and times, which need none of it. The JSON is joined from its fields rather than made by row_to_json,
 * which writes every value through its type's JSON path: a third less of the statement's time (decision 064).
 * `ofItem` is the table's rows of one item `i`, in the pack's order within the item: a subquery with its own
 * ORDER BY, the one its index has, so each item's rows stream in that order, never held back by a sort.
 */
type PackTable = { ofItem: string; fields: readonly PackField[] }

const ROLL: PackTable = {
  ofItem: `(SELECT r.item_id, r.user_id, r.delivered_at, u.name, u.phone, u.email
    FROM research_roll r JOIN users u ON u.id = r.user_id WHERE r.item_id = i.id ORDER BY r.user_id) r`,
  fields: [
    { name: 'itemId', sql: 'r.item_id', kind: 'id' },
    { name: 'userId', sql: 'r.user_id', kind: 'id' },
    { name: 'name', sql: 'r.name', kind: 'text' },
    { name: 'phone', sql: 'r.phone', kind: 'text' },
    { name: 'email', sql: 'r.email', kind: 'text' },
    { name: 'deliveredAt', sql: 'r.delivered_at', kind: 'time' },
  ],
}

const DELIVERIES: PackTable = {
  ofItem: '(SELECT d.* FROM research_deliveries d WHERE d.item_id = i.id ORDER BY d.user_id, d.channel) d',
  fields: [
    { name: 'id', sql: 'd.id', kind: 'id' },
    { name: 'itemId', sql: 'd.item_id', kind: 'id' },
    { name: 'userId', sql: 'd.user_id', kind: 'id' },
    { name: 'channel', sql: 'd.channel', kind: 'id' },
    { name: 'status', sql: 'd.status', kind: 'id' },
    { name: 'attempts', sql: 'd.attempts', kind: 'count' },
    { name: 'queuedAt', sql: 'd.queued_at', kind: 'time' },
    { name: 'sentAt', sql: 'd.sent_at', kind: 'time' },
    { name: 'deliveredAt', sql: 'd.delivered_at', kind: 'time' },
    { name: 'failedAt', sql: 'd.failed_at', kind: 'time' },
    { name: 'providerMessageId', sql: 'd.provider_message_id', kind: 'text' },
    { name: 'lastError', sql: 'd.last_error', kind: 'text' },
  ],
}

/** A field's value as JSON.stringify writes it (the names are ours, and need no escaping). */
function jsonValueSql({ sql, kind }: PackField): string {
  if (kind === 'text') return `coalesce(to_json(${sql})::text, 'null')`
  if (kind === 'count') return `coalesce(${sql}::text, 'null')`
  return `coalesce('"' || ${kind === 'time' ? utc(sql) : `${sql}::text`} || '"', 'null')`
}

/**
 * The table's lines in `format`, one text per row, in the pack's order (ITEMS_IN_SCOPE standing for the scope):
 * items oldest first, then each item's rows (decision 067). Both orders are their subqueries': a subquery with an
 * ORDER BY is planned on its own, never merged into the join, and the reference to `i` makes the join a nested
 * loop with the items outside, which runs the rows' subquery once an item, in the items' order. The statement has
 * no ORDER BY of its own: PostgreSQL cannot see that the loop already has the order, and would sort the rows
 * before sending the first of them (by all three keys, every row of a range; by the items' keys, which are all
 * equal, every row of one item).
 */
function linesSql(table: PackTable, format: 'json' | 'csv'): string {
  const text =
    format === 'json'
      ? `'{' || ${table.fields.map((field, index) => `'${index ? ',' : ''}"${field.name}":' || ${jsonValueSql(field)}`).join(' || ')} || E'}\\n'`
      : csvLineSql(
          table.fields.map(({ sql, kind }) =>
            kind === 'text' ? csvCellSql(`${sql}::text`) : plainCellSql(kind === 'time' ? utc(sql) : `${sql}::text`),
          ),
        )
  return `SELECT ${text}
    FROM (SELECT i.id, i.published_at FROM research_items i
      WHERE i.signature IS NOT NULL AND ITEMS_IN_SCOPE ORDER BY i.published_at, i.id) i
    CROSS JOIN LATERAL ${table.ofItem}`
}

/**
 * One connection and one read-only snapshot for the pack's roll and log: each file is a COPY over it, read a
 * batch at a time, so both files of a table hold the same rows however the tables change.
 */
class PackSnapshot {
  private client: pg.Client | null = null

  constructor(private readonly where: ItemsWhere) {}

  private async open(): Promise<pg.Client> {
    if (this.client) return this.client
    const client = new pg.Client({ connectionString: env.DATABASE_URL })
    // A connection lost between two batches fails the next one, which ends the download; unheard, it would end the store.
    client.on('error', () => {})
    this.client = client
    await client.connect()
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    await client.query(`SET LOCAL idle_in_transaction_session_timeout = ${STALLED_DOWNLOAD_MS}`)
    // An item-at-a-time plan is costed from each item's average rows times every item, far past JIT's threshold:
    // compiling its expressions with optimisation costs more than the lines it would speed up (decision 065).
    await client.query('SET LOCAL jit = off')
    // The index in the pack's order, not a bitmap scan and a sort: an item's rows then go out as they are read,
    // instead of after all of them are (an item sent to 100,000 held the download back for their sort; decision 067).
    await client.query('SET LOCAL enable_bitmapscan = off')
    // Workers would hand their rows on in the order they finish them: the order above is one process's.
    await client.query('SET LOCAL max_parallel_workers_per_gather = 0')
    return client
  }

  /**
   * The lines of `sql` (one text a row; ITEMS_IN_SCOPE standing for the scope's condition), `batchBytes` or so
   * at a time, as PostgreSQL wrote them (copy-lines.server.ts). COPY takes no parameters: the scope's id and
   * times are written into the SQL as literals.
   */
  async *lines(sql: string, batchBytes: number): AsyncGenerator<LinesBatch> {
    const client = await this.open()
    const literal = (value: string) => client.escapeLiteral(value)
    const condition =
      'id' in this.where
        ? `i.id = ${literal(this.where.id)}::uuid`
        : `i.published_at >= ${literal(this.where.publishedAt.gte.toISOString())}::timestamptz
          AND i.published_at < ${literal(this.where.publishedAt.lt.toISOString())}::timestamptz`
    yield* copyLines(client, sql.replace('ITEMS_IN_SCOPE', condition), {
      batchBytes,
      stalledAfterMs: STALLED_DOWNLOAD_MS,
    })
  }

  async close() {
    const client = this.client
    this.client = null
    await client?.end().catch(() => {})
  }
}

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
