import { afterAll, describe, expect, it, vi } from 'vitest'
import { MS_PER_DAY } from '~/domain/dates'
import {
  confirmPaymentAsAdmin,
  countManualClaimsToReview,
  paymentsForAdmin,
  pendingManualPaymentsForReview,
  rejectPaymentAsAdmin,
} from '~/server/admin/payments.server'
import { prisma } from '~/server/db.server'
import { settlePayments } from '~/server/payments/settlement.server'
import { stopJobs } from '~/server/jobs/queue.server'
import { deliverEmail } from '~/server/messaging/mail.server'
import { createManualPayment, MANUAL_PAYMENT_EXPIRY_DAYS } from '~/server/payments/manual-claims.server'
import { pendingPayments } from '~/server/payments/core.server'
import { cartItemOf, createPaymentRow, createService, createUser, STATEMENT_ENTRY } from '../support/payment-fixtures'
import { queuedEmails } from '../support/queued-emails'

afterAll(() => stopJobs())

async function admin() {
  const id = await createUser()
  await prisma.user.update({ where: { id }, data: { role: 'ADMIN' } })
  return id
}

/** A customer with an e-mail address who claimed a manual transfer for two services at `now`. */
async function manualClaim(now = new Date()) {
  const userId = await createUser()
  const email = `customer-${userId.slice(0, 8)}@example.in`
  await prisma.user.update({ where: { id: userId }, data: { name: 'asha rao', email } })
  const equity = await createService('Equity', 299_900, 30)
  const swing = await createService('Swing', 149_900, 90)
  const claim = await createManualPayment(userId, [equity.id, swing.id], { now, utr: 'UTR123456789' })
  return { userId, email, paymentId: claim.paymentId }
}

/** The e-mails queued since the claim's own "we got your claim" (tests/integration/claim-received.test.ts). */
const emailsAfterClaim = async (email: string) =>
  (await queuedEmails(email)).filter((queued) => queued.template !== 'claim-received')

const quiet = () => {
  vi.spyOn(console, 'info').mockImplementation(() => {})
  vi.spyOn(console, 'log').mockImplementation(() => {})
}

describe('confirming a manual payment', () => {
  it('pays it through markPaymentPaid, audits who did it with before and after, and e-mails the customer', async () => {
    quiet()
    const actorId = await admin()
    const { userId, email, paymentId } = await manualClaim()

    const outcome = await confirmPaymentAsAdmin(actorId, paymentId, STATEMENT_ENTRY)

    expect(outcome.ok).toBe(true)
    const payment = await prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })
    expect(payment).toMatchObject({ status: 'PAID', paidVia: 'admin' })
    const subscriptions = await prisma.subscription.findMany({ where: { paymentId } })
    expect(subscriptions).toHaveLength(2)
    expect(subscriptions.every((subscription) => subscription.userId === userId)).toBe(true)
    const audit = await prisma.auditLog.findMany({ where: { subjectId: paymentId } })
    expect(audit).toEqual([
      expect.objectContaining({
        actorId,
        action: 'payment.confirm',
        subjectType: 'Payment',
        before: { status: 'PENDING_VERIFICATION' },
        after: expect.objectContaining({
          status: 'PAID',
          paidVia: 'admin',
          subscriptionIds: expect.arrayContaining(subscriptions.map((s) => s.id)),
        }),
      }),
    ])
    expect(await emailsAfterClaim(email)).toEqual([expect.objectContaining({ subject: 'Your payment is confirmed' })])
  })

  it('creates one set of subscriptions, one audit entry and one e-mail when two admins confirm at the same moment', async () => {
    quiet()
    const [first, second] = await Promise.all([admin(), admin()])
    const { email, paymentId } = await manualClaim()

    const outcomes = await Promise.all([
      confirmPaymentAsAdmin(first, paymentId, STATEMENT_ENTRY),
      confirmPaymentAsAdmin(second, paymentId, STATEMENT_ENTRY),
    ])

    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true])
    expect(outcomes.map((outcome) => outcome.message)).toContain('That payment was already confirmed.')
    expect(await prisma.subscription.count({ where: { paymentId } })).toBe(2)
    expect(await prisma.auditLog.count({ where: { subjectId: paymentId } })).toBe(1)
    expect(await emailsAfterClaim(email)).toHaveLength(1)
  })

  it('refuses a rejected payment and writes no audit entry for the refusal', async () => {
    quiet()
    const actorId = await admin()
    const { paymentId } = await manualClaim()
    await rejectPaymentAsAdmin(actorId, paymentId, 'No transfer found')

    const outcome = await confirmPaymentAsAdmin(actorId, paymentId, STATEMENT_ENTRY)

    expect(outcome).toEqual({
      ok: false,
      status: 409,
      message: 'That payment is no longer pending and cannot be confirmed.',
    })
    expect(await prisma.subscription.count({ where: { paymentId } })).toBe(0)
    expect(await prisma.auditLog.findMany({ where: { subjectId: paymentId }, select: { action: true } })).toEqual([
      { action: 'payment.reject' },
    ])
  })

  it('answers 404 for a payment that does not exist', async () => {
    const actorId = await admin()
    expect(await confirmPaymentAsAdmin(actorId, '00000000-0000-4000-8000-000000000000', STATEMENT_ENTRY)).toMatchObject(
      {
        ok: false,
        status: 404,
      },
    )
    expect(await rejectPaymentAsAdmin(actorId, '00000000-0000-4000-8000-000000000000', 'Nope')).toMatchObject({
      ok: false,
      status: 404,
    })
  })
})

