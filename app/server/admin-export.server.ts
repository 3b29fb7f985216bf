import { EXPORT_MAX_ROWS, type ExportRequest } from '~/domain/admin'
import { readCartSnapshot } from '~/domain/cart'
import { toCsv } from '~/domain/csv'
import { formatIndiaDateTime, indiaMidnight, MS_PER_DAY } from '~/domain/dates'
import { PAISE_PER_RUPEE } from '~/domain/money'
import { recordAudit } from './audit.server'
import { prisma } from './db.server'

export type CsvExport = { ok: true; filename: string; csv: string; rows: number } | { ok: false; message: string }

export const TOO_MANY_ROWS_MESSAGE = `More than ${EXPORT_MAX_ROWS.toLocaleString('en-IN')} rows: choose a shorter range.`

const rupees = (paise: number) => (paise / PAISE_PER_RUPEE).toFixed(2)

/**
 * Payments created, or subscriptions started, on the India dates `from` to `to` (both included), as
 * CSV for the accountant; refused above EXPORT_MAX_ROWS rows (a narrower range works). Amounts are
 * rupees with two decimals; times are India time. The export is audited: it carries personal data.
 */
export async function exportCsv(
  actorId: string,
  { kind, from, to }: ExportRequest,
  { now = new Date(), maxRows = EXPORT_MAX_ROWS }: { now?: Date; maxRows?: number } = {},
): Promise<CsvExport> {
  const range = { gte: indiaMidnight(from), lt: new Date(indiaMidnight(to).getTime() + MS_PER_DAY) }
  const table = kind === 'payments' ? await paymentRows(range, maxRows) : await subscriptionRows(range, maxRows)
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
      gatewayOrderId: true,
      gatewayPaymentId: true,
      user: { select: { name: true, phone: true, email: true, pan: true } },
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
      'Gateway order id',
      'Gateway payment id',
    ],
    rows: payments.map((payment) => [
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
      payment.gatewayOrderId,
      payment.gatewayPaymentId,
    ]),
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
