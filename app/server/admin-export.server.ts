import { EXPORT_MAX_ROWS, type ExportRequest } from '~/domain/admin'
import { readCartSnapshot } from '~/domain/cart'
import { toCsv } from '~/domain/csv'
import { formatIndiaDateTime, indiaMidnight, MS_PER_DAY } from '~/domain/dates'
import { BASIS_POINTS_PER_PERCENT, intraStateSplit } from '~/domain/gst'
import { PAISE_PER_RUPEE } from '~/domain/money'
import { DOCUMENT_TITLES, seriesOf } from '~/domain/tax-documents'
import { recordAudit } from './audit.server'
import { prisma } from './db.server'

export type CsvExport = { ok: true; filename: string; csv: string; rows: number } | { ok: false; message: string }

export const TOO_MANY_ROWS_MESSAGE = `More than ${EXPORT_MAX_ROWS.toLocaleString('en-IN')} rows: choose a shorter range.`

const rupees = (paise: number) => (paise / PAISE_PER_RUPEE).toFixed(2)

/**
 * Payments created, subscriptions started, or ledger rows (invoices, credit notes) written on the India dates `from` to `to` (both included), as
 * CSV for the accountant; refused above EXPORT_MAX_ROWS rows (a narrower range works). Amounts are
 * rupees with two decimals; times are India time. The export is audited: it carries personal data.
 */
export async function exportCsv(
  actorId: string,
  { kind, from, to }: ExportRequest,
  { now = new Date(), maxRows = EXPORT_MAX_ROWS }: { now?: Date; maxRows?: number } = {},
): Promise<CsvExport> {
  const range = { gte: indiaMidnight(from), lt: new Date(indiaMidnight(to).getTime() + MS_PER_DAY) }
  const table = await EXPORT_TABLES[kind](range, maxRows)
  if (table.rows.length > maxRows) {
    return {
      ok: false,
      message:
        maxRows === EXPORT_MAX_ROWS ? TOO_MANY_ROWS_MESSAGE : `More than ${maxRows} rows: choose a shorter range.`,
    }
  }
  await prisma.$transaction((tx) =>
    recordAudit(
      tx,
      {
        actorId,
        action: 'export.csv',
        subjectType: 'Export',
        subjectId: kind,
        before: null,
        after: { kind, from, to, rows: table.rows.length },
      },
      now,
    ),
  )
  return {
    ok: true,
    filename: `${kind}-${from}-to-${to}.csv`,
    csv: toCsv(table.header, table.rows),
    rows: table.rows.length,
  }
}

type Range = { gte: Date; lt: Date }

type Table = { header: string[]; rows: (string | null)[][] }

const EXPORT_TABLES: Record<ExportRequest['kind'], (range: Range, maxRows: number) => Promise<Table>> = {
  payments: paymentRows,
  subscriptions: subscriptionRows,
  ledger: ledgerRows,
}

async function paymentRows(createdAt: Range, maxRows: number) {
  const payments = await prisma.payment.findMany({
    where: { createdAt },
    orderBy: { createdAt: 'asc' },
    take: maxRows + 1,
    select: {
      id: true,
      createdAt: true,
      paidAt: true,
      method: true,
      status: true,
      paidVia: true,
      amountPaise: true,
      currency: true,
      cart: true,
      utr: true,
      payerAccountName: true,
      gatewayOrderId: true,
      gatewayPaymentId: true,
      user: { select: { name: true, phone: true, email: true, pan: true } },
      ledgerEntries: { select: { kind: true, amountPaise: true, gstPaise: true, documentNumber: true } },
    },
  })
  return {
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
    rows: payments.map((payment) => {
      const paid = payment.ledgerEntries.find((entry) => entry.kind === 'PAYMENT')
      const refundedPaise = -payment.ledgerEntries
        .filter((entry) => entry.kind === 'REFUND')
        .reduce((sum, entry) => sum + entry.amountPaise, 0)
      return [
        payment.id,
        formatIndiaDateTime(payment.createdAt),
        payment.paidAt ? formatIndiaDateTime(payment.paidAt) : null,
        payment.method,
        payment.status,
        payment.paidVia,
        payment.user.name,
        payment.user.phone,
        payment.user.email,
        payment.user.pan,
        readCartSnapshot(payment.cart)
          .map((item) => `${item.name} (Rs. ${rupees(item.pricePaise)}, ${item.durationDays} days)`)
          .join('; '),
        rupees(payment.amountPaise),
        payment.currency,
        payment.utr,
        payment.payerAccountName,
        payment.gatewayOrderId,
        payment.gatewayPaymentId,
        paid?.documentNumber ?? null,
        paid ? rupees(paid.amountPaise - paid.gstPaise) : null,
        paid ? rupees(paid.gstPaise) : null,
        paid ? rupees(refundedPaise) : null,
      ]
    }),
  }
}

/** Every invoice, receipt and credit note issued in the range: what a GST return is filed from. */
async function ledgerRows(occurredAt: Range, maxRows: number) {
  const entries = await prisma.ledgerEntry.findMany({
    where: { occurredAt },
    orderBy: [{ occurredAt: 'asc' }, { id: 'asc' }],
    take: maxRows + 1,
    select: {
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
  })
  return {
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
    rows: entries.map((entry) => {
      const { cgstPaise, sgstPaise } = intraStateSplit(entry.gstPaise)
      return [
        entry.documentNumber,
        DOCUMENT_TITLES[seriesOf(entry.documentNumber) ?? 'RCT'],
        formatIndiaDateTime(entry.occurredAt),
        entry.kind === 'REFUND' ? (entry.payment.ledgerEntries[0]?.documentNumber ?? null) : null,
        entry.user.name,
        entry.user.phone,
        entry.user.pan,
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
    }),
  }
}

async function subscriptionRows(startsAt: Range, maxRows: number) {
  const subscriptions = await prisma.subscription.findMany({
    where: { startsAt },
    orderBy: { startsAt: 'asc' },
    take: maxRows + 1,
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
  })
  return {
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
    rows: subscriptions.map((subscription) => {
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
    }),
  }
}
