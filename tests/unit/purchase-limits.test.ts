import { describe, expect, it } from 'vitest'
import { MS_PER_DAY } from '~/domain/dates'
import {
  ADVANCE_LIMIT_DAYS,
  advanceExcess,
  advanceRefusalMessage,
  advanceRefusals,
  committedEnds,
  purchasePeriodLabel,
  renewableFrom,
  renewableFromLabel,
} from '~/domain/purchase-limits'

// 26-11-2026 10:00 IST
const now = new Date('2026-11-26T04:30:00Z')
const days = (count: number, from = now) => new Date(from.getTime() + count * MS_PER_DAY)
const equity = { serviceId: 'equity', name: 'Equity Premium', durationDays: 365 }
const swing = { serviceId: 'swing', name: 'Swing Trades', durationDays: 30 }

describe('ADVANCE_LIMIT_DAYS', () => {
  it('is one year of 365 days (SEBI circular of 2 April 2025)', () => {
    expect(ADVANCE_LIMIT_DAYS).toBe(365)
  })
})

describe('committedEnds', () => {
  it.each([
    { case: 'nothing committed', subscriptions: [], open: [], equityEnd: undefined },
    { case: 'a subscription only', subscriptions: [days(40)], open: [], equityEnd: days(40) },
    { case: 'an expired subscription stays as it was', subscriptions: [days(-5)], open: [], equityEnd: days(-5) },
    { case: 'an open order chains after the subscription', subscriptions: [days(40)], open: [30], equityEnd: days(70) },
    { case: 'open orders and claims add up', subscriptions: [days(40)], open: [30, 365], equityEnd: days(435) },
    { case: 'after an expired subscription, from now', subscriptions: [days(-5)], open: [30], equityEnd: days(30) },
    { case: 'an open order without a subscription', subscriptions: [], open: [365], equityEnd: days(365) },
  ])('$case', ({ subscriptions, open, equityEnd }) => {
    const latest = new Map(subscriptions.map((end) => ['equity', end] as const))
    const periods = [...open.map((durationDays) => ({ serviceId: 'equity', durationDays })), swing]
    const ends = committedEnds(now, latest, periods)
    expect(ends.get('equity')).toEqual(equityEnd)
    expect(ends.get('swing')).toEqual(days(30))
  })
})

describe('renewableFrom', () => {
  it.each([
    { case: 'nothing paid: allowed', paidUpTo: undefined, durationDays: 365, expected: null },
    { case: 'expired: allowed', paidUpTo: days(-1), durationDays: 365, expected: null },
    { case: 'end exactly at the limit: allowed', paidUpTo: days(335), durationDays: 30, expected: null },
    // Buying at t ends at now + 336 + 30 days; allowed from now + 1 day (10:00 IST), so from the next midnight.
    {
      case: 'one day over: the IST midnight after',
      paidUpTo: days(336),
      durationDays: 30,
      expected: '2026-11-27T18:30:00.000Z',
    },
    { case: 'a year ahead, 365 more', paidUpTo: days(365), durationDays: 365, expected: '2027-11-26T18:30:00.000Z' },
    { case: 'longer than the limit: never', paidUpTo: undefined, durationDays: 366, expected: 'never' },
  ])('$case', ({ paidUpTo, durationDays, expected }) => {
    const from = renewableFrom(now, paidUpTo, durationDays)
    expect(from instanceof Date ? from.toISOString() : from).toBe(expected)
  })

  it('keeps an earliest instant that is an IST midnight as it is', () => {
    const paidUpTo = new Date('2027-01-10T18:30:00Z') // 11-01-2027 00:00 IST
    expect(renewableFrom(now, paidUpTo, 365)?.toString()).toBe(paidUpTo.toString())
  })

  it('is a date on which buying is allowed all day, and the day before is not', () => {
    const paidUpTo = days(200)
    const from = renewableFrom(now, paidUpTo, 365) as Date
    expect(renewableFrom(from, paidUpTo, 365)).toBeNull()
    expect(renewableFrom(new Date(from.getTime() - MS_PER_DAY), paidUpTo, 365)).not.toBeNull()
  })
})

