import { describe, expect, it } from 'vitest'
import { isLatePublication, publicationDeadline } from '~/domain/complaint-board'
import {
  nextMonthToPublish,
  publishRefusal,
  registerMonthFigures,
  threeMonthsBefore,
  type RegisterComplaint,
} from '~/domain/complaint-register-board'

const complaint = (
  source: RegisterComplaint['source'],
  receivedOn: string,
  resolvedOn: string | null = null,
  impersonation = false,
): RegisterComplaint => ({ source, receivedOn, resolvedOn, impersonation })

const REGISTER: RegisterComplaint[] = [
  // Received in July, pending at the end of October: more than three months.
  complaint('DIRECTLY_FROM_INVESTORS', '2026-07-10'),
  // Received on 30 July: exactly three months on 30 October... and on 31 October more than three.
  complaint('DIRECTLY_FROM_INVESTORS', '2026-07-31'),
  // Received in September, resolved in October after 40 days.
  complaint('DIRECTLY_FROM_INVESTORS', '2026-09-01', '2026-10-11'),
  // Received and resolved in October.
  complaint('DIRECTLY_FROM_INVESTORS', '2026-10-01', '2026-10-05'),
  complaint('SEBI_SCORES', '2026-10-20', '2026-10-31'),
  // Received in October, resolved in November: pending at the end of October.
  complaint('OTHER_SOURCES', '2026-10-31', '2026-11-02'),
  // Impersonation: its own line only.
  complaint('DIRECTLY_FROM_INVESTORS', '2026-10-15', '2026-10-16', true),
  // Resolved before October: no part of it.
  complaint('SEBI_SCORES', '2026-08-01', '2026-08-03'),
]

describe('registerMonthFigures', () => {
  it.each([
    // month, source, received, resolved, pending > 3 months, resolution days in total
    ['2026-10', 'DIRECTLY_FROM_INVESTORS', 1, 2, 1, 44],
    ['2026-10', 'SEBI_SCORES', 1, 1, 0, 11],
    ['2026-10', 'OTHER_SOURCES', 1, 0, 0, 0],
    ['2026-11', 'DIRECTLY_FROM_INVESTORS', 0, 0, 2, 0],
    ['2026-11', 'OTHER_SOURCES', 0, 1, 0, 2],
    ['2026-08', 'SEBI_SCORES', 1, 1, 0, 2],
    ['2026-07', 'DIRECTLY_FROM_INVESTORS', 2, 0, 0, 0],
  ] as const)(
    '%s from %s: received %i, resolved %i, pending over 3 months %i, %i days',
    (month, source, received, resolved, over, days) => {
      expect(registerMonthFigures(REGISTER, month).figures[source]).toEqual({
        received,
        resolved,
        pendingOverThreeMonths: over,
        resolutionDaysTotal: days,
      })
    },
  )

  it('counts impersonation complaints by the month received, on their own line', () => {
    expect(registerMonthFigures(REGISTER, '2026-10').impersonationComplaints).toBe(1)
    expect(registerMonthFigures(REGISTER, '2026-11').impersonationComplaints).toBe(0)
  })

  it('gives zeros for a month with no complaints', () => {
    const { figures, impersonationComplaints } = registerMonthFigures([], '2026-10')
    expect(impersonationComplaints).toBe(0)
    for (const counts of Object.values(figures))
      expect(counts).toEqual({ received: 0, resolved: 0, pendingOverThreeMonths: 0, resolutionDaysTotal: 0 })
  })
})

describe('threeMonthsBefore', () => {
  it.each([
    ['2026-11-30', '2026-08-30'],
    ['2026-05-31', '2026-02-28'],
    ['2026-01-31', '2025-10-31'],
  ])('%s -> %s', (date, expected) => expect(threeMonthsBefore(date)).toBe(expected))
})

describe('publication', () => {
  it.each([
    ['2026-10', '2026-11-07', false],
    ['2026-10', '2026-11-08', true],
    ['2026-12', '2027-01-07', false],
    ['2026-12', '2027-01-08', true],
  ] as const)('%s published on %s: late %s', (month, publishedOn, late) => {
    expect(isLatePublication(month, publishedOn)).toBe(late)
  })

  it('is due by the 7th of the next month', () => expect(publicationDeadline('2026-12')).toBe('2027-01-07'))
})

describe('nextMonthToPublish', () => {
  it.each([
    // latest published, first register month, last ended -> month and paths
    ['2024-11', '2024-12', '2026-10', { month: '2024-12', paths: ['register'] }],
    ['2024-10', '2024-12', '2026-10', { month: '2024-11', paths: ['hand'] }],
    ['2026-09', '2024-12', '2026-10', { month: '2026-10', paths: ['register'] }],
    ['2026-10', '2024-12', '2026-10', null],
    ['2026-09', null, '2026-10', { month: '2026-10', paths: ['register', 'hand'] }],
    [null, '2026-03', '2026-10', { month: '2026-03', paths: ['register'] }],
    [null, null, '2026-10', { month: '2026-10', paths: ['register', 'hand'] }],
  ] as const)(
    'after %s, register from %s, %s ended -> %j',
    (latestPublished, firstRegisterMonth, lastEnded, expected) => {
      expect(nextMonthToPublish({ latestPublished, firstRegisterMonth, lastEnded })).toEqual(expected)
    },
  )
})

describe('publishRefusal', () => {
  const base = {
    latestPublished: '2026-08',
    firstRegisterMonth: '2024-12',
    lastEnded: '2026-10',
    alreadyPublished: false,
  }
  it.each([
    [{ month: '2026-09', path: 'register' }, null],
    [
      { month: '2026-10', path: 'register' },
      'Publish September 2026 first: months are published in order and none may be skipped.',
    ],
    [{ month: '2026-11', path: 'register' }, 'November 2026 has not ended yet: publish it from 1 December 2026.'],
    [
      { month: '2026-09', path: 'register', alreadyPublished: true },
      'September 2026 is already published; published figures do not change.',
    ],
    [
      { month: '2026-07', path: 'register' },
      'July 2026 is before August 2026, the latest published month: months are published in order.',
    ],
    [
      { month: '2026-09', path: 'hand' },
      'September 2026 is covered by the complaint register: its figures are computed from it, not entered by hand.',
    ],
    [{ month: '2026-09', path: 'hand', firstRegisterMonth: null }, null],
  ] as const)('%j -> %s', (change, expected) => {
    expect(publishRefusal({ ...base, ...change })).toBe(expected)
  })
})
