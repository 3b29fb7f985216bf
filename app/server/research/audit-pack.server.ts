import pg from 'pg'
import { CSV_BYTE_ORDER_MARK, type CsvCell, csvLine } from '~/domain/csv'
import { indiaMidnight, MS_PER_DAY } from '~/domain/dates'
import { canonicalResearchContent } from '~/domain/research'
import {
  attachmentEntryName,
  AUDIT_PACK_FILES,
  AUDIT_PACK_FORMAT_VERSION,
  type AuditPackDeliveryRow,
  type AuditPackRange,
  type AuditPackRecord,
  type AuditPackRollRow,
  DELIVERIES_CSV_HEADER,
  deliveryCsvCells,
  RECORDS_CSV_HEADER,
  recordCsvCells,
  ROLL_CSV_HEADER,
  rollCsvCells,
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
      content: () => jsonLines(snapshot.rows(ROLL_SQL, rollRow, batchRows), counts, 'roll'),
    },
    {
      name: AUDIT_PACK_FILES.rollCsv,
      content: () => csvFile(ROLL_CSV_HEADER, snapshot.rows(ROLL_SQL, rollRow, batchRows), rollCsvCells),
    },
    {
      name: AUDIT_PACK_FILES.deliveriesJson,
      content: () => jsonLines(snapshot.rows(DELIVERIES_SQL, deliveryRow, batchRows), counts, 'deliveries'),
    },
    {
      name: AUDIT_PACK_FILES.deliveriesCsv,
      content: () =>
        csvFile(DELIVERIES_CSV_HEADER, snapshot.rows(DELIVERIES_SQL, deliveryRow, batchRows), deliveryCsvCells),
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

const ROLL_SQL = `
  SELECT r.item_id::text, r.user_id::text, u.name, u.phone, u.email, ${utc('r.delivered_at')}
  FROM research_items i
  JOIN research_roll r ON r.item_id = i.id
  JOIN users u ON u.id = r.user_id
  WHERE i.signature IS NOT NULL AND ITEMS_IN_SCOPE
  ORDER BY i.published_at, i.id, r.user_id`

type RollSqlRow = [string, string, string | null, string, string | null, string]
const rollRow = ([itemId, userId, name, phone, email, deliveredAt]: RollSqlRow): AuditPackRollRow => ({
  itemId,
  userId,
  name,
  phone,
  email,
  deliveredAt,
})

const DELIVERIES_SQL = `
  SELECT d.id::text, d.item_id::text, d.user_id::text, d.channel::text, d.status::text, d.attempts,
    ${utc('d.queued_at')}, ${utc('d.sent_at')}, ${utc('d.delivered_at')}, ${utc('d.failed_at')}, d.provider_message_id, d.last_error
  FROM research_items i
  JOIN research_deliveries d ON d.item_id = i.id
  WHERE i.signature IS NOT NULL AND ITEMS_IN_SCOPE
  ORDER BY i.published_at, i.id, d.user_id, d.channel`

type DeliverySqlRow = [
  string,
  string,
  string,
  string,
  string,
  number,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
]
const deliveryRow = ([
  id,
  itemId,
  userId,
  channel,
  status,
  attempts,
  queuedAt,
  sentAt,
  deliveredAt,
  failedAt,
  providerMessageId,
  lastError,
]: DeliverySqlRow): AuditPackDeliveryRow => ({
  id,
  itemId,
  userId,
  channel,
  status,
  attempts,
  queuedAt,
  sentAt,
  deliveredAt,
  failedAt,
  providerMessageId,
  lastError,
})

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

  /** The rows of `sql` (ITEMS_IN_SCOPE standing for the scope's condition), `batchRows` at a time. */
  async *rows<SqlRow, Row>(sql: string, map: (row: SqlRow) => Row, batchRows: number): AsyncGenerator<Row[]> {
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
    for (;;) {
      const { rows } = await client.query<SqlRow & unknown[]>({
        text: `FETCH FORWARD ${batchRows} FROM ${cursor}`,
        rowMode: 'array',
      })
      if (rows.length) yield rows.map(map)
      if (rows.length < batchRows) break
    }
    await client.query(`CLOSE ${cursor}`)
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
