import { describe, expect, it } from 'vitest'
import { MS_PER_DAY } from '~/domain/dates'
import {
  indiaDateTimeLocal,
  parseIndiaDateTimeLocal,
  readResearchListFilter,
  readScheduleTime,
  RESEARCH_SCHEDULE_HORIZON_DAYS,
} from '~/domain/research-desk'

const NOW = new Date('2026-11-30T04:00:20Z') // 09:30:20 in India

describe('a scheduled time', () => {
  it('reads a datetime-local value as India time', () => {
    expect(parseIndiaDateTimeLocal('2026-11-30T09:31')).toEqual(new Date('2026-11-30T04:01:00Z'))
    expect(indiaDateTimeLocal(NOW)).toBe('2026-11-30T09:30')
  })

  it('refuses what is not a time', () => {
    for (const text of [
      '',
      'tomorrow',
      '2026-02-31T09:00',
      '2026-11-30T24:00',
      '2026-11-30 09:31',
      '2026-11-30T09:31:00',
    ])
      expect(parseIndiaDateTimeLocal(text), text).toBeNull()
    expect(readScheduleTime(undefined, NOW)).toEqual({
      ok: false,
      message: 'Enter the date and time to publish, in India time.',
    })
  })

  it('must be a later minute than now, within the horizon', () => {
    expect(readScheduleTime('2026-11-30T09:30', NOW)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/passed/),
    })
    expect(readScheduleTime('2026-11-29T09:30', NOW)).toMatchObject({ ok: false })
    expect(readScheduleTime('2026-11-30T09:31', NOW)).toEqual({ ok: true, at: new Date('2026-11-30T04:01:00Z') })
    const beyond = indiaDateTimeLocal(new Date(NOW.getTime() + RESEARCH_SCHEDULE_HORIZON_DAYS * MS_PER_DAY + 60_000))
    expect(readScheduleTime(beyond, NOW)).toMatchObject({ ok: false, message: 'Schedule at most 90 days ahead.' })
    expect(RESEARCH_SCHEDULE_HORIZON_DAYS * MS_PER_DAY).toBe(90 * 24 * 3_600_000)
  })
})

describe('the research list filter', () => {
  it('keeps what reads and names what does not', () => {
    const params = new URLSearchParams('status=SCHEDULED&kind=CALLX&from=2026-11-01&to=2026-02-30&serviceId=')
    expect(readResearchListFilter(params)).toEqual({
      filter: { status: 'SCHEDULED', from: '2026-11-01' },
      ignored: ['kind', 'to'],
    })
  })
})
