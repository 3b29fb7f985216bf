import { maskPan } from '~/domain/pan'
import type { ExportRequest } from '~/domain/admin'
import { readCartSnapshot } from '~/domain/cart'
import { CSV_BYTE_ORDER_MARK, type CsvCell, csvLine } from '~/domain/csv'
import { formatIndiaDateTime, indiaMidnight, MS_PER_DAY } from '~/domain/dates'
import { BASIS_POINTS_PER_PERCENT, intraStateSplit } from '~/domain/gst'
import { PAISE_PER_RUPEE } from '~/domain/money'
import { DOCUMENT_TITLES, seriesOf } from '~/domain/tax-documents'
import { Prisma } from '~/generated/prisma/client'
import { recordAudit } from './audit.server'
import { panKeys, prisma } from './db.server'
import { decryptPan } from './pan-crypto.server'
import { afterKey, type BatchKey, batchesInKeyOrder } from './keyset.server'

export type CsvExport = { filename: string; body: ReadableStream<Uint8Array> }

/** Rows read from the database per query: memory stays flat however long the range. */
export const EXPORT_BATCH_ROWS = 1_000

const rupees = (paise: number) => (paise / PAISE_PER_RUPEE).toFixed(2)

/**
 * Payments created, subscriptions started, or ledger rows (invoices, credit notes) written on the India dates `from` to
 * `to` (both included), as CSV for the accountant, of any length: the file is written while it is read, a batch at a
 * time in (time, id) order, so the download starts at once. Amounts are rupees with two decimals; times are India
 * time. The export is audited before its first byte: it carries personal data.
 */
export async function exportCsv(
  actorId: string,
  { kind, from, to }: ExportRequest,
  { now = new Date(), batchRows = EXPORT_BATCH_ROWS }: { now?: Date; batchRows?: number } = {},
): Promise<CsvExport> {
  const range = { gte: indiaMidnight(from), lt: new Date(indiaMidnight(to).getTime() + MS_PER_DAY) }
  await prisma.$transaction((tx) =>
    recordAudit(
      tx,
      {
        actorId,
        action: 'export.csv',
        subjectType: 'Export',
        subjectId: kind,
        before: null,
        after: { kind, from, to },
      },
      now,
    ),
  )
  const table = EXPORT_TABLES[kind]
  return { filename: `${kind}-${from}-to-${to}.csv`, body: csvStream(table.header, table.batches(range, batchRows)) }
}

function csvStream(header: readonly string[], batches: AsyncGenerator<CsvCell[][]>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(CSV_BYTE_ORDER_MARK + csvLine(header)))
    },
    // Called only when the reader wants more, so a slow download holds one batch, not the whole range.
    async pull(controller) {
      const next = await batches.next()
      if (next.done) controller.close()
      else controller.enqueue(encoder.encode(next.value.map(csvLine).join('')))
    },
    async cancel() {
      await batches.return(undefined)
    },
  })
}

type Range = { gte: Date; lt: Date }

/** The rows after `key` in (time, id) order, a batch at a time, each batch as cells. */
async function* cellBatches<Row, Id>(
  read: (after: BatchKey<Id> | null, take: number) => Promise<Row[]>,
  keyOf: (row: Row) => BatchKey<Id>,
  cells: (row: Row) => CsvCell[],
  batchRows: number,
): AsyncGenerator<CsvCell[][]> {
  for await (const rows of batchesInKeyOrder(read, keyOf, batchRows)) yield rows.map(cells)
}

type Table = { header: string[]; batches: (range: Range, batchRows: number) => AsyncGenerator<CsvCell[][]> }

