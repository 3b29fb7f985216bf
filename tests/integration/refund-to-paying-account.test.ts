import { describe, expect, it } from 'vitest'
import * as endRoute from '~/routes/subscriptions.end'
import { prisma } from '~/server/db.server'
import {
  endingPreview,
  endSubscription,
  PayingAccountNotConfirmedError,
  RefundToOtherAccountError,
} from '~/server/payments/refunds/end-subscription.server'
import { refundQueue } from '~/server/payments/refunds/refund-queue.server'
import { confirmManualPayment, createManualPayment } from '~/server/payments/manual-claims.server'
import { createService } from '../support/payment-fixtures'
import { formRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

// A refund of a bank transfer goes to the account it came from (issue 28 item 5): the customer
// confirms the paying account the admin recorded at confirmation (its name and the UTR), and may
// not name another; the admin sees that account on the refund.

const STATEMENT = { utr: 'ICIC000555666', payerName: 'ASHA RAO', nameMismatchReason: null }
const OTHER_ACCOUNT = { accountName: 'Someone Else', accountNumber: '123456789012', ifsc: 'SBIN0001234' }

/** A customer whose bank transfer for a 30-day service the admin confirmed from the statement. */
async function paidByTransfer() {
  const { userId, cookie } = await signedInUser({ completeProfile: true })
  const service = await createService('Transfer', 300_000, 30)
  const claim = await createManualPayment(userId, [service.id])
  // Confirmed yesterday, so whole days are left to refund.
  await confirmManualPayment(claim.paymentId, STATEMENT, { now: new Date(Date.now() - 86_400_000) })
  return { userId, cookie, service, paymentId: claim.paymentId }
}

const endForm = (serviceId: string, fields: Record<string, string>, cookie: string) =>
  endRoute.action(
    routeArgs(formRequest(`/subscriptions/${serviceId}/end`, { intent: 'end', ...fields }, cookie), { serviceId }),
  )

describe('a bank transfer refunded to the account it came from', () => {
  it('the end page offers the paying account to confirm, not an account to type', async () => {
    const { userId, service } = await paidByTransfer()
    const preview = await endingPreview(userId, service.id, new Date())
    expect(preview).toMatchObject({
      payingAccounts: [{ accountName: 'ASHA RAO', utr: 'ICIC000555666' }],
      needsTypedAccount: false,
    })
    expect(preview!.bankTransferPaise).toBeGreaterThan(0)
  })

  it('refuses a refund to another account, and one without the confirmation; nothing ends', async () => {
    const { userId, cookie, service, paymentId } = await paidByTransfer()
    const ending = {
      userId,
      serviceId: service.id,
      by: { kind: 'customer' } as const,
      reason: 'CUSTOMER_ENDED' as const,
    }
    await expect(
      endSubscription({ ...ending, payeeAccount: OTHER_ACCOUNT, payingAccountConfirmed: true, now: new Date() }),
    ).rejects.toBeInstanceOf(RefundToOtherAccountError)
    await expect(endSubscription({ ...ending, now: new Date() })).rejects.toBeInstanceOf(PayingAccountNotConfirmedError)

    const typed = await endForm(service.id, { ...OTHER_ACCOUNT, payingAccount: 'confirmed' }, cookie)
    expect(typed).toMatchObject({ init: { status: 409 } })
    expect(JSON.stringify(typed)).toContain('A bank transfer is refunded only to the account it came from')
    const unconfirmed = await endForm(service.id, {}, cookie)
    expect(unconfirmed).toMatchObject({ init: { status: 400 } })
    expect(JSON.stringify(unconfirmed)).toContain('Confirm the account your transfer came from')

    expect(await prisma.refund.count({ where: { paymentId } })).toBe(0)
    expect(await prisma.subscription.findFirstOrThrow({ where: { paymentId } })).toMatchObject({ endedAt: null })
  })

  it('confirmed, the refund records the paying account, and the admin sees it', async () => {
    const { cookie, service, paymentId } = await paidByTransfer()
    const ended = (await endForm(service.id, { payingAccount: 'confirmed' }, cookie)) as Response
    expect(ended.status).toBe(302)
    const refund = await prisma.refund.findFirstOrThrow({ where: { paymentId } })
    expect(refund).toMatchObject({
      status: 'DUE',
      payeeAccountName: 'ASHA RAO',
      payeePaidWithUtr: 'ICIC000555666',
      payeeAccountNumber: null,
      payeeIfsc: null,
    })
    const due = await refundQueue('DUE', null, 500)
    expect(due.rows.find((row) => row.id === refund.id)).toMatchObject({
      payingAccount: { accountName: 'ASHA RAO', utr: 'ICIC000555666' },
      payee: null,
    })
  })
})