describe('rejecting a manual payment', () => {
  it('stores the reason, audits it and e-mails the customer the reason', async () => {
    quiet()
    const actorId = await admin()
    const { userId, email, paymentId } = await manualClaim()

    expect(await rejectPaymentAsAdmin(actorId, paymentId, '  No transfer with this UTR  ')).toMatchObject({ ok: true })

    expect(await prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      status: 'REJECTED',
      rejectedReason: '  No transfer with this UTR  ',
    })
    expect(await pendingPayments(userId, new Date())).toEqual([])
    const [entry] = await prisma.auditLog.findMany({ where: { subjectId: paymentId } })
    expect(entry).toMatchObject({
      actorId,
      action: 'payment.reject',
      before: { status: 'PENDING_VERIFICATION' },
      after: { status: 'REJECTED' },
    })
    const [mail] = await emailsAfterClaim(email)
    expect(mail).toMatchObject({ subject: 'We could not verify your payment' })
    expect(mail!.body).toContain('No transfer with this UTR')
  })

  it('audit entries cannot be changed or removed', async () => {
    quiet()
    const actorId = await admin()
    const { paymentId } = await manualClaim()
    await rejectPaymentAsAdmin(actorId, paymentId, 'No transfer found')
    await expect(
      prisma.auditLog.updateMany({ where: { subjectId: paymentId }, data: { action: 'edited' } }),
    ).rejects.toThrow(/append-only/)
    await expect(prisma.auditLog.deleteMany({ where: { subjectId: paymentId } })).rejects.toThrow(/append-only/)
  })
})

describe('the send-email job', () => {
  it('delivers to the dev outbox while there is no mail provider', async () => {
    quiet()
    await deliverEmail({ to: 'asha@example.in', template: 'test', subject: 'Your payment is confirmed', body: 'Hello' })
    expect(await prisma.outboxMessage.findMany({ where: { recipient: 'asha@example.in' } })).toEqual([
      expect.objectContaining({ channel: 'email', subject: 'Your payment is confirmed', body: 'Hello' }),
    ])
  })
})

