import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { sandboxGateway } from '~/demo/razorpay-sandbox.server'
import { MS_PER_DAY } from '~/domain/dates'
import { prisma } from '~/server/db.server'
import { markPaymentPaid } from '~/server/payments/core.server'
import { recordRefundInLedger } from '~/server/payments/ledger.server'
import {
  BankAccountNeededError,
  endingPreview,
  endSubscription,
  NothingToEndError,
} from '~/server/payments/refunds/end-subscription.server'
import { markRefundPaid, retryRefund } from '~/server/payments/refunds/refund-queue.server'
import { refundExcess } from '~/server/payments/refunds/advance-excess.server'
import { sendGatewayRefund } from '~/server/payments/refunds/gateway-refund.server'
import { stopAllServices, stopAllServicesPreview } from '~/server/payments/refunds/stop-all-services.server'
import { grantSubscription } from '~/server/payments/subscriptions.server'
import { handleWebhook } from '~/server/payments/webhooks.server'
import { webhookSignature, type PaymentGateway } from '~/server/payments/gateway/razorpay.server'
import type { SandboxGateway } from '~/server/payments/gateway/sandbox.server'
import { cartItemOf, createPaymentRow, createService, createUser } from '../support/payment-fixtures'
import { queuedEmails } from '../support/queued-emails'

const T0 = new Date('2027-02-01T04:30:00.000Z')
const at = (days: number, ms = 0) => new Date(T0.getTime() + days * MS_PER_DAY + ms)
const customer = { kind: 'customer' } as const
const account = { accountName: 'Asha Rao', accountNumber: '123456789012', ifsc: 'SBIN0001234' }

let gateway: SandboxGateway
beforeAll(() => {
  gateway = sandboxGateway()
})

/** A customer who paid for a 30-day service by bank transfer (`paidAt`), or on the gateway. */
async function bought({
  userId,
  service,
  paidAt = T0,
  method = 'MANUAL',
}: {
  userId?: string
  service?: Awaited<ReturnType<typeof createService>>
  paidAt?: Date
  method?: 'MANUAL' | 'GATEWAY'
} = {}) {
  userId ??= await createUser()
  service ??= await createService('Equity', 300_000, 30)
  const payment = await createPaymentRow(userId, [cartItemOf(service)], {
    method,
    createdAt: paidAt,
    expiresAt: new Date(paidAt.getTime() + MS_PER_DAY),
  })
  let gatewayPaymentId: string | undefined
  if (method === 'GATEWAY') {
    const order = await gateway.createOrder({ amountPaise: payment.amountPaise, receipt: payment.id, notes: {} })
    await prisma.payment.update({ where: { id: payment.id }, data: { gatewayOrderId: order.id } })
    gatewayPaymentId = gateway.pay(order.id).razorpay_payment_id
  }
  await markPaymentPaid(payment.id, { source: method === 'GATEWAY' ? 'checkout' : 'admin', paidAt, gatewayPaymentId })
  return { userId, service, paymentId: payment.id, gatewayPaymentId }
}

const refundsOf = (userId: string) => prisma.refund.findMany({ where: { userId }, orderBy: { amountPaise: 'asc' } })

