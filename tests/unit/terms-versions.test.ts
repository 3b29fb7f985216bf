import { describe, expect, it } from 'vitest'
import {
  acceptanceCovers,
  customerTerms,
  earliestEffectiveFrom,
  effectiveFromFor,
  TERMS_CHANGE_NOTICE_DAYS,
  termsNotAcceptedMessage,
  termsState,
  versionsCoveringInForce,
} from '~/domain/terms-versions'
import { diffLines } from '~/domain/text-diff'

const day = (n: number) => new Date(Date.UTC(2027, 0, 1) + n * 86_400_000)

// v1 in force since day 0; v2 published day 10, effective day 25; v3 published day 30, effective day 45.
const V1 = { version: 'agreement-v1', publishedAt: day(-15), effectiveFrom: day(0) }
const V2 = { version: 'agreement-v2', publishedAt: day(10), effectiveFrom: day(25) }
const V3 = { version: 'agreement-v3', publishedAt: day(30), effectiveFrom: day(45) }
const ALL = [V1, V2, V3]
const V3_EARLY = { version: 'agreement-v3', publishedAt: day(20), effectiveFrom: day(35) }

describe('effectiveFromFor', () => {
  it('is 15 days after publication unless the operator chooses a later date', () => {
    expect(TERMS_CHANGE_NOTICE_DAYS).toBe(15)
    expect(effectiveFromFor(day(0), undefined)).toEqual({ ok: true, effectiveFrom: day(15) })
    expect(effectiveFromFor(day(0), day(20))).toEqual({ ok: true, effectiveFrom: day(20) })
    expect(effectiveFromFor(day(0), day(15))).toEqual({ ok: true, effectiveFrom: earliestEffectiveFrom(day(0)) })
  })

  it('refuses a date inside the notice period, naming the earliest', () => {
    const refused = effectiveFromFor(day(0), day(14))
    expect(refused.ok).toBe(false)
    expect(!refused.ok && refused.message).toContain(day(15).toISOString())
  })
})

describe('termsState', () => {
  it.each([
    ['before any version takes effect', [V2], day(11), null, V2],
    ['only v1, in force', [V1], day(5), V1, null],
    ['v2 published, before its date: v1 in force, v2 announced', ALL.slice(0, 2), day(24), V1, V2],
    ['v2 on its date: in force, nothing announced', ALL.slice(0, 2), day(25), V2, null],
    ['v3 published while v2 is in force', ALL, day(31), V2, V3],
    ['v3 in force', ALL, day(50), V3, null],
    [
      'v3 published before v2 took effect: v1 in force, v3 (the newest) announced',
      [V1, V2, V3_EARLY],
      day(22),
      V1,
      V3_EARLY,
    ],
    ['then v2 takes effect, v3 still announced', [V1, V2, V3_EARLY], day(26), V2, V3_EARLY],
  ])('%s', (_name, versions, now, inForce, upcoming) => {
    expect(termsState(versions, now)).toEqual({ inForce, upcoming })
  })
})

describe('customerTerms', () => {
  it.each([
    // accepted, now, mustAccept, announced
    ['never accepted (the wizard asks first)', null, day(30), null, null],
    ['accepted v1, before v2 is published', 'agreement-v1', day(5), null, null],
    ['accepted v1, v2 announced: banner only', 'agreement-v1', day(24), null, V2],
    ['accepted v1, v2 in force: must accept v2', 'agreement-v1', day(26), V2, null],
    ['accepted v2 in advance, before its date: nothing', 'agreement-v2', day(24), null, null],
    ['accepted v2, v2 in force: nothing', 'agreement-v2', day(26), null, null],
    ['accepted v2, v3 announced: banner', 'agreement-v2', day(31), null, V3],
    ['accepted v1, v3 announced while v2 in force: both', 'agreement-v1', day(31), V2, V3],
    ['accepted v3 (a newer version covers v2 in force)', 'agreement-v3', day(31), null, null],
    ['an unrecorded older version: must accept the one in force', 'agreement-old', day(26), V2, null],
  ])('%s', (_name, accepted, now, mustAccept, announced) => {
    const versions = now.getTime() < V3.publishedAt.getTime() ? ALL.slice(0, 2) : ALL
    expect(customerTerms(versions, accepted, now)).toEqual({ mustAccept, announced })
  })

  it('an accepted version covers only itself and older ones', () => {
    expect(acceptanceCovers(ALL, 'agreement-v1', V2)).toBe(false)
    expect(acceptanceCovers(ALL, 'agreement-v3', V2)).toBe(true)
    expect(acceptanceCovers(ALL, null, V1)).toBe(false)
  })

  it('names the version and where to read and accept it', () => {
    const message = termsNotAcceptedMessage('agreement-v2')
    expect(message).toContain('agreement-v2')
    expect(message).toContain('/terms-and-conditions')
    expect(message).toContain('/terms/accept')
  })
})

describe('diffLines', () => {
  it('marks added, removed and unchanged paragraphs', () => {
    expect(diffLines('A\nB\nC', 'A\nB2\nC\nD')).toEqual([
      { kind: 'same', text: 'A' },
      { kind: 'removed', text: 'B' },
      { kind: 'added', text: 'B2' },
      { kind: 'same', text: 'C' },
      { kind: 'added', text: 'D' },
    ])
    expect(diffLines('same', 'same')).toEqual([{ kind: 'same', text: 'same' }])
  })
})

describe('versionsCoveringInForce', () => {
  it('lists the version in force and those published after it; null before any is in force', () => {
    expect(versionsCoveringInForce(ALL, day(-1))).toBeNull()
    expect(versionsCoveringInForce(ALL, day(5))).toEqual(['agreement-v1', 'agreement-v2', 'agreement-v3'])
    expect(versionsCoveringInForce(ALL, day(30))).toEqual(['agreement-v2', 'agreement-v3'])
    expect(versionsCoveringInForce(ALL, day(50))).toEqual(['agreement-v3'])
  })
})
