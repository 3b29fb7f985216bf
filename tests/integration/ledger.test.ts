import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { prisma } from '~/server/db.server'
import { markPaymentPaid } from '~/server/payments/core.server'
import {
  customerLedger,
  nextDocumentNumber,
  recordPaymentInLedger,
  taxableFeesPaidPaise,
} from '~/server/payments/ledger.server'
import { cartItemOf, createPaymentRow, createService, createUser, recordTestRefund } from '../support/payment-fixtures'

async function paidPayment(pricePaise = 118_000, paidAt = new Date()) {
  const userId = await createUser()
  const service = await createService('Ledger', pricePaise, 30)
  const payment = await createPaymentRow(userId, [cartItemOf(service)], {
    method: 'MANUAL',
    createdAt: paidAt,
    expiresAt: new Date(paidAt.getTime() + 86_400_000),
  })
  await markPaymentPaid(payment.id, { source: 'admin', paidAt })
  return { userId, paymentId: payment.id }
}

describe('a paid payment in the ledger', () => {
  it('is one row with the GST it contains and an invoice number, written by markPaymentPaid exactly once', async () => {
    const { userId, paymentId } = await paidPayment(118_000)
    await markPaymentPaid(paymentId, { source: 'admin', paidAt: new Date() })

    const rows = await customerLedger(userId)
    expect(rows).toHaveLength(1)
    // The test server runs with the E2E business details: GST-registered at 18%.
    expect(rows[0]).toMatchObject({ kind: 'PAYMENT', paymentId, amountPaise: 118_000, gstPaise: 18_000 })
    expect(rows[0]!.documentNumber).toMatch(/^INV\/\d{4}\/\d{6}$/)
  })

  it('gets a receipt with no GST when the business is not GST-registered', async () => {
    const userId = await createUser()
    const service = await createService('Receipt', 50_000, 30)
    const payment = await createPaymentRow(userId, [cartItemOf(service)])
    const { documentNumber } = await prisma.$transaction((tx) =>
      recordPaymentInLedger(
        tx,
        { paymentId: payment.id, userId, amountPaise: 50_000, paidAt: new Date() },
        { gst: null },
      ),
    )
    expect(documentNumber).toMatch(/^RCT\//)
    const [row] = await customerLedger(userId)
    expect(row).toMatchObject({ gstPaise: 0, gstRateBasisPoints: 0 })
  })
})

describe('document numbers', () => {
  it('are consecutive, without gap or repeat, when 20 payments are paid at once', async () => {
    const paidAt = new Date('2031-06-15T10:00:00+05:30')
    const payments = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const userId = await createUser()
        const service = await createService('Race', 10_000, 30)
        return createPaymentRow(userId, [cartItemOf(service)], {
          method: 'MANUAL',
          createdAt: paidAt,
          expiresAt: new Date(paidAt.getTime() + 86_400_000),
        })
      }),
    )
    await Promise.all(payments.map((payment) => markPaymentPaid(payment.id, { source: 'admin', paidAt })))

    const rows = await prisma.ledgerEntry.findMany({
      where: { paymentId: { in: payments.map((payment) => payment.id) } },
      select: { documentNumber: true },
    })
    const sequence = rows.map((row) => Number(row.documentNumber.split('/')[2])).sort((a, b) => a - b)
    expect(rows.every((row) => row.documentNumber.startsWith('INV/3132/'))).toBe(true)
    expect(sequence).toEqual(Array.from({ length: 20 }, (_, index) => index + 1))
  })

  it('start again at 1 on 1 April, India time, and a rolled-back number is issued again', async () => {
    const lastMinute = new Date('2033-03-31T23:59:00+05:30')
    const firstMinute = new Date('2033-04-01T00:00:00+05:30')
    expect(await prisma.$transaction((tx) => nextDocumentNumber(tx, 'CN', lastMinute))).toBe('CN/3233/000001')
    expect(await prisma.$transaction((tx) => nextDocumentNumber(tx, 'CN', firstMinute))).toBe('CN/3334/000001')

    await expect(
      prisma.$transaction(async (tx) => {
        await nextDocumentNumber(tx, 'CN', firstMinute)
        throw new Error('the payment failed after taking a number')
      }),
    ).rejects.toThrow('after taking a number')
    expect(await prisma.$transaction((tx) => nextDocumentNumber(tx, 'CN', firstMinute))).toBe('CN/3334/000002')
  })
})

describe('refunds in the ledger', () => {
  it("are negative rows with a credit note and the payment's own GST share; all of them return exactly the GST paid", async () => {
    const { userId, paymentId } = await paidPayment(299_900)
    const at = new Date()
    const half = await recordTestRefund(paymentId, 149_950, { at })
    await recordTestRefund(paymentId, 149_950, { at, kind: 'EXCESS' })
    expect(half.documentNumber).toMatch(/^CN\//)

    const rows = await customerLedger(userId)
    expect(rows.map((row) => row.kind).sort()).toEqual(['PAYMENT', 'REFUND', 'REFUND'])
    expect(rows.reduce((sum, row) => sum + row.amountPaise, 0)).toBe(0)
    expect(rows.reduce((sum, row) => sum + row.gstPaise, 0)).toBe(0)
  })

  it('can never exceed what was paid, even when two are recorded at once', async () => {
    const { userId, paymentId } = await paidPayment(100_000)
    await expect(recordTestRefund(paymentId, 100_001)).rejects.toThrow(/would exceed what was paid/)
    const outcomes = await Promise.allSettled([
      recordTestRefund(paymentId, 60_000),
      recordTestRefund(paymentId, 60_000, { kind: 'EXCESS' }),
    ])
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect((await customerLedger(userId)).reduce((sum, row) => sum + row.amountPaise, 0)).toBe(40_000)
  })

  it('is refused by the database for a refund row without a refund or with a positive amount', async () => {
    const { userId, paymentId } = await paidPayment(100_000)
    const row = {
      userId,
      paymentId,
      gstRateBasisPoints: 0,
      gstPaise: 0,
      occurredAt: new Date(),
      documentNumber: `CN/0000/${randomUUID().slice(0, 6)}`,
    }
    await expect(prisma.ledgerEntry.create({ data: { ...row, kind: 'REFUND', amountPaise: -100 } })).rejects.toThrow()
    await expect(
      prisma.ledgerEntry.create({ data: { ...row, kind: 'REFUND', amountPaise: 100, refundId: randomUUID() } }),
    ).rejects.toThrow()
  })
})

describe('taxableFeesPaidPaise', () => {
  it('sums fees net of GST of payments made since a date, less what was refunded of them', async () => {
    const now = new Date()
    const { userId: recent, paymentId } = await paidPayment(118_000, now)
    const { userId: old } = await paidPayment(118_000, new Date(now.getTime() - 400 * 86_400_000))
    await recordTestRefund(paymentId, 59_000, { at: now })
    const since = new Date(now.getTime() - 365 * 86_400_000)

    expect(await prisma.$transaction((tx) => taxableFeesPaidPaise(tx, [recent, old], since))).toBe(50_000)
    expect(await prisma.$transaction((tx) => taxableFeesPaidPaise(tx, [old], since))).toBe(0)
    expect(await prisma.$transaction((tx) => taxableFeesPaidPaise(tx, [], since))).toBe(0)
  })
})
