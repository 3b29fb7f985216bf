import type { BusinessDetails } from '~/domain/business-details'
import type { CountedPayment } from '~/domain/fee-cap'
import { gstContainedPaise, gstShareOfRefundPaise } from '~/domain/gst'
import { documentNumber, financialYearOf, type DocumentSeries } from '~/domain/tax-documents'
import type { Prisma } from '~/generated/prisma/client'
import { businessDetails } from '../business.server'
import { prisma } from '../db.server'

// The money ledger: every amount that moves between a customer and the business is one row,
// written in the transaction that moves it, with its tax document number. The fee cap, refunds,
// invoices and the CSV export read it; nothing updates a row, and only the retention job deletes one,
// with its payment, once the records' period has ended (app/server/account/retention.server.ts).

/**
 * The next number of a series in the financial year of `at`. The counter row stays locked until
 * the caller's transaction ends, so concurrent payments take numbers one after another, and a
 * transaction that rolls back gives its number back: no gap, no number used twice.
 */
export async function nextDocumentNumber(
  tx: Prisma.TransactionClient,
  series: DocumentSeries,
  at: Date,
): Promise<string> {
  const year = financialYearOf(at)
  const [row] = await tx.$queryRaw<{ last_number: number }[]>`
    INSERT INTO document_sequences (series, financial_year, last_number) VALUES (${series}, ${year.label}, 1)
    ON CONFLICT (series, financial_year) DO UPDATE SET last_number = document_sequences.last_number + 1
    RETURNING last_number`
  return documentNumber(series, year, row!.last_number)
}

/** A paid payment's ledger row and its tax invoice (a receipt when the business is not GST-registered). */
export async function recordPaymentInLedger(
  tx: Prisma.TransactionClient,
  { paymentId, userId, amountPaise, paidAt }: { paymentId: string; userId: string; amountPaise: number; paidAt: Date },
  { gst }: Pick<BusinessDetails, 'gst'> = businessDetails,
): Promise<{ documentNumber: string }> {
  const rateBasisPoints = gst?.rateBasisPoints ?? 0
  const entry = await tx.ledgerEntry.create({
    data: {
      userId,
      kind: 'PAYMENT',
      paymentId,
      amountPaise,
      gstPaise: gstContainedPaise(amountPaise, rateBasisPoints),
      gstRateBasisPoints: rateBasisPoints,
      sellerGstin: gst?.gstin ?? null,
      documentNumber: await nextDocumentNumber(tx, gst ? 'INV' : 'RCT', paidAt),
      occurredAt: paidAt,
    },
    select: { documentNumber: true },
  })
  return entry
}

/**
 * A refund's ledger row and its credit note, against the payment's invoice: the GST returned is
 * the payment's own share of it, at the rate the payment was invoiced at. `refundPaise` is positive.
 */
export async function recordRefundInLedger(
  tx: Prisma.TransactionClient,
  { refundId, paymentId, refundPaise, at }: { refundId: string; paymentId: string; refundPaise: number; at: Date },
): Promise<{ documentNumber: string }> {
  // Two refunds of one payment at once must see each other's rows: the payment row serialises them.
  await tx.$queryRaw`SELECT id FROM payments WHERE id = ${paymentId}::uuid FOR UPDATE`
  const entries = await tx.ledgerEntry.findMany({
    where: { paymentId },
    select: {
      kind: true,
      userId: true,
      amountPaise: true,
      gstPaise: true,
      gstRateBasisPoints: true,
      sellerGstin: true,
    },
  })
  const paid = entries.find((entry) => entry.kind === 'PAYMENT')
  if (!paid) throw new Error(`Payment ${paymentId} has no ledger row: it was never paid`)
  const refunds = entries.filter((entry) => entry.kind === 'REFUND')
  const refundedPaise = -refunds.reduce((sum, entry) => sum + entry.amountPaise, 0)
  if (!Number.isSafeInteger(refundPaise) || refundPaise <= 0 || refundedPaise + refundPaise > paid.amountPaise) {
    throw new RangeError(
      `A refund of ${refundPaise} paise on payment ${paymentId} would exceed what was paid (${paid.amountPaise}, ${refundedPaise} refunded)`,
    )
  }
  const gstPaise = gstShareOfRefundPaise(refundPaise, {
    amountPaise: paid.amountPaise,
    gstPaise: paid.gstPaise,
    gstAlreadyRefundedPaise: -refunds.reduce((sum, entry) => sum + entry.gstPaise, 0),
  })
  return tx.ledgerEntry.create({
    data: {
      userId: paid.userId,
      kind: 'REFUND',
      paymentId,
      refundId,
      amountPaise: -refundPaise,
      gstPaise: -gstPaise,
      gstRateBasisPoints: paid.gstRateBasisPoints,
      sellerGstin: paid.sellerGstin,
      documentNumber: await nextDocumentNumber(tx, 'CN', at),
      occurredAt: at,
    },
    select: { documentNumber: true },
  })
}

/**
 * The fees (net of GST) of the payments these customers made since `since`, less what was refunded
 * of those payments (whenever refunded): what counts against the family fee cap.
 */
export async function taxableFeesPaidPaise(
  tx: Prisma.TransactionClient,
  userIds: readonly string[],
  since: Date,
): Promise<number> {
  if (userIds.length === 0) return 0
  const [row] = await tx.$queryRaw<{ total: bigint | null }[]>`
    SELECT sum(e.amount_paise - e.gst_paise) AS total
    FROM ledger_entries e
    WHERE e.payment_id IN (
      SELECT payment_id FROM ledger_entries
      WHERE kind = 'PAYMENT' AND user_id = ANY(${userIds as string[]}::uuid[]) AND occurred_at >= ${since})`
  return Number(row?.total ?? 0)
}

/**
 * The same, one row per payment with when it was paid, so the fee-cap check can tell when each
 * stops counting. A payment refunded in full is left out.
 */
export async function taxableFeesByPayment(
  db: Prisma.TransactionClient,
  userIds: readonly string[],
  since: Date,
): Promise<CountedPayment[]> {
  if (userIds.length === 0) return []
  const rows = await db.$queryRaw<{ paid_at: Date; taxable: bigint }[]>`
    SELECT p.occurred_at AS paid_at, sum(e.amount_paise - e.gst_paise) AS taxable
    FROM ledger_entries p JOIN ledger_entries e ON e.payment_id = p.payment_id
    WHERE p.kind = 'PAYMENT' AND p.user_id = ANY(${userIds as string[]}::uuid[]) AND p.occurred_at >= ${since}
    GROUP BY p.id, p.occurred_at
    HAVING sum(e.amount_paise - e.gst_paise) > 0
    ORDER BY p.occurred_at`
  return rows.map((row) => ({ paidAt: row.paid_at, taxablePaise: Number(row.taxable) }))
}

export type LedgerRow = {
  kind: 'PAYMENT' | 'REFUND'
  paymentId: string
  refundId: string | null
  amountPaise: number
  gstPaise: number
  gstRateBasisPoints: number
  documentNumber: string
  occurredAt: Date
}

/** A customer's ledger, newest first. */
export function customerLedger(userId: string): Promise<LedgerRow[]> {
  return prisma.ledgerEntry.findMany({
    where: { userId },
    orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
    select: {
      kind: true,
      paymentId: true,
      refundId: true,
      amountPaise: true,
      gstPaise: true,
      gstRateBasisPoints: true,
      documentNumber: true,
      occurredAt: true,
    },
  })
}
