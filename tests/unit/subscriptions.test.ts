import { describe, expect, it } from 'vitest'
import { nextPeriod, renewalStartsAt, subscriptionEndsAt } from '~/domain/subscriptions'

describe('subscriptionEndsAt', () => {
  it('ends exactly duration x 24 hours after payment', () => {
    const paidAt = new Date('2026-01-10T18:45:00Z')
    expect(subscriptionEndsAt(paidAt, 30).toISOString()).toBe('2026-02-09T18:45:00.000Z')
  })

  it('refuses a duration that is not a positive whole number of days', () => {
    expect(() => subscriptionEndsAt(new Date(), 0)).toThrow(RangeError)
    expect(() => subscriptionEndsAt(new Date(), 1.5)).toThrow(RangeError)
  })
})

describe('renewalStartsAt', () => {
  const now = new Date('2026-03-01T00:00:00Z')

  it('extends a subscription that is still active from its current end', () => {
    const currentEnd = new Date('2026-03-20T00:00:00Z')
    expect(renewalStartsAt(now, currentEnd)).toEqual(currentEnd)
  })

  it('starts now when there is no subscription or it has ended', () => {
    expect(renewalStartsAt(now, null)).toEqual(now)
    expect(renewalStartsAt(now, new Date('2026-02-01T00:00:00Z'))).toEqual(now)
  })
})

describe('nextPeriod', () => {
  it('chains a purchase after the running period, for its whole duration', () => {
    const period = nextPeriod(new Date('2026-03-01T10:00:00Z'), new Date('2026-03-20T06:00:00Z'), 30)
    expect(period).toEqual({ startsAt: new Date('2026-03-20T06:00:00Z'), endsAt: new Date('2026-04-19T06:00:00Z') })
  })

  it('starts at the purchase when nothing runs', () => {
    const period = nextPeriod(new Date('2026-03-01T10:00:00Z'), null, 7)
    expect(period).toEqual({ startsAt: new Date('2026-03-01T10:00:00Z'), endsAt: new Date('2026-03-08T10:00:00Z') })
  })
})