describe('advanceRefusals', () => {
  it.each([
    { case: 'a first purchase of a year', committed: [], items: [equity], refused: [] },
    { case: 'a month renewal well inside the year', committed: [['swing', days(100)]], items: [swing], refused: [] },
    { case: 'a second year bought now', committed: [['equity', days(300)]], items: [equity], refused: ['equity'] },
    {
      case: 'only the service over the limit',
      committed: [['equity', days(300)]],
      items: [equity, swing],
      refused: ['equity'],
    },
    {
      case: 'both over',
      committed: [
        ['equity', days(300)],
        ['swing', days(340)],
      ],
      items: [swing, equity],
      refused: ['swing', 'equity'],
    },
    {
      case: 'the same service twice in one cart chains',
      committed: [],
      items: [equity, { ...equity }],
      refused: ['equity'],
    },
  ] as const)('$case', ({ committed, items, refused }) => {
    const refusals = advanceRefusals(now, new Map(committed.map(([id, end]) => [id, end])), items)
    expect(refusals.map((refusal) => refusal.serviceId)).toEqual(refused)
  })

  it('names the paid-up end and the first date of renewal', () => {
    const [refusal] = advanceRefusals(now, new Map([['equity', new Date('2027-11-30T06:00:00Z')]]), [equity])
    expect(refusal).toEqual({
      serviceId: 'equity',
      name: 'Equity Premium',
      paidUpTo: new Date('2027-11-30T06:00:00Z'),
      renewableFrom: new Date('2027-11-30T18:30:00Z'),
    })
  })
})

describe('advanceRefusalMessage', () => {
  it('names the service, its paid-up end and the renewal date (DD-MM-YYYY, IST)', () => {
    const refusals = advanceRefusals(now, new Map([['equity', new Date('2027-11-30T06:00:00Z')]]), [equity])
    expect(advanceRefusalMessage(refusals)).toBe(
      'Equity Premium is paid up to 30-11-2027. SEBI allows fees at most one year in advance: you can renew it from 01-12-2027.',
    )
  })

  it('names every refused service', () => {
    const committed = new Map([
      ['equity', days(300)],
      ['swing', days(340)],
    ])
    expect(advanceRefusalMessage(advanceRefusals(now, committed, [equity, swing]))).toBe(
      'Equity Premium is paid up to 22-09-2027 and Swing Trades is paid up to 01-11-2027. SEBI allows fees at most one year in advance: you can renew Equity Premium from 23-09-2027 and Swing Trades from 02-12-2026.',
    )
  })

  it('says when a service alone runs longer than the limit', () => {
    expect(advanceRefusalMessage(advanceRefusals(now, new Map(), [{ ...equity, durationDays: 400 }]))).toBe(
      'Equity Premium runs longer than one year, and SEBI allows fees at most one year in advance.',
    )
  })
})

describe('renewableFromLabel', () => {
  it('is "Renewable from DD-MM-YYYY" in India time', () => {
    expect(renewableFromLabel(new Date('2027-11-29T18:30:00Z'))).toBe('Renewable from 30-11-2027')
  })
})

describe('advanceExcess', () => {
  const paidAt = now
  it.each([
    { case: 'within the limit: nothing', startsAt: days(0), length: 365, excessDays: 0, excessPaise: 0, capped: 365 },
    {
      case: 'chained a year on: all of it',
      startsAt: days(365),
      length: 365,
      excessDays: 365,
      excessPaise: 1_000_000,
      capped: 365,
    },
    { case: 'partly over', startsAt: days(300), length: 365, excessDays: 300, excessPaise: 821_917, capped: 365 },
    {
      case: 'part of a day over counts as a day',
      startsAt: days(335.5),
      length: 30,
      excessDays: 1,
      excessPaise: 33_333,
      capped: 365,
    },
    {
      case: 'a chain already past the limit',
      startsAt: days(400),
      length: 30,
      excessDays: 30,
      excessPaise: 1_000_000,
      capped: 400,
    },
  ])('$case', ({ startsAt, length, excessDays, excessPaise, capped }) => {
    const excess = advanceExcess({
      paidAt,
      startsAt,
      endsAt: days(length, startsAt),
      durationDays: length,
      pricePaise: 1_000_000,
    })
    expect(excess).toEqual({ cappedEndsAt: days(capped), excessDays, excessPaise })
  })
})

describe('purchasePeriodLabel', () => {
  it('states a renewal from the current end, and a new purchase from now', () => {
    expect(purchasePeriodLabel(now, days(10), 30)).toBe(
      'Renewal: 06-12-2026 (when your current period ends) to 05-01-2027',
    )
    expect(purchasePeriodLabel(now, days(-3), 30)).toBe('Period: 26-11-2026 to 26-12-2026')
    expect(purchasePeriodLabel(now, undefined, 30)).toBe('Period: 26-11-2026 to 26-12-2026')
  })
})
