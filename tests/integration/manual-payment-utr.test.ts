import { describe, expect, it } from 'vitest'
import { MS_PER_DAY } from '~/domain/dates'
import { prisma } from '~/server/db.server'
import { setManualPaymentUtr } from '~/server/payments/manual-claims.server'
import { pendingPayments } from '~/server/payments/core.server'
import { cartItemOf, createPaymentRow, createService, createUser } from '../support/payment-fixtures'

async function claim(
  status: 'PENDING_VERIFICATION' | 'REJECTED' = 'PENDING_VERIFICATION',
  expiresAt = new Date(Date.now() + MS_PER_DAY),
) {
  const userId = await createUser()
  const service = await createService('Equity', 299_900, 30)
  const payment = await createPaymentRow(userId, [cartItemOf(service)], { method: 'MANUAL', status, expiresAt })
  return { userId, paymentId: payment.id }
}

describe('setManualPaymentUtr', () => {
  it("saves the reference on the customer's own pending claim, and the pending list shows it at once", async () => {
    const { userId, paymentId } = await claim()
    await pendingPayments(userId, new Date()) // cached now

    expect(await setManualPaymentUtr(userId, paymentId, 'SBIN123456789012')).toBe(true)
    expect((await pendingPayments(userId, new Date()))[0]).toMatchObject({ id: paymentId, utr: 'SBIN123456789012' })
  })

  it("refuses another customer's claim, a decided or expired one, and an id that is not one", async () => {
    const { paymentId } = await claim()
    expect(await setManualPaymentUtr(await createUser(), paymentId, 'SBIN123456789012')).toBe(false)

    const rejected = await claim('REJECTED')
    expect(await setManualPaymentUtr(rejected.userId, rejected.paymentId, 'SBIN123456789012')).toBe(false)

    const expired = await claim('PENDING_VERIFICATION', new Date(Date.now() - 1000))
    expect(await setManualPaymentUtr(expired.userId, expired.paymentId, 'SBIN123456789012')).toBe(false)

    expect(await setManualPaymentUtr(expired.userId, 'not-a-uuid', 'SBIN123456789012')).toBe(false)
    const ids = [paymentId, rejected.paymentId, expired.paymentId]
    expect(await prisma.payment.count({ where: { id: { in: ids }, utr: { not: null } } })).toBe(0)
  })
})
