import { describe, expect, it } from 'vitest'
import { MS_PER_DAY } from '~/domain/dates'
import {
  endingRefundPaise,
  excessRefundPaise,
  RefundBankAccountSchema,
  refundDueBy,
  refundState,
  wholeUnexpiredDays,
} from '~/domain/refunds'
import { REFUND_PAYMENT_DAYS } from '~/domain/refund-times'

const START = new Date('2026-12-01T10:00:00.000Z')
const at = (days: number, ms = 0) => new Date(START.getTime() + days * MS_PER_DAY + ms)
const thirtyDays = { startsAt: START, endsAt: at(30), feePaise: 300_000, daysBought: 30 }

describe('endingRefundPaise: fee x whole unexpired days / days bought, rounded down to the paisa', () => {
  it.each([
    ['not started yet: the fee in full', at(-5), 30, 300_000],
    ['at the very start', at(0), 30, 300_000],
    ['one millisecond in (first day)', at(0, 1), 29, 290_000],
    ['half way', at(15), 15, 150_000],
    ['one millisecond into the last day', at(29, 1), 0, 0],
    ['with exactly one day left', at(29), 1, 10_000],
    ['at the end', at(30), 0, 0],
    ['after the end', at(40), 0, 0],
  ])('%s', (_name, now, days, refund) => {
    expect(wholeUnexpiredDays(thirtyDays, now)).toBe(days)
    expect(endingRefundPaise(thirtyDays, now)).toBe(refund)
  })

  it('rounds down: Rs 2,999 for 30 days with 7 days left is 69,976.66 paise -> 69,976', () => {
    expect(endingRefundPaise({ ...thirtyDays, feePaise: 299_900 }, at(23))).toBe(69_976)
  })

  it('is 0 for a granted subscription (no payment)', () => {
    expect(endingRefundPaise({ ...thirtyDays, feePaise: null }, at(1))).toBe(0)
  })

  it('never gives back more than is left after an earlier excess refund', () => {
    expect(endingRefundPaise({ ...thirtyDays, alreadyRefundedPaise: 295_000 }, at(0))).toBe(5_000)
    expect(endingRefundPaise({ ...thirtyDays, alreadyRefundedPaise: 300_000 }, at(0))).toBe(0)
  })

  it('refuses days bought that are not a positive whole number', () => {
    expect(() => endingRefundPaise({ ...thirtyDays, daysBought: 0 }, at(1))).toThrow(RangeError)
  })
})

describe('excessRefundPaise', () => {
  it('is the fee for the days beyond the limit, rounded down, at most the fee', () => {
    expect(excessRefundPaise({ feePaise: 999_900, daysBought: 365 }, 30)).toBe(82_183)
    expect(excessRefundPaise({ feePaise: 999_900, daysBought: 365 }, 400)).toBe(999_900)
    expect(excessRefundPaise({ feePaise: 999_900, daysBought: 365 }, 0)).toBe(0)
  })
})

describe('RefundBankAccountSchema', () => {
  it('accepts an account with spaces and a lower-case IFSC, normalised', () => {
    expect(
      RefundBankAccountSchema.parse({
        accountName: ' Asha Rao ',
        accountNumber: '1234 5678 9012',
        ifsc: 'sbin0001234',
      }),
    ).toEqual({ accountName: 'Asha Rao', accountNumber: '123456789012', ifsc: 'SBIN0001234' })
  })

  it.each([
    ['a short account number', { accountNumber: '12345' }],
    ['letters in the account number', { accountNumber: '12345678AB' }],
    ['an IFSC without its 0', { ifsc: 'SBIN1001234' }],
    ['a blank name', { accountName: ' ' }],
  ])('refuses %s', (_name, change) => {
    const valid = { accountName: 'Asha Rao', accountNumber: '123456789012', ifsc: 'SBIN0001234' }
    expect(RefundBankAccountSchema.safeParse({ ...valid, ...change }).success).toBe(false)
  })
})

describe('refundState: what the customer is told of a refund', () => {
  const requestedAt = new Date('2026-12-01T06:00:00Z')
  const paidAt = new Date('2026-12-04T06:00:00Z')
  const base = { createdAt: requestedAt, processedAt: null, lastError: null }

  it.each([
    [
      'a bank transfer to make',
      { ...base, status: 'DUE', byBankTransfer: true },
      'REQUESTED',
      'Requested on 01-12-2026',
      `We pay it by bank transfer to the account you gave, within ${REFUND_PAYMENT_DAYS} days: by 31-12-2026.`,
    ],
    [
      'a gateway refund asked for',
      { ...base, status: 'PENDING', byBankTransfer: false },
      'REQUESTED',
      'Requested on 01-12-2026',
      'It goes back to the card or UPI account you paid with, in 5 to 7 working days.',
    ],
    [
      'a gateway refund the job is retrying',
      { ...base, status: 'PENDING', lastError: 'HTTP 502', byBankTransfer: false },
      'RETRYING',
      'Failed, being retried',
      `The payment gateway did not take the refund, so we are trying again. We still pay the refund within ${REFUND_PAYMENT_DAYS} days, by 31-12-2026.`,
    ],
    [
      'a gateway refund the team retries',
      { ...base, status: 'FAILED', lastError: 'HTTP 400', byBankTransfer: false },
      'RETRYING',
      'Failed, being retried',
      `The payment gateway did not take the refund, so we are trying again. We still pay the refund within ${REFUND_PAYMENT_DAYS} days, by 31-12-2026.`,
    ],
    [
      'a bank transfer made',
      { ...base, status: 'PROCESSED', processedAt: paidAt, byBankTransfer: true },
      'PAID',
      'Paid on 04-12-2026',
      'Sent by bank transfer to the account you gave.',
    ],
    [
      'a gateway refund made',
      { ...base, status: 'PROCESSED', processedAt: paidAt, byBankTransfer: false },
      'PAID',
      'Paid on 04-12-2026',
      'Sent back to the card or UPI account you paid with; your bank shows it once it credits it.',
    ],
  ] as const)('%s', (_name, refund, state, label, next) => {
    expect(refundState(refund)).toEqual({ state, label, next })
  })

  it('is paid by REFUND_PAYMENT_DAYS after it was requested', () => {
    expect(refundDueBy(requestedAt)).toEqual(new Date('2026-12-31T06:00:00Z'))
  })
})