const paymentsTable: Table = {
  header: [
    'Payment id',
    'Created (IST)',
    'Paid (IST)',
    'Method',
    'Status',
    'Paid via',
    'Customer',
    'Phone',
    'E-mail',
    'PAN',
    'Services',
    'Amount (Rs.)',
    'Currency',
    'UTR',
    'Payer account name',
    'Gateway order id',
    'Gateway payment id',
    'Invoice or receipt',
    'Taxable value (Rs.)',
    'GST (Rs.)',
    'Refunded (Rs.)',
  ],
  batches: (range, batchRows) =>
    cellBatches<ExportedPayment, string>(
      // One query per batch: Prisma's relation loads took 150 ms per 1,000 payments.
      async (key, take) =>
        (await prisma.$queryRaw<ExportedPayment[]>(paymentsExportSql(range, key, take))).map((row) => ({
          ...row,
          pan: row.pan && decryptPan(panKeys, row.pan),
        })),
      (payment) => ({ at: payment.createdAt, id: payment.id }),
      (payment) => [
        payment.id,
        payment.createdIst,
        payment.paidIst,
        payment.method,
        payment.status,
        payment.paidVia,
        payment.name,
        payment.phone,
        payment.email,
        // Masked: a CSV leaves the store (docs/architecture.md, "PANs at rest").
        maskPan(payment.pan),
        readCartSnapshot(payment.cart)
          .map((item) => `${item.name} (Rs. ${rupees(item.pricePaise)}, ${item.durationDays} days)`)
          .join('; '),
        rupees(payment.amountPaise),
        payment.currency,
        payment.utr,
        payment.payerAccountName,
        payment.gatewayOrderId,
        payment.gatewayPaymentId,
        payment.invoice,
        payment.invoice === null ? null : rupees(payment.invoicePaise! - payment.invoiceGstPaise!),
        payment.invoice === null ? null : rupees(payment.invoiceGstPaise!),
        payment.invoice === null ? null : rupees(payment.refundedPaise),
      ],
      batchRows,
    ),
}

type ExportedPayment = {
  id: string
  createdAt: Date
  /** Created and paid in India time as formatIndiaDateTime writes them, formatted by PostgreSQL (the export's hot path). */
  createdIst: string
  paidIst: string | null
  method: string
  status: string
  paidVia: string | null
  amountPaise: number
  currency: string
  cart: unknown
  utr: string | null
  payerAccountName: string | null
  gatewayOrderId: string | null
  gatewayPaymentId: string | null
  name: string | null
  phone: string
  email: string | null
  /** Encrypted as stored; decrypted after the query. */
  pan: string | null
  invoice: string | null
  invoicePaise: number | null
  invoiceGstPaise: number | null
  refundedPaise: number
}

/** "DD-MM-YYYY HH:MM IST" of a timestamptz column (trusted SQL), as formatIndiaDateTime writes it; NULL stays NULL. */
const indiaDateTimeSql = (column: string) =>
  Prisma.raw(`to_char(${column} AT TIME ZONE 'Asia/Kolkata', 'DD-MM-YYYY HH24:MI') || ' IST'`)

/** A batch of payments created in `range` after `key`, with their customer, receipt and refunds, in (created, id) order. */
function paymentsExportSql(range: Range, key: BatchKey<string> | null, take: number) {
  const after = key ? Prisma.sql`AND (p.created_at, p.id) > (${key.at}, ${key.id}::uuid)` : Prisma.empty
  return Prisma.sql`
    SELECT p.id::text AS id, p.created_at AS "createdAt", ${indiaDateTimeSql('p.created_at')} AS "createdIst",
           ${indiaDateTimeSql('p.paid_at')} AS "paidIst", p.method::text AS method,
           p.status::text AS status, p.paid_via AS "paidVia", p.amount_paise AS "amountPaise", p.currency, p.cart,
           p.utr, p.payer_account_name AS "payerAccountName", p.gateway_order_id AS "gatewayOrderId",
           p.gateway_payment_id AS "gatewayPaymentId", u.name, u.phone, u.email, u.pan_encrypted AS pan,
           receipt.document_number AS invoice, receipt.amount_paise AS "invoicePaise", receipt.gst_paise AS "invoiceGstPaise",
           (SELECT -coalesce(sum(r.amount_paise), 0) FROM ledger_entries r
             WHERE r.payment_id = p.id AND r.kind = 'REFUND')::int AS "refundedPaise"
    FROM payments p
    JOIN users u ON u.id = p.user_id
    LEFT JOIN ledger_entries receipt ON receipt.payment_id = p.id AND receipt.kind = 'PAYMENT'
    WHERE p.created_at >= ${range.gte} AND p.created_at < ${range.lt} ${after}
    ORDER BY p.created_at, p.id
    LIMIT ${take}`
}

