import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sandboxGateway } from '~/demo/razorpay-sandbox.server'
import { formatIndiaDate, MS_PER_DAY } from '~/domain/dates'
import { REFUND_PAYMENT_DAYS } from '~/domain/refund-times'
import * as accountRoute from '~/routes/account'
import * as dataJsonRoute from '~/routes/account.data-json'
import * as subscriptionsRoute from '~/routes/subscriptions'
import { prisma } from '~/server/db.server'
import { stopJobs } from '~/server/jobs/queue.server'
import type { SandboxGateway } from '~/server/payments/gateway/sandbox.server'
import { markPaymentPaid } from '~/server/payments/core.server'
import { endSubscription } from '~/server/payments/refunds/end-subscription.server'
import { sendGatewayRefund } from '~/server/payments/refunds/gateway-refund.server'
import { markRefundPaid } from '~/server/payments/refunds/refund-queue.server'
import { cartItemOf, createPaymentRow, createService } from '../support/payment-fixtures'
import { getRequest, routeArgs } from '../support/route-requests'
import { signedInUser } from '../support/sessions'

// What the customer sees of a refund (issue 32 item 4): requested, paid on a date, or failed and
// being retried, on /subscriptions and in "Your data" (the page and the download).

afterAll(() => stopJobs())

let gateway: SandboxGateway
beforeAll(() => {
  gateway = sandboxGateway()
})

const account = { accountName: 'Asha Rao', accountNumber: '123456789012', ifsc: 'SBIN0001234' }

/** A signed-in customer with a 30-day service bought 10 days ago by bank transfer, and one on the gateway. */
async function customerWithTwoSubscriptions() {
  const customer = await signedInUser({ completeProfile: true })
  const paidAt = new Date(Date.now() - 10 * MS_PER_DAY)
  const byTransfer = await createService('Equity transfer', 300_000, 30)
  const onGateway = await createService('Swing gateway', 300_000, 30)
  const transfer = await createPaymentRow(customer.userId, [cartItemOf(byTransfer)], {
    method: 'MANUAL',
    createdAt: paidAt,
  })
  await markPaymentPaid(transfer.id, { source: 'admin', paidAt })
  const card = await createPaymentRow(customer.userId, [cartItemOf(onGateway)], {
    method: 'GATEWAY',
    createdAt: paidAt,
  })
  const order = await gateway.createOrder({ amountPaise: card.amountPaise, receipt: card.id, notes: {} })
  await prisma.payment.update({ where: { id: card.id }, data: { gatewayOrderId: order.id } })
  await markPaymentPaid(card.id, {
    source: 'checkout',
    paidAt,
    gatewayPaymentId: gateway.pay(order.id).razorpay_payment_id,
  })
  return { customer, byTransfer, onGateway }
}

type ShownRefund = { serviceName: string; label: string; next: string; state: string }

async function subscriptionsRefunds(cookie: string): Promise<ShownRefund[]> {
  const shown = (await subscriptionsRoute.loader(routeArgs(getRequest('/subscriptions', cookie)))) as {
    refunds: ShownRefund[]
  }
  return shown.refunds
}

async function downloadedRefunds(cookie: string) {
  const response = await dataJsonRoute.loader(routeArgs(getRequest('/account/data.json', cookie)))
  return ((await response.json()) as { refunds: { service: string; state: string; next: string; status: string }[] })
    .refunds
}

async function accountRefunds(cookie: string) {
  const shown = (await accountRoute.loader(routeArgs(getRequest('/account', cookie)))) as {
    refunds: { service: string; state: string; next: string }[]
  }
  return shown.refunds
}

