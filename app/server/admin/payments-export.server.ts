import pg from 'pg'
import { readCartSnapshot } from '~/domain/cart'
import { csvCell, csvCellSql, plainCellSql } from '~/domain/csv'
import { PAISE_PER_RUPEE } from '~/domain/money'
import { maskPan } from '~/domain/pan'
import { panKeys } from '../db.server'
import { env } from '../env.server'
import { decryptPan } from '../kyc/pan-crypto.server'
import { releasableChunk } from '../http/released-chunks.server'

// The payments export at a million rows (docs/testing.md, At scale: 50,000 rows a second, the store's memory flat).
// Through Prisma, with a query per batch, the objects and Dates of every row were most of the time and their garbage
// most of the memory; and batches in index order visit each payment, customer and receipt at random, where one query
// over a long range joins by hashing and sorts. So: one cursor on a connection of the export's own, PostgreSQL writing
// each line of the file but for the two cells only the app can write (the PAN is decrypted with the app's key, the cart
// is read by THE cart reader), each of those computed once per distinct value.

/**
 * Payments created in `range`, in (created, id) order, fetched `batchRows` at a time, as the file's bytes. Each line
 * is written into a chunk of bytes as its row arrives, and the row is dropped: rows kept until their batch was
 * complete lived long enough for V8 to move them to its old generation, where a million rows of them grew the
 * store's memory by hundreds of MB before a full collection.
 */
export async function* paymentsCsvChunks(
  range: { gte: Date; lt: Date },
  batchRows: number,
): AsyncGenerator<Uint8Array> {
  const client = new pg.Client({ connectionString: env.DATABASE_URL })
  // A connection lost between two FETCHes fails the next one, which ends the download; unheard, it would end the store.
  client.on('error', () => {})
  await client.connect()
  // Masked: a CSV leaves the store (docs/architecture.md, "PANs at rest").
  const panCell = memoised((stored: string) => csvCell(maskPan(decryptPan(panKeys, stored))))
  const servicesCell = memoised((cart: string) => csvCell(servicesOf(JSON.parse(cart))))
  const file = new ChunkedBytes()
  const writeLine = ([before, pan, cart, after]: PaymentLineParts) => {
    const panText = pan ? panCell(pan) : ''
    const services = servicesCell(cart!)
    file.reserve(before.length + panText.length + 1 + services.length + after.length)
    file.write(before)
    file.write(panText)
    file.write(',')
    file.write(services)
    file.write(after)
  }
  /** Resolves with how many rows the next FETCH gave, each written as it came. */
  const fetchBatch = () =>
    new Promise<number>((resolve, reject) => {
      let rows = 0
      let failure: unknown = null
      const fetch: pg.QueryArrayConfig = { text: `FETCH FORWARD ${batchRows} FROM payments_export`, rowMode: 'array' }
      const query = new pg.Query<PaymentLineParts>(fetch)
      query.on('row', (row) => {
        rows++
        // Thrown here it would break the connection's reading; the batch fails when it ends instead.
        try {
          if (failure === null) writeLine(row)
        } catch (error) {
          failure = error
        }
      })
      query.on('end', () => (failure === null ? resolve(rows) : reject(failure)))
      query.on('error', reject)
      client.query(query)
    })
  let pending: Promise<number> | null = null
  try {
    // One snapshot for the whole file; planned for all its rows, not for the first tenth as a cursor is by default.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    await client.query('SET LOCAL cursor_tuple_fraction = 1')
    // A download that stops being read holds the snapshot (and VACUUM behind it) only this long.
    await client.query(`SET LOCAL idle_in_transaction_session_timeout = '${STALLED_DOWNLOAD_TIMEOUT}'`)
    await client.query({ text: PAYMENTS_EXPORT_CURSOR_SQL, values: [range.gte, range.lt] })
    pending = fetchBatch()
    while (pending) {
      const rows: number = await pending
      // The next batch is read while this one is handed on.
      pending = rows === batchRows ? fetchBatch() : null
      if (!pending) file.finish()
      for (let chunk = file.take(); chunk; chunk = file.take()) yield chunk
    }
  } finally {
    // A download cut off while the next batch is read: that read fails as the connection closes.
    pending?.catch(() => {})
    await client.end()
  }
}

/** Text written as UTF-8 into chunks of CHUNK_BYTES; full chunks are taken in the order they were written. */
class ChunkedBytes {
  private chunk = Buffer.allocUnsafe(CHUNK_BYTES)
  private used = 0
  private readonly full: Uint8Array[] = []

  /** Makes room for `units` UTF-16 units of text (at most 3 bytes of UTF-8 each) in the current chunk. */
  reserve(units: number) {
    if (this.used + units * 3 <= this.chunk.length) return
    this.finish()
    if (units * 3 > this.chunk.length) this.chunk = Buffer.allocUnsafe(units * 3)
  }

  write(text: string) {
    this.used += this.chunk.write(text, this.used)
  }

  /** Ends the current chunk, if it holds anything; the next one has a buffer of its own (releasableChunk). */
  finish() {
    if (!this.used) return
    this.full.push(releasableChunk(this.chunk.subarray(0, this.used)))
    this.chunk = Buffer.allocUnsafe(CHUNK_BYTES)
    this.used = 0
  }