const ledgerTable: Table = {
  header: [
    'Document',
    'Type',
    'Date (IST)',
    'Against invoice',
    'Customer',
    'Phone',
    'PAN',
    'Taxable value (Rs.)',
    'GST rate (%)',
    'CGST (Rs.)',
    'SGST (Rs.)',
    'Total (Rs.)',
    'Our GSTIN',
    'Payment id',
    'Payment method',
    'Refund id',
  ],
  batches: (occurredAt, batchRows) =>
    cellBatches(
      (key, take) =>
        prisma.ledgerEntry.findMany({
          where: { occurredAt, ...afterKey('occurredAt', key) },
          orderBy: [{ occurredAt: 'asc' }, { id: 'asc' }],
          take,
          select: {
            id: true,
            documentNumber: true,
            kind: true,
            occurredAt: true,
            amountPaise: true,
            gstPaise: true,
            gstRateBasisPoints: true,
            sellerGstin: true,
            paymentId: true,
            refundId: true,
            payment: {
              select: { method: true, ledgerEntries: { where: { kind: 'PAYMENT' }, select: { documentNumber: true } } },
            },
            user: { select: { name: true, phone: true, pan: true } },
          },
        }),
      (entry) => ({ at: entry.occurredAt, id: entry.id }),
      (entry) => {
        const { cgstPaise, sgstPaise } = intraStateSplit(entry.gstPaise)
        return [
          entry.documentNumber,
          DOCUMENT_TITLES[seriesOf(entry.documentNumber) ?? 'RCT'],
          formatIndiaDateTime(entry.occurredAt),
          entry.kind === 'REFUND' ? (entry.payment.ledgerEntries[0]?.documentNumber ?? null) : null,
          entry.user.name,
          entry.user.phone,
          maskPan(entry.user.pan),
          rupees(entry.amountPaise - entry.gstPaise),
          String(entry.gstRateBasisPoints / BASIS_POINTS_PER_PERCENT),
          rupees(cgstPaise),
          rupees(sgstPaise),
          rupees(entry.amountPaise),
          entry.sellerGstin,
          entry.paymentId,
          entry.payment.method,
          entry.refundId,
        ]
      },
      batchRows,
    ),
}

const subscriptionsTable: Table = {
  header: [
    'Subscription id',
    'Customer',
    'Phone',
    'Service',
    'Starts (IST)',
    'Ends (IST)',
    'Price paid (Rs.)',
    'Payment id',
    'Payment method',
    'Grant reason',
  ],
  batches: (startsAt, batchRows) =>
    cellBatches(
      (key, take) =>
        prisma.subscription.findMany({
          where: { startsAt, ...afterKey('startsAt', key) },
          orderBy: [{ startsAt: 'asc' }, { id: 'asc' }],
          take,
          select: {
            id: true,
            serviceId: true,
            startsAt: true,
            endsAt: true,
            paymentId: true,
            grantReason: true,
            service: { select: { name: true } },
            payment: { select: { cart: true, method: true } },
            user: { select: { name: true, phone: true } },
          },
        }),
      (subscription) => ({ at: subscription.startsAt, id: subscription.id }),
      (subscription) => {
        const paidItem = readCartSnapshot(subscription.payment?.cart ?? []).find(
          (item) => item.serviceId === subscription.serviceId,
        )
        return [
          subscription.id,
          subscription.user.name,
          subscription.user.phone,
          subscription.service.name,
          formatIndiaDateTime(subscription.startsAt),
          formatIndiaDateTime(subscription.endsAt),
          paidItem ? rupees(paidItem.pricePaise) : null,
          subscription.paymentId,
          subscription.payment?.method ?? 'GRANT',
          subscription.grantReason,
        ]
      },
      batchRows,
    ),
}

const EXPORT_TABLES: Record<ExportRequest['kind'], Table> = {
  payments: paymentsTable,
  subscriptions: subscriptionsTable,
  ledger: ledgerTable,
}
