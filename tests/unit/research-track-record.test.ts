import { describe, expect, it } from 'vitest'
import { CALL_ACTIONS, RATING_DEFINITIONS, ratingDefinitionLines, type CallTerms } from '~/domain/research-calls'
import {
  callOutcome,
  callReturnBasisPoints,
  formatBasisPoints,
  trackRecordSummary,
  type TrackRecordFollowUp,
} from '~/domain/research-track-record'

const buy: CallTerms = {
  action: 'BUY',
  entryLowPaise: 100_000,
  entryHighPaise: null,
  targetsPaise: [110_000, 120_000],
  stopLossPaise: 95_000,
}
const sell: CallTerms = {
  action: 'SELL',
  entryLowPaise: 100_000,
  entryHighPaise: 102_000,
  targetsPaise: [90_000],
  stopLossPaise: 105_000,
}

let minute = 0
const at = () => new Date(Date.UTC(2026, 10, 1, 4, minute++))
const followUp = (
  kind: TrackRecordFollowUp['kind'],
  figures: Partial<TrackRecordFollowUp> = {},
): TrackRecordFollowUp => ({
  kind,
  targetsPaise: [],
  stopLossPaise: null,
  pricePaise: null,
  publishedAt: at(),
  ...figures,
})

describe('a call’s return', () => {
  it('is signed by the direction: a buy gains as the price rises, a sell as it falls', () => {
    expect(callReturnBasisPoints(buy, 110_000)).toBe(1_000)
    expect(callReturnBasisPoints(buy, 95_000)).toBe(-500)
    // A sell's entry range 1,000 to 1,020 has its midpoint at 1,010.
    expect(callReturnBasisPoints(sell, 90_900)).toBe(1_000)
    expect(callReturnBasisPoints(sell, 106_050)).toBe(-500)
    expect(callReturnBasisPoints({ ...buy, action: 'HOLD' }, 110_000)).toBe(1_000)
  })

  it('is taken from a range’s midpoint, exact for odd paise, rounded half away from zero', () => {
    // Entry 1,000.00 to 1,000.01: midpoint 1,000.005; exit 1,000.01 is +0.0005% = 0.005 bp, rounds to 0.
    expect(callReturnBasisPoints({ ...buy, entryHighPaise: 100_001 }, 100_001)).toBe(0)
    // +0.005% exactly = 0.5 bp rounds away from zero, either way round.
    expect(callReturnBasisPoints({ ...buy, entryLowPaise: 200_000 }, 200_010)).toBe(1)
    expect(callReturnBasisPoints({ ...buy, entryLowPaise: 200_000 }, 199_990)).toBe(-1)
    expect(callReturnBasisPoints({ ...sell, entryLowPaise: 200_000, entryHighPaise: null }, 199_990)).toBe(1)
  })

  it('is none for an exit call, which opens no position', () => {
    expect(callReturnBasisPoints({ ...buy, action: 'EXIT' }, 110_000)).toBeNull()
  })
})

