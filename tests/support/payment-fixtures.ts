import { randomInt } from 'node:crypto'
import type { CartItem } from '~/domain/cart'
import type { PaymentMethod, PaymentStatus } from '~/generated/prisma/client'
import { prisma } from '~/server/db.server'
import { checkKyc } from '~/server/kyc/kra.server'
import { recordRefundInLedger } from '~/server/payments/ledger.server'
import { recordKycAnswer } from '~/server/account/profile.server'
import { ASHA_RAO, uniquePan } from './sample-customer'

/** A customer the payment functions accept: KYC-validated by the fake KRA (no profile otherwise). */
export async function createUser(): Promise<string> {
  const user = await prisma.user.create({
    data: { phone: `+9198${String(randomInt(0, 100_000_000)).padStart(8, '0')}` },
  })
  await recordKycAnswer(user.id, await checkKyc({ pan: uniquePan(), dob: ASHA_RAO.dob, name: ASHA_RAO.name }))
  return user.id
}

export async function createService(name: string, pricePaise: number, durationDays: number, active = true) {
  return prisma.service.create({
    data: {
      name: `${name} ${randomInt(0, 1e9)}`,
      pricePaise,
      durationDays,
      active,
      riskLevel: 'HIGH',
      delivery: 'Ideas on the website as published',
    },
  })
}

export const cartItemOf = (service: {
  id: string
  name: string
  pricePaise: number
  durationDays: number
}): CartItem => ({
  serviceId: service.id,
  name: service.name,
  pricePaise: service.pricePaise,
  durationDays: service.durationDays,
})

/** A payment row as the payment functions would leave it, for tests of what comes after. */
export async function createPaymentRow(
  userId: string,
  cart: CartItem[],
  {
    method = 'GATEWAY',
    status = method === 'GATEWAY' ? 'CREATED' : 'PENDING_VERIFICATION',
    createdAt,
    expiresAt,
  }: {
    method?: PaymentMethod
    status?: PaymentStatus
    createdAt?: Date
    expiresAt?: Date
  } = {},
) {
  return prisma.payment.create({
    data: {
      userId,
      method,
      status,
      amountPaise: cart.reduce((sum, item) => sum + item.pricePaise, 0),
      cart,
      ...(createdAt ? { createdAt } : {}),
      ...(method === 'MANUAL' ? { expiresAt: expiresAt ?? new Date(Date.now() + 7 * 86_400_000) } : {}),
      ...(method === 'GATEWAY' ? { gatewayOrderId: `order_${randomInt(0, 1e12)}` } : {}),
    },
  })
}

/**
 * A refund of `refundPaise` of a paid payment with its ledger row, as the refund functions write
 * them, for tests of the ledger itself: the refund covers the payment's first subscription, `kind`
 * tells two refunds of one subscription apart.
 */
export async function recordTestRefund(
  paymentId: string,
  refundPaise: number,
  { at = new Date(), kind = 'ENDING' }: { at?: Date; kind?: 'ENDING' | 'EXCESS' } = {},
) {
  return prisma.$transaction(async (tx) => {
    const subscription = await tx.subscription.findFirstOrThrow({ where: { paymentId }, orderBy: { startsAt: 'asc' } })
    const refund = await tx.refund.create({
      data: {
        userId: subscription.userId,
        paymentId,
        subscriptionId: subscription.id,
        kind,
        reason: kind === 'ENDING' ? 'CUSTOMER_ENDED' : 'ADVANCE_LIMIT',
        amountPaise: refundPaise,
        status: 'PENDING',
      },
    })
    return recordRefundInLedger(tx, { refundId: refund.id, paymentId, refundPaise, at })
  })
}

/**
 * A bank statement's entry for a confirmation whose name check is not under test: the reason makes
 * any payer name acceptable (tests/integration/bank-transfer-confirmation.test.ts tests the check).
 */
export const STATEMENT_ENTRY = {
  utr: 'HDFC0000123456',
  payerName: 'Statement Payer',
  nameMismatchReason: 'Test fixture: the name check is tested on its own',
} as const