  take(): Uint8Array | undefined {
    return this.full.shift()
  }
}

/** How long a download may wait for its reader before PostgreSQL ends its transaction (and the download). */
const STALLED_DOWNLOAD_TIMEOUT = '10min'

/** Bytes of the file handed on at a time. */
const CHUNK_BYTES = 256 * 1024

/** The Services cell's text: each item with its price and duration as paid. */
export function servicesOf(cart: unknown): string {
  return readCartSnapshot(cart)
    .map((item) => `${item.name} (Rs. ${(item.pricePaise / PAISE_PER_RUPEE).toFixed(2)}, ${item.durationDays} days)`)
    .join('; ')
}

/** A line as PostgreSQL writes it: the cells before the PAN with their commas, the PAN as stored, the cart as JSON, the rest. */
type PaymentLineParts = [before: string, pan: string | null, cart: string | null, after: string]

/**
 * Distinct values (encrypted PANs, carts) an export remembers the cell of: about 20 MB at most, and every PAN of
 * 100,000 customers. Decrypting a PAN takes about 9 µs: 9 s of a 1,000,000-row export when done for each row.
 */
const EXPORT_MEMO_ENTRIES = 100_000

function memoised(compute: (value: string) => string) {
  const known = new Map<string, string>()
  return (value: string) => {
    let result = known.get(value)
    if (result === undefined) {
      if (known.size >= EXPORT_MEMO_ENTRIES) known.clear()
      result = compute(value)
      known.set(value, result)
    }
    return result
  }
}

/** Rupees with two decimals of whole paise, as the export writes them; NULL stays NULL (trusted SQL). */
const rupeesSql = (paise: string) => `((${paise})::numeric / ${PAISE_PER_RUPEE})::numeric(20, 2)::text`

/** "DD-MM-YYYY HH:MM IST" of a timestamptz column, as formatIndiaDateTime writes it; NULL stays NULL (trusted SQL). */
const indiaDateTimeSql = (column: string) =>
  `to_char(${column} AT TIME ZONE 'Asia/Kolkata', 'DD-MM-YYYY HH24:MI') || ' IST'`

/** A receipt's figure, empty for a payment without one. */
const receiptRupeesSql = (paise: string) => plainCellSql(`CASE WHEN s.receipt IS NOT NULL THEN ${rupeesSql(paise)} END`)

/** Cells joined by commas, as one text (trusted SQL). */
const joinedSql = (cells: string[]) => cells.join(` || ',' || `)

/**
 * Payments created in [$1, $2), in (created, id) order, as PaymentLineParts: the cells of the payments header.
 * The rows are sorted as stored and written after (OFFSET 0 keeps the subquery apart): sorting the written text
 * instead took twice as long at 1,000,000 rows.
 */
const PAYMENTS_EXPORT_CURSOR_SQL = `
  DECLARE payments_export NO SCROLL CURSOR FOR
  SELECT ${joinedSql([
    plainCellSql('s.id::text'),
    plainCellSql(indiaDateTimeSql('s.created_at')),
    plainCellSql(indiaDateTimeSql('s.paid_at')),
    plainCellSql('s.method::text'),
    plainCellSql('s.status::text'),
    csvCellSql('s.paid_via'),
    csvCellSql('s.name'),
    csvCellSql('s.phone'),
    csvCellSql('s.email'),
  ])} || ',',
    s.pan_encrypted, s.cart::text,
    ',' || ${joinedSql([
      plainCellSql(rupeesSql('s.amount_paise')),
      csvCellSql('s.currency'),
      csvCellSql('s.utr'),
      csvCellSql('s.payer_account_name'),
      csvCellSql('s.gateway_order_id'),
      csvCellSql('s.gateway_payment_id'),
      csvCellSql('s.receipt'),
      receiptRupeesSql('s.receipt_paise - s.receipt_gst_paise'),
      receiptRupeesSql('s.receipt_gst_paise'),
      receiptRupeesSql(
        `(SELECT -coalesce(sum(r.amount_paise), 0) FROM ledger_entries r WHERE r.payment_id = s.id AND r.kind = 'REFUND')`,
      ),
    ])} || E'\\r\\n'
  FROM (
    SELECT p.id, p.created_at, p.paid_at, p.method, p.status, p.paid_via, p.amount_paise, p.currency, p.cart, p.utr,
           p.payer_account_name, p.gateway_order_id, p.gateway_payment_id, u.name, u.phone, u.email, u.pan_encrypted,
           receipt.document_number AS receipt, receipt.amount_paise AS receipt_paise, receipt.gst_paise AS receipt_gst_paise
    FROM payments p
    JOIN users u ON u.id = p.user_id
    LEFT JOIN ledger_entries receipt ON receipt.payment_id = p.id AND receipt.kind = 'PAYMENT'
    WHERE p.created_at >= $1 AND p.created_at < $2
    ORDER BY p.created_at, p.id
    OFFSET 0
  ) s
  ORDER BY s.created_at, s.id`