describe('expiry after 7 days (injected clock)', () => {
  it('a claim leaves the review queue and the customer pending list at exactly 7 days, and can no longer be confirmed or rejected', async () => {
    quiet()
    const actorId = await admin()
    const createdAt = new Date('2026-11-01T10:00:00Z')
    const { userId, paymentId } = await manualClaim(createdAt)
    const justBefore = new Date(createdAt.getTime() + MANUAL_PAYMENT_EXPIRY_DAYS * MS_PER_DAY - 1)
    const atExpiry = new Date(createdAt.getTime() + MANUAL_PAYMENT_EXPIRY_DAYS * MS_PER_DAY)

    expect((await pendingManualPaymentsForReview(justBefore)).map((payment) => payment.id)).toContain(paymentId)
    expect((await pendingPayments(userId, justBefore, { fresh: true })).map((payment) => payment.id)).toEqual([
      paymentId,
    ])

    // The job has not run yet: the row is still PENDING_VERIFICATION, but 7 days are up.
    expect((await pendingManualPaymentsForReview(atExpiry)).map((payment) => payment.id)).not.toContain(paymentId)
    expect(await pendingPayments(userId, atExpiry)).toEqual([])
    expect(await confirmPaymentAsAdmin(actorId, paymentId, STATEMENT_ENTRY, atExpiry)).toEqual({
      ok: false,
      status: 409,
      message: 'That payment expired after 7 days and can no longer be confirmed.',
    })
    expect(await rejectPaymentAsAdmin(actorId, paymentId, 'Too late', atExpiry)).toMatchObject({
      ok: false,
      status: 409,
    })
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      status: 'PENDING_VERIFICATION',
    })

    // The settle-payments job (pg-boss hands each run to one instance) then marks it EXPIRED.
    await settlePayments(atExpiry)
    expect(await prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({ status: 'EXPIRED' })
    expect(await prisma.subscription.count({ where: { paymentId } })).toBe(0)
    expect(await prisma.auditLog.count({ where: { subjectId: paymentId } })).toBe(0)
  })

  it('the review queue lists pending claims oldest first with age and time left', async () => {
    const now = new Date('2026-11-20T10:00:00Z')
    const older = await manualClaim(new Date(now.getTime() - 3 * MS_PER_DAY))
    const newer = await manualClaim(new Date(now.getTime() - MS_PER_DAY))
    const queue = (await pendingManualPaymentsForReview(now)).filter((payment) =>
      [older.paymentId, newer.paymentId].includes(payment.id),
    )
    expect(queue.map((payment) => payment.id)).toEqual([older.paymentId, newer.paymentId])
    expect(queue[0]).toMatchObject({
      ageMs: 3 * MS_PER_DAY,
      timeLeftMs: 4 * MS_PER_DAY,
      utr: 'UTR123456789',
      amountPaise: 449_800,
    })
    expect(queue[0]!.user).toMatchObject({ name: 'asha rao' })
    expect(queue[0]!.cart).toHaveLength(2)
  })

  it('shows a page of the oldest claims, and counts all that wait', async () => {
    // A time of its own: every other test's claims have expired by then.
    const now = new Date('2030-01-10T10:00:00Z')
    const claims = []
    for (const daysAgo of [1, 3, 2]) claims.push(await manualClaim(new Date(now.getTime() - daysAgo * MS_PER_DAY)))
    expect((await pendingManualPaymentsForReview(now, 2)).map((payment) => payment.id)).toEqual([
      claims[1]!.paymentId,
      claims[2]!.paymentId,
    ])
    expect(await countManualClaimsToReview(now)).toBe(3)
  })
})

describe('gateway payments for the admin', () => {
  it('filters by status and by India calendar dates', async () => {
    const userId = await createUser()
    const service = await createService('Equity', 299_900, 30)
    // 23:30 IST on 20 November is 18:00 UTC: it belongs to the 20th in India.
    const lateOn20th = await createPaymentRow(userId, [cartItemOf(service)], {
      createdAt: new Date('2026-11-20T18:00:00Z'),
    })
    const on21st = await createPaymentRow(userId, [cartItemOf(service)], {
      status: 'FAILED',
      createdAt: new Date('2026-11-21T05:00:00Z'),
    })
    const gatewayPaymentsForAdmin = async (filter: Parameters<typeof paymentsForAdmin>[0]) =>
      (await paymentsForAdmin({ method: 'GATEWAY', ...filter })).rows
    const ids = (rows: { id: string }[]) =>
      rows.map((row) => row.id).filter((id) => [lateOn20th.id, on21st.id].includes(id))

    expect(ids(await gatewayPaymentsForAdmin({ from: '2026-11-20', to: '2026-11-20' }))).toEqual([lateOn20th.id])
    expect(ids(await gatewayPaymentsForAdmin({ from: '2026-11-21' }))).toEqual([on21st.id])
    expect(ids(await gatewayPaymentsForAdmin({ status: 'FAILED' }))).toEqual([on21st.id])
    expect(ids(await gatewayPaymentsForAdmin({}))).toEqual([on21st.id, lateOn20th.id])
    const [row] = await gatewayPaymentsForAdmin({ status: 'CREATED', to: '2026-11-20' })
    expect(row?.gatewayOrderId).toMatch(/^order_/)
  })
})
