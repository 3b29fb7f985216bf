import { describe, expect, it } from 'vitest'
import {
  GATEWAY_LATE_AUTHORISATION_WINDOW_MS,
  closedAccountPayment,
  isOpenManualClaim,
  isPendingForCustomer,
  payRefusal,
  statusesFor,
  type PaidSource,
  type PaymentEvent,
  type PaymentMethod,
  type PaymentStatus,
  type PayRefusal,
} from '~/domain/payment-status'

const now = new Date('2026-11-20T10:00:00Z')
const later = new Date(now.getTime() + 60_000)
const earlier = new Date(now.getTime() - 60_000)

describe('which status can become which', () => {
  // [method, event, the statuses it applies to]
  const table: [PaymentMethod, PaymentEvent['type'], PaymentStatus[]][] = [
    ['GATEWAY', 'paid', ['CREATED', 'FAILED', 'CANCELLED']],
    ['GATEWAY', 'failed', ['CREATED']],
    // Closing the checkout after a failure keeps the failure: the payment stays FAILED.
    ['GATEWAY', 'closed', ['CREATED']],
    ['GATEWAY', 'abandoned', ['CREATED']],
    ['GATEWAY', 'rejected', []],
    ['GATEWAY', 'expired', []],
    ['MANUAL', 'paid', ['PENDING_VERIFICATION']],
    ['MANUAL', 'rejected', ['PENDING_VERIFICATION']],
    ['MANUAL', 'expired', ['PENDING_VERIFICATION']],
    ['MANUAL', 'failed', []],
    ['MANUAL', 'closed', []],
    ['MANUAL', 'abandoned', []],
    // Closing the account cancels an open order and an open claim.
    ['GATEWAY', 'account-closed', ['CREATED']],
    ['MANUAL', 'account-closed', ['PENDING_VERIFICATION']],
  ]
  it.each(table)('%s %s applies from %j', (method, event, from) => {
    expect(statusesFor(method, event).sort()).toEqual([...from].sort())
  })
})

describe('whether a source may pay a payment now (markPaymentPaid)', () => {
  const open = { expiresAt: later }
  // [method, status, source, gateway payment id given, expires, refusal or null]
  const table: [PaymentMethod, PaymentStatus, PaidSource, boolean, Date | null, PayRefusal | null][] = [
    ['GATEWAY', 'CREATED', 'checkout', true, null, null],
    ['GATEWAY', 'FAILED', 'webhook', true, null, null],
    ['GATEWAY', 'CANCELLED', 'reconciliation', true, null, null],
    ['GATEWAY', 'CREATED', 'reverify', true, null, null],
    ['GATEWAY', 'CREATED', 'callback', true, null, null],
    ['GATEWAY', 'CREATED', 'admin', true, null, 'wrong-source'],
    ['GATEWAY', 'CREATED', 'checkout', false, null, 'missing-gateway-payment-id'],
    ['GATEWAY', 'REJECTED', 'webhook', true, null, 'final'],
    ['GATEWAY', 'EXPIRED', 'webhook', true, null, 'final'],
    ['MANUAL', 'PENDING_VERIFICATION', 'admin', false, open.expiresAt, null],
    ['MANUAL', 'PENDING_VERIFICATION', 'webhook', true, open.expiresAt, 'wrong-source'],
    ['MANUAL', 'REJECTED', 'admin', false, open.expiresAt, 'final'],
    ['MANUAL', 'EXPIRED', 'admin', false, open.expiresAt, 'final'],
    ['MANUAL', 'PENDING_VERIFICATION', 'admin', false, now, 'expired'],
    ['MANUAL', 'PENDING_VERIFICATION', 'admin', false, earlier, 'expired'],
    ['MANUAL', 'PENDING_VERIFICATION', 'admin', false, null, 'expired'],
  ]
  it.each(table)(
    '%s %s by %s (gateway id: %s, expires %s) -> %s',
    (method, status, source, withId, expiresAt, refusal) => {
      const gatewayPaymentId = withId ? 'pay_1' : undefined
      expect(payRefusal({ method, status, expiresAt }, { source, paidAt: now, gatewayPaymentId })).toBe(refusal)
    },
  )
})

describe('a payment of a closed account', () => {
  it('is refused to the team (a claim) and honoured by refunding all of it (a gateway capture)', () => {
    expect(closedAccountPayment('MANUAL')).toBe('refuse')
    expect(closedAccountPayment('GATEWAY')).toBe('refund-in-full')
    const claim = { method: 'MANUAL', status: 'PENDING_VERIFICATION', expiresAt: later } as const
    expect(payRefusal(claim, { source: 'admin', paidAt: now, accountClosed: true })).toBe('account-closed')
    const order = { method: 'GATEWAY', status: 'CANCELLED', expiresAt: null } as const
    expect(payRefusal(order, { source: 'webhook', paidAt: now, gatewayPaymentId: 'pay_1', accountClosed: true })).toBe(
      null,
    )
  })
})

describe('a manual claim still open, and what the customer sees as pending', () => {
  // [method, status, expiresAt, created this long ago, open claim, pending for the customer]
  const table: [PaymentMethod, PaymentStatus, Date | null, number, boolean, boolean][] = [
    ['MANUAL', 'PENDING_VERIFICATION', later, 0, true, true],
    ['MANUAL', 'PENDING_VERIFICATION', now, 0, false, false],
    ['MANUAL', 'PENDING_VERIFICATION', earlier, 0, false, false],
    ['MANUAL', 'PENDING_VERIFICATION', null, 0, false, false],
    ['MANUAL', 'REJECTED', later, 0, false, false],
    ['MANUAL', 'EXPIRED', later, 0, false, false],
    ['MANUAL', 'PAID', later, 0, false, false],
    ['GATEWAY', 'CREATED', null, 0, false, true],
    ['GATEWAY', 'CREATED', null, GATEWAY_LATE_AUTHORISATION_WINDOW_MS - 1, false, true],
    ['GATEWAY', 'CREATED', null, GATEWAY_LATE_AUTHORISATION_WINDOW_MS, false, false],
    ['GATEWAY', 'FAILED', null, 0, false, false],
    ['GATEWAY', 'CANCELLED', null, 0, false, false],
    ['GATEWAY', 'PAID', null, 0, false, false],
  ]
  it.each(table)(
    '%s %s expiring %s, %i ms old: open %s, pending %s',
    (method, status, expiresAt, ageMs, open, pending) => {
      const createdAt = new Date(now.getTime() - ageMs)
      expect(isOpenManualClaim({ method, status, expiresAt }, now)).toBe(open)
      expect(isPendingForCustomer({ method, status, expiresAt, createdAt }, now)).toBe(pending)
    },
  )

  it('waits five days for a late authorisation', () => {
    expect(GATEWAY_LATE_AUTHORISATION_WINDOW_MS).toBe(5 * 24 * 60 * 60 * 1000)
  })
})