describe("a refund's state, as the customer sees it", () => {
  it('is requested (with the date it is paid by), paid on a date, or failed and being retried, in every place', async () => {
    const { customer, byTransfer, onGateway } = await customerWithTwoSubscriptions()
    const today = formatIndiaDate(new Date())
    expect(await subscriptionsRefunds(customer.cookie)).toEqual([])

    const ended = await endSubscription({
      userId: customer.userId,
      serviceId: byTransfer.id,
      by: { kind: 'customer' },
      reason: 'CUSTOMER_ENDED',
      payeeAccount: account,
      now: new Date(),
    })
    const transferRefund = await prisma.refund.findUniqueOrThrow({ where: { id: ended.refunds[0]!.id } })
    const dueBy = formatIndiaDate(new Date(transferRefund.createdAt.getTime() + REFUND_PAYMENT_DAYS * MS_PER_DAY))
    const requested = {
      serviceName: byTransfer.name,
      state: 'REQUESTED',
      label: `Requested on ${today}`,
      next: `We pay it by bank transfer to the account you gave, within ${REFUND_PAYMENT_DAYS} days: by ${dueBy}.`,
    }
    expect(await subscriptionsRefunds(customer.cookie)).toEqual([expect.objectContaining(requested)])

    const { refunds } = await endSubscription({
      userId: customer.userId,
      serviceId: onGateway.id,
      by: { kind: 'customer' },
      reason: 'CUSTOMER_ENDED',
      now: new Date(),
    })
    const gatewayRefundId = refunds[0]!.id
    gateway.failNextRefunds(1)
    await expect(sendGatewayRefund(gatewayRefundId, { lastAttempt: false }, gateway)).rejects.toThrow(/HTTP 502/)
    const retrying = {
      serviceName: onGateway.name,
      state: 'RETRYING',
      label: 'Failed, being retried',
      next: expect.stringContaining(`We still pay the refund within ${REFUND_PAYMENT_DAYS} days, by `),
    }
    expect(await subscriptionsRefunds(customer.cookie)).toEqual(
      expect.arrayContaining([expect.objectContaining(requested), expect.objectContaining(retrying)]),
    )
    expect(await downloadedRefunds(customer.cookie)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ service: onGateway.name, status: 'PENDING', state: 'Failed, being retried' }),
        expect.objectContaining({ service: byTransfer.name, status: 'DUE', state: `Requested on ${today}` }),
      ]),
    )

    expect(await sendGatewayRefund(gatewayRefundId, { lastAttempt: false }, gateway)).toBe('processed')
    const admin = await signedInUser({ role: 'ADMIN' })
    expect(
      await markRefundPaid({
        refundId: transferRefund.id,
        bankReference: 'SBIN327000012345',
        adminId: admin.userId,
        now: new Date(),
      }),
    ).toBe(true)
    const paid = await subscriptionsRefunds(customer.cookie)
    expect(paid).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          serviceName: byTransfer.name,
          state: 'PAID',
          label: `Paid on ${today}`,
          next: 'Sent by bank transfer to the account you gave.',
        }),
        expect.objectContaining({ serviceName: onGateway.name, state: 'PAID', label: `Paid on ${today}` }),
      ]),
    )
    expect(await accountRefunds(customer.cookie)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ service: byTransfer.name, state: `Paid on ${today}` }),
        expect.objectContaining({ service: onGateway.name, state: `Paid on ${today}` }),
      ]),
    )
  })

  it('leaves /subscriptions some time after it was paid, and stays in "Your data"', async () => {
    const { customer, byTransfer } = await customerWithTwoSubscriptions()
    const { refunds } = await endSubscription({
      userId: customer.userId,
      serviceId: byTransfer.id,
      by: { kind: 'customer' },
      reason: 'CUSTOMER_ENDED',
      payeeAccount: account,
      now: new Date(),
    })
    // Paid long ago: the row says so, as markRefundPaid would have written it then.
    await prisma.refund.update({
      where: { id: refunds[0]!.id },
      data: {
        status: 'PROCESSED',
        bankReference: 'SBIN327000012345',
        processedAt: new Date(Date.now() - 200 * MS_PER_DAY),
      },
    })
    expect(await subscriptionsRefunds(customer.cookie)).toEqual([])
    expect(await downloadedRefunds(customer.cookie)).toEqual([
      expect.objectContaining({
        service: byTransfer.name,
        status: 'PROCESSED',
        state: expect.stringMatching(/^Paid on /),
      }),
    ])
  })
})
