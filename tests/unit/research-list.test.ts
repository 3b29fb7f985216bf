import { describe, expect, it } from 'vitest'
import { encodeCursor } from '~/domain/keyset'
import { readResearchListQuery } from '~/domain/research-list'
import { RESEARCH_KEPT_YEARS, researchRetentionCutoff } from '~/domain/research-retention'

const MINE = '11111111-1111-4111-8111-111111111111'
const OTHER = '22222222-2222-4222-8222-222222222222'
const read = (query: string) => readResearchListQuery(new URLSearchParams(query), [MINE])

describe('readResearchListQuery', () => {
  it('reports a malformed, foreign or repeated service, and a bad cursor, as invalid instead of throwing', () => {
    for (const query of ['service=not-a-uuid', `service=${OTHER}`, `service=${MINE}&service=${MINE}`, 'service=%00'])
      expect(read(query)).toMatchObject({ serviceId: null, invalidService: true })
    for (const query of ['after=garbage', 'before=1_2', `after=x&before=y`, `after=${'9'.repeat(500)}`])
      expect(read(query)).toMatchObject({ page: null, invalidCursor: true })
  })

  it('reads one of the customer services, every service, and a cursor the list wrote', () => {
    expect(read(`service=${MINE}`)).toEqual({
      serviceId: MINE,
      page: null,
      invalidService: false,
      invalidCursor: false,
    })
    expect(read('service=')).toMatchObject({ serviceId: null, invalidService: false })
    expect(read('')).toMatchObject({ serviceId: null, invalidService: false, invalidCursor: false })
    const at = new Date(Date.UTC(2027, 0, 1))
    expect(read(`after=${encodeCursor({ at, id: OTHER })}`).page).toEqual({
      direction: 'after',
      key: { at, id: OTHER },
    })
  })
})

describe('researchRetentionCutoff', () => {
  it('is RESEARCH_KEPT_YEARS (5) calendar years before now', () => {
    expect(RESEARCH_KEPT_YEARS).toBe(5)
    expect(researchRetentionCutoff(new Date('2031-03-01T10:00:00Z'))).toEqual(new Date('2026-03-01T10:00:00Z'))
  })
})