describe('ending a subscription: the refund at the edges (injected clock)', () => {
  it('on the first day refunds the 29 whole days left, ends it now and keeps the original end', async () => {
    const { userId, service, paymentId } = await bought()
    const ended = await endSubscription({
      userId,
      serviceId: service.id,
      by: customer,
      reason: 'CUSTOMER_ENDED',
      payeeAccount: account,
      now: at(0, 1),
    })

    expect(ended.refunds).toEqual([expect.objectContaining({ amountPaise: 290_000, status: 'DUE' })])
    const subscription = await prisma.subscription.findFirstOrThrow({ where: { paymentId } })
    expect(subscription).toMatchObject({ endsAt: at(0, 1), endedAt: at(0, 1), originalEndsAt: at(30) })
    const ledger = await prisma.ledgerEntry.findFirstOrThrow({ where: { paymentId, kind: 'REFUND' } })
    expect(ledger).toMatchObject({ amountPaise: -290_000, refundId: ended.refunds[0]!.id })
    expect(ledger.documentNumber).toMatch(/^CN\//)
    expect((await refundsOf(userId))[0]).toMatchObject({ payeeIfsc: 'SBIN0001234', reason: 'CUSTOMER_ENDED' })
  })

  it('on the last day refunds nothing (no whole day left) but still ends it', async () => {
    const { userId, service } = await bought()
    const ended = await endSubscription({
      userId,
      serviceId: service.id,
      by: customer,
      reason: 'CUSTOMER_ENDED',
      now: at(29, 60_000),
    })
    expect(ended.refunds).toEqual([])
    expect(await refundsOf(userId)).toEqual([])
    expect(await endingPreview(userId, service.id, at(29, 60_001))).toBeNull()
  })

  it('refunds a renewal not yet started in full, beside the current period proportionately', async () => {
    const { userId, service } = await bought()
    await bought({ userId, service, paidAt: at(5) })
    expect(await endingPreview(userId, service.id, at(10))).toMatchObject({
      refundPaise: 200_000 + 300_000,
      bankTransferPaise: 500_000,
      gatewayPaise: 0,
    })
    await endSubscription({
      userId,
      serviceId: service.id,
      by: customer,
      reason: 'CUSTOMER_ENDED',
      payeeAccount: account,
      now: at(10),
    })
    expect((await refundsOf(userId)).map((refund) => refund.amountPaise)).toEqual([200_000, 300_000])
    const latest = await prisma.subscription.aggregate({ where: { userId }, _max: { endsAt: true } })
    expect(latest._max.endsAt).toEqual(at(10))
  })

  it('ends a granted subscription (no payment) with no refund', async () => {
    const userId = await createUser()
    const admin = await createUser()
    const service = await createService('Gift', 300_000, 30)
    await grantSubscription(
      { userId, serviceId: service.id, durationDays: 30, reason: 'goodwill', grantedById: admin, now: T0 },
      async () => {},
    )
    const ended = await endSubscription({
      userId,
      serviceId: service.id,
      by: customer,
      reason: 'CUSTOMER_ENDED',
      now: at(3),
    })
    expect(ended.refunds).toEqual([])
    expect(await prisma.subscription.findFirstOrThrow({ where: { userId } })).toMatchObject({ endsAt: at(3) })
  })

  it('asks for the bank account when a bank transfer is due, and changes nothing without it', async () => {
    const { userId, service, paymentId } = await bought()
    await expect(
      endSubscription({ userId, serviceId: service.id, by: customer, reason: 'CUSTOMER_ENDED', now: at(1) }),
    ).rejects.toBeInstanceOf(BankAccountNeededError)
    expect(await prisma.subscription.findFirstOrThrow({ where: { paymentId } })).toMatchObject({
      endsAt: at(30),
      endedAt: null,
    })
  })

  it('queues the customer an e-mail with the refund and its credit note', async () => {
    const { userId, service } = await bought()
    const email = `refund-${randomUUID()}@example.com`
    await prisma.user.update({ where: { id: userId }, data: { email } })
    await endSubscription({
      userId,
      serviceId: service.id,
      by: customer,
      reason: 'CUSTOMER_ENDED',
      payeeAccount: account,
      now: at(15),
    })
    const [sent] = await queuedEmails(email)
    expect(sent!.subject).toBe('Your subscription has ended')
    expect(sent!.body).toMatch(/Rs\. 1,500(\.00)? by bank transfer/)
    expect(sent!.body).toMatch(/credit note CN\//)
  })
})

describe('an end request sent twice', () => {
  it('makes one refund: the second finds nothing left to end', async () => {
    const { userId, service } = await bought()
    const end = () =>
      endSubscription({
        userId,
        serviceId: service.id,
        by: customer,
        reason: 'CUSTOMER_ENDED',
        payeeAccount: account,
        now: at(3),
      })
    const outcomes = await Promise.allSettled([end(), end()])
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect((outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(
      NothingToEndError,
    )
    expect(await refundsOf(userId)).toHaveLength(1)
  })

  it('cannot make a second ending refund row for one subscription (the database refuses it)', async () => {
    const { userId, service, paymentId } = await bought()
    await endSubscription({
      userId,
      serviceId: service.id,
      by: customer,
      reason: 'CUSTOMER_ENDED',
      payeeAccount: account,
      now: at(3),
    })
    const [first] = await refundsOf(userId)
    await expect(
      prisma.refund.create({
        data: {
          userId,
          paymentId,
          subscriptionId: first!.subscriptionId,
          kind: 'ENDING',
          reason: 'ADMIN_ENDED',
          amountPaise: 100,
          status: 'DUE',
        },
      }),
    ).rejects.toThrow(/Unique constraint/)
  })
})

describe('a refund bigger than what was paid', () => {
  it('is impossible: the ledger refuses what is left over, and a refund row needs a positive amount', async () => {
    const { userId, service, paymentId } = await bought()
    const { refunds } = await endSubscription({
      userId,
      serviceId: service.id,
      by: customer,
      reason: 'CUSTOMER_ENDED',
      payeeAccount: account,
      now: at(0),
    })
    expect(refunds[0]!.amountPaise).toBe(300_000)
    // Everything was refunded: not one more paisa of this payment can be.
    await expect(
      prisma.$transaction((tx) =>
        recordRefundInLedger(tx, { refundId: randomUUID(), paymentId, refundPaise: 1, at: at(1) }),
      ),
    ).rejects.toThrow(/would exceed what was paid/)
    await expect(
      prisma.refund.create({
        data: {
          userId,
          paymentId,
          subscriptionId: (await prisma.subscription.findFirstOrThrow({ where: { paymentId } })).id,
          kind: 'EXCESS',
          reason: 'ADVANCE_LIMIT',
          amountPaise: 0,
          status: 'DUE',
        },
      }),
    ).rejects.toThrow(/refunds_amount_positive/)
  })

  it('after an advance-limit excess refund, ending gives back at most the rest of the fee', async () => {
    const { userId, service, paymentId } = await bought()
    const subscription = await prisma.subscription.findFirstOrThrow({ where: { paymentId } })
    const excess = await refundExcess({ subscriptionId: subscription.id, excessDays: 10, now: T0 })
    expect(excess).toMatchObject({ amountPaise: 100_000, status: 'DUE' })
    expect(await prisma.subscription.findUniqueOrThrow({ where: { id: subscription.id } })).toMatchObject({
      endsAt: at(20),
    })
    await endSubscription({
      userId,
      serviceId: service.id,
      by: customer,
      reason: 'CUSTOMER_ENDED',
      payeeAccount: account,
      now: at(0),
    })
    const total = (await refundsOf(userId)).reduce((sum, refund) => sum + refund.amountPaise, 0)
    expect(total).toBe(300_000)
  })
})

describe('a gateway refund', () => {
  it('fails at the gateway, is retried by the job, and succeeds once', async () => {
    const { userId, service, gatewayPaymentId } = await bought({ method: 'GATEWAY' })
    const { refunds } = await endSubscription({
      userId,
      serviceId: service.id,
      by: customer,
      reason: 'CUSTOMER_ENDED',
      now: at(15),
    })
    expect(refunds).toEqual([expect.objectContaining({ amountPaise: 150_000, status: 'PENDING' })])
    const refundId = refunds[0]!.id

    gateway.failNextRefunds(1)
    await expect(sendGatewayRefund(refundId, { lastAttempt: false }, gateway)).rejects.toThrow(/HTTP 502/)
    expect(await prisma.refund.findUniqueOrThrow({ where: { id: refundId } })).toMatchObject({
      status: 'PENDING',
      attempts: 1,
    })

    expect(await sendGatewayRefund(refundId, { lastAttempt: false }, gateway)).toBe('processed')
    const done = await prisma.refund.findUniqueOrThrow({ where: { id: refundId } })
    expect(done).toMatchObject({ status: 'PROCESSED', attempts: 2, lastError: null })
    expect(done.gatewayRefundId).toMatch(/^rfnd_/)
    expect(await sendGatewayRefund(refundId, { lastAttempt: false }, gateway)).toBe('skipped')
    const atGateway = await gateway.fetchPayment(gatewayPaymentId!)
    expect(atGateway.status).toBe('captured')
  })

  it('is FAILED after the last attempt, and the admin Retry queues it again (audited)', async () => {
    const { userId, service } = await bought({ method: 'GATEWAY' })
    const admin = await createUser()
    const { refunds } = await endSubscription({
      userId,
      serviceId: service.id,
      by: customer,
      reason: 'CUSTOMER_ENDED',
      now: at(0),
    })
    const refundId = refunds[0]!.id
    gateway.failNextRefunds(1)
    expect(await sendGatewayRefund(refundId, { lastAttempt: true }, gateway)).toBe('failed')
    expect(await prisma.refund.findUniqueOrThrow({ where: { id: refundId } })).toMatchObject({ status: 'FAILED' })

    expect(await retryRefund({ refundId, adminId: admin, now: at(1) })).toBe(true)
    expect(await retryRefund({ refundId, adminId: admin, now: at(1) })).toBe(false)
    expect(await sendGatewayRefund(refundId, { lastAttempt: false }, gateway)).toBe('processed')
    expect(
      await prisma.auditLog.count({ where: { actorId: admin, action: 'refund.retried', subjectId: refundId } }),
    ).toBe(1)
  })
})

describe('a refund the gateway itself reports failed', () => {
  it('is asked for again under a new idempotency key after the admin retries; a lost answer keeps the key', async () => {
    const { userId, service } = await bought({ method: 'GATEWAY' })
    const admin = await createUser()
    const { refunds } = await endSubscription({
      userId,
      serviceId: service.id,
      by: customer,
      reason: 'CUSTOMER_ENDED',
      now: at(0),
    })
    const refundId = refunds[0]!.id
    const keys: string[] = []
    const answers = ['failed', 'processed'] as const
    const reporting: PaymentGateway = {
      ...gateway,
      refundPayment: async ({ idempotencyKey }) => {
        keys.push(idempotencyKey)
        const status = answers[keys.length - 1] ?? 'processed'
        return { id: `rfnd_${keys.length}`, status, amountPaise: 0 } as Awaited<
          ReturnType<PaymentGateway['refundPayment']>
        >
      },
    }

    expect(await sendGatewayRefund(refundId, { lastAttempt: false }, reporting)).toBe('failed')
    expect(await prisma.refund.findUniqueOrThrow({ where: { id: refundId } })).toMatchObject({
      status: 'FAILED',
      gatewayRefundId: 'rfnd_1',
    })
    expect(await retryRefund({ refundId, adminId: admin, now: at(1) })).toBe(true)
    expect(await sendGatewayRefund(refundId, { lastAttempt: false }, reporting)).toBe('processed')

    expect(keys).toEqual([refundId, `${refundId}-r1`])
    expect(await prisma.refund.findUniqueOrThrow({ where: { id: refundId } })).toMatchObject({
      status: 'PROCESSED',
      gatewayRefundId: 'rfnd_2',
    })
  })
})

describe('refund webhooks', () => {
  const deliver = (event: string, entity: object) => {
    const rawBody = JSON.stringify({ event, payload: { refund: { entity } } })
    return handleWebhook(rawBody, webhookSignature(rawBody, gateway.webhookSecret), { gateway, now: at(2) })
  }

  it('settle a refund the gateway answered "pending": processed, or failed for the admin to retry', async () => {
    const first = await bought({ method: 'GATEWAY' })
    const second = await bought({ method: 'GATEWAY' })
    const end = (who: typeof first) =>
      endSubscription({
        userId: who.userId,
        serviceId: who.service.id,
        by: customer,
        reason: 'CUSTOMER_ENDED',
        now: at(0),
      })
    const [processed] = (await end(first)).refunds
    const [failed] = (await end(second)).refunds
    await prisma.refund.update({ where: { id: processed!.id }, data: { gatewayRefundId: 'rfnd_pending1' } })

    expect(await deliver('refund.processed', { id: 'rfnd_pending1', notes: {} })).toEqual({
      status: 200,
      outcome: 'processed',
    })
    expect(await deliver('refund.failed', { id: 'rfnd_pending2', notes: { refundId: failed!.id } })).toEqual({
      status: 200,
      outcome: 'processed',
    })
    expect(await deliver('refund.processed', { id: 'rfnd_other', notes: { refundId: 'not-a-uuid' } })).toEqual({
      status: 200,
      outcome: 'ignored',
    })

    expect(await prisma.refund.findUniqueOrThrow({ where: { id: processed!.id } })).toMatchObject({
      status: 'PROCESSED',
      processedAt: at(2),
    })
    expect(await prisma.refund.findUniqueOrThrow({ where: { id: failed!.id } })).toMatchObject({
      status: 'FAILED',
      gatewayRefundId: 'rfnd_pending2',
    })
  })
})

describe('the admin', () => {
  it('ends a customer subscription with a reason, audited', async () => {
    const { userId, service } = await bought()
    const admin = await createUser()
    const { refunds } = await endSubscription({
      userId,
      serviceId: service.id,
      by: { kind: 'admin', adminId: admin },
      reason: 'ADMIN_ENDED',
      note: 'customer asked by phone',
      now: at(10),
    })
    expect(refunds).toEqual([expect.objectContaining({ amountPaise: 200_000, status: 'DUE' })])
    const entry = await prisma.auditLog.findFirstOrThrow({ where: { actorId: admin, action: 'subscription.ended' } })
    expect(entry).toMatchObject({ subjectType: 'user', subjectId: userId })
    expect(entry.after).toMatchObject({ reason: 'customer asked by phone' })
  })

  it('marks a bank-transfer refund paid with its reference, once, audited', async () => {
    const { userId, service } = await bought()
    const admin = await createUser()
    const { refunds } = await endSubscription({
      userId,
      serviceId: service.id,
      by: customer,
      reason: 'CUSTOMER_ENDED',
      payeeAccount: account,
      now: at(10),
    })
    const refundId = refunds[0]!.id
    expect(await markRefundPaid({ refundId, bankReference: 'SBIN327000012345', adminId: admin, now: at(11) })).toBe(
      true,
    )
    expect(await markRefundPaid({ refundId, bankReference: 'SBIN327000012345', adminId: admin, now: at(11) })).toBe(
      false,
    )
    expect(await prisma.refund.findUniqueOrThrow({ where: { id: refundId } })).toMatchObject({
      status: 'PROCESSED',
      bankReference: 'SBIN327000012345',
      processedAt: at(11),
    })
    expect(await prisma.auditLog.count({ where: { actorId: admin, action: 'refund.paid', subjectId: refundId } })).toBe(
      1,
    )
  })

  it('stops all services from an effective date: every customer, proportionate refunds, audited', async () => {
    // Far in the future, so this file's other subscriptions have all ended by then.
    const start = new Date('2040-01-01T00:00:00.000Z')
    const service = await createService('Stop', 300_000, 30)
    const a = await bought({ service, paidAt: start })
    const b = await bought({ service, paidAt: new Date(start.getTime() + 10 * MS_PER_DAY) })
    const admin = await createUser()
    const effectiveFrom = new Date(start.getTime() + 20 * MS_PER_DAY)

    expect(await stopAllServicesPreview(effectiveFrom)).toEqual({
      subscriptions: 2,
      customers: 2,
      refundPaise: 100_000 + 200_000,
    })
    expect(await stopAllServices({ effectiveFrom, reason: 'Registration suspended', adminId: admin })).toEqual({
      subscriptions: 2,
      refundPaise: 300_000,
    })
    expect((await refundsOf(a.userId)).map((refund) => [refund.amountPaise, refund.reason])).toEqual([
      [100_000, 'SERVICES_STOPPED'],
    ])
    expect((await refundsOf(b.userId)).map((refund) => refund.amountPaise)).toEqual([200_000])
    expect(await prisma.auditLog.count({ where: { actorId: admin, action: 'subscription.stopped' } })).toBe(2)
    expect(await prisma.auditLog.count({ where: { actorId: admin, action: 'services.stopped' } })).toBe(1)
    expect(await stopAllServicesPreview(effectiveFrom)).toEqual({ subscriptions: 0, customers: 0, refundPaise: 0 })
  })
})