describe('a call’s outcome', () => {
  it('is open with no follow-up, and stays open after a target hit while targets remain', () => {
    expect(callOutcome(buy, [])).toMatchObject({ outcome: 'OPEN', returnBasisPoints: null, targetsHit: 0 })
    expect(callOutcome(buy, [followUp('TARGET_HIT', { pricePaise: 110_000 })])).toMatchObject({
      outcome: 'OPEN',
      targetsHit: 1,
      exitPricePaise: null,
    })
  })

  it('is a target hit when its last target is hit, the return to that price', () => {
    const hits = [followUp('TARGET_HIT', { pricePaise: 110_000 }), followUp('TARGET_HIT', { pricePaise: 120_500 })]
    expect(callOutcome(buy, hits)).toMatchObject({
      outcome: 'TARGET_HIT',
      exitPricePaise: 120_500,
      endedAt: hits[1]!.publishedAt,
      returnBasisPoints: 2_050,
    })
    expect(callOutcome(sell, [followUp('TARGET_HIT', { pricePaise: 90_900 })])).toMatchObject({
      outcome: 'TARGET_HIT',
      returnBasisPoints: 1_000,
    })
  })

  it('counts targets as last revised', () => {
    const result = callOutcome(buy, [
      followUp('TARGET_REVISED', { targetsPaise: [115_000] }),
      followUp('STOP_LOSS_REVISED', { stopLossPaise: 98_000 }),
      followUp('TARGET_HIT', { pricePaise: 115_000 }),
    ])
    expect(result).toMatchObject({
      outcome: 'TARGET_HIT',
      targetsPaise: [115_000],
      stopLossPaise: 98_000,
      revised: true,
      returnBasisPoints: 1_500,
    })
  })

  it('ends at a stop-loss hit or a close with its price, a sell’s loss negative', () => {
    expect(callOutcome(sell, [followUp('STOP_LOSS_HIT', { pricePaise: 106_050 })])).toMatchObject({
      outcome: 'STOP_LOSS_HIT',
      returnBasisPoints: -500,
    })
    expect(
      callOutcome(buy, [followUp('TARGET_HIT', { pricePaise: 110_000 }), followUp('CLOSED', { pricePaise: 112_000 })]),
    ).toMatchObject({ outcome: 'CLOSED', exitPricePaise: 112_000, targetsHit: 1, returnBasisPoints: 1_200 })
  })

  it('is withdrawn with no exit price and no return; what follows the end changes nothing', () => {
    expect(
      callOutcome(buy, [followUp('WITHDRAWAL'), followUp('CORRECTION'), followUp('CLOSED', { pricePaise: 1 })]),
    ).toMatchObject({ outcome: 'WITHDRAWN', exitPricePaise: null, returnBasisPoints: null })
  })
})

describe('a service’s summary', () => {
  it('counts open and closed calls, the hit rate over closed calls (withdrawals count, not hit) and the average return', () => {
    const outcomes = [
      callOutcome(buy, []),
      callOutcome(buy, [
        followUp('TARGET_HIT', { pricePaise: 110_000 }),
        followUp('TARGET_HIT', { pricePaise: 120_000 }),
      ]),
      callOutcome(sell, [followUp('STOP_LOSS_HIT', { pricePaise: 106_050 })]),
      callOutcome(buy, [followUp('CLOSED', { pricePaise: 101_000 })]),
      callOutcome(buy, [followUp('WITHDRAWAL')]),
      callOutcome({ ...buy, action: 'EXIT', targetsPaise: [], stopLossPaise: null }, []),
    ]
    expect(trackRecordSummary(outcomes)).toEqual({
      calls: 6,
      notScored: 1,
      open: 1,
      closed: 4,
      targetHit: 1,
      stopLossHit: 1,
      closedAtPrice: 1,
      withdrawn: 1,
      hitRateBasisPoints: 2_500,
      // (2,000 - 500 + 100) / 3 = 533.33 bp
      averageReturnBasisPoints: 533,
    })
  })

  it('has no hit rate or average before any call closes', () => {
    expect(trackRecordSummary([callOutcome(buy, [])])).toMatchObject({
      hitRateBasisPoints: null,
      averageReturnBasisPoints: null,
    })
  })

  it('prints basis points as a percentage with two decimals', () => {
    expect(formatBasisPoints(1_234)).toBe('+12.34%')
    expect(formatBasisPoints(-50)).toBe('-0.50%')
    expect(formatBasisPoints(0)).toBe('0.00%')
    expect(formatBasisPoints(2_500, false)).toBe('25.00%')
  })
})

describe('rating definitions', () => {
  it('define every action a call can take, from one constant', () => {
    expect(ratingDefinitionLines().map((line) => line.label)).toEqual(['Buy', 'Sell', 'Hold', 'Exit'])
    for (const action of CALL_ACTIONS) expect(RATING_DEFINITIONS[action].length).toBeGreaterThan(20)
  })
})
