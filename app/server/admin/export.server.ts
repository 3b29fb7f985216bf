import { maskPan } from '~/domain/pan'
import type { ExportRequest } from '~/domain/admin'
import { readCartSnapshot } from '~/domain/cart'
import { CSV_BYTE_ORDER_MARK, type CsvCell, csvLine } from '~/domain/csv'
import { formatIndiaDateTime, indiaMidnight, MS_PER_DAY } from '~/domain/dates'
import { BASIS_POINTS_PER_PERCENT, intraStateSplit } from '~/domain/gst'
import { PAISE_PER_RUPEE } from '~/domain/money'
import { DOCUMENT_TITLES, seriesOf } from '~/domain/tax-documents'
import { paymentsCsvChunks } from './payments-export.server'
import { recordAudit } from '../audit.server'
import { prisma } from '../db.server'
import { afterKey, type BatchKey, batchesInKeyOrder } from '../keyset.server'
import { releasableChunk } from '../http/released-chunks.server'

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

function csvStream(
  header: readonly string[],
  batches: AsyncGenerator<string | Uint8Array>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream({
    start(controller) {
      controller.enqueue(releasableChunk(encoder.encode(CSV_BYTE_ORDER_MARK + csvLine(header))))
    },
    // Called only when the reader wants more, so a slow download holds one batch, not the whole range.
    async pull(controller) {
      const next = await batches.next()
      if (next.done) controller.close()
      // encode gives each text an ArrayBuffer of its own (app/server/http/released-chunks.server.ts).
      else controller.enqueue(typeof next.value === 'string' ? releasableChunk(encoder.encode(next.value)) : next.value)
    },
    async cancel() {
      await batches.return(undefined)
    },
  })
}

type Range = { gte: Date; lt: Date }

/** The rows after `key` in (time, id) order, a batch at a time, each batch as CSV text. */
async function* cellBatches<Row, Id>(
  read: (after: BatchKey<Id> | null, take: number) => Promise<Row[]>,
  keyOf: (row: Row) => BatchKey<Id>,
  cells: (row: Row) => CsvCell[],
  batchRows: number,
): AsyncGenerator<string> {
  for await (const rows of batchesInKeyOrder(read, keyOf, batchRows))
    yield rows.map((row) => csvLine(cells(row))).join('')
}

/** A batch at a time, as the file's text or bytes. */
type Table = { header: string[]; batches: (range: Range, batchRows: number) => AsyncGenerator<string | Uint8Array> }

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
  batches: paymentsCsvChunks,
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
