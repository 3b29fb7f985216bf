import { describe, expect, it } from 'vitest'
import { MS_PER_DAY } from '~/domain/dates'
import {
  dueReminderStage,
  REMINDER_AFTER_END_LIMIT_MS,
  REMINDER_STAGE_BEFORE_END_MS,
  REMINDER_STAGES,
  renewalPath,
  smsQuietUntil,
} from '~/domain/renewal-reminders'

// 10-12-2026 15:00 IST
const endsAt = new Date('2026-12-10T09:30:00Z')
const startsAt = new Date(endsAt.getTime() - 30 * MS_PER_DAY)
const at = (msFromEnd: number) => new Date(endsAt.getTime() + msFromEnd)

describe('the reminder stages', () => {
  it('are 7 days before, 1 day before and at the end; late by at most a day', () => {
    expect(REMINDER_STAGE_BEFORE_END_MS).toEqual({ 1: 7 * MS_PER_DAY, 2: MS_PER_DAY, 3: 0 })
    expect(REMINDER_AFTER_END_LIMIT_MS).toBe(MS_PER_DAY)
  })

  it.each([
    { case: 'more than 7 days before', from: -7 * MS_PER_DAY - 1, stage: null },
    { case: '7 days before', from: -7 * MS_PER_DAY, stage: REMINDER_STAGES.WEEK_BEFORE },
    { case: '2 days before', from: -2 * MS_PER_DAY, stage: REMINDER_STAGES.WEEK_BEFORE },
    { case: '1 day before', from: -MS_PER_DAY, stage: REMINDER_STAGES.DAY_BEFORE },
    { case: 'a minute before the end', from: -60_000, stage: REMINDER_STAGES.DAY_BEFORE },
    { case: 'at the end', from: 0, stage: REMINDER_STAGES.ENDED },
    { case: 'hours after the end', from: 5 * 3_600_000, stage: REMINDER_STAGES.ENDED },
    { case: 'a day after the end', from: MS_PER_DAY, stage: null },
  ])('$case: $stage', ({ from, stage }) => {
    expect(dueReminderStage(startsAt, endsAt, at(from))).toBe(stage)
  })

  it('skips a stage whose moment lies before the period began', () => {
    const shortStart = new Date(endsAt.getTime() - 5 * MS_PER_DAY)
    expect(dueReminderStage(shortStart, endsAt, at(-3 * MS_PER_DAY))).toBeNull()
    expect(dueReminderStage(shortStart, endsAt, at(-MS_PER_DAY))).toBe(REMINDER_STAGES.DAY_BEFORE)
  })

  it('links to the renewal of the service', () => {
    expect(renewalPath('abc')).toBe('/renew/abc')
  })
})

describe('SMS quiet hours, 21:00 to 09:00 India time', () => {
  it.each([
    { ist: '2026-12-10T09:00:00+05:30', until: null },
    { ist: '2026-12-10T20:59:00+05:30', until: null },
    { ist: '2026-12-10T21:00:00+05:30', until: '2026-12-11T09:00:00+05:30' },
    { ist: '2026-12-10T23:59:00+05:30', until: '2026-12-11T09:00:00+05:30' },
    { ist: '2026-12-11T00:00:00+05:30', until: '2026-12-11T09:00:00+05:30' },
    { ist: '2026-12-11T08:59:00+05:30', until: '2026-12-11T09:00:00+05:30' },
  ])('an SMS due at $ist waits until $until', ({ ist, until }) => {
    expect(smsQuietUntil(new Date(ist))).toEqual(until ? new Date(until) : null)
  })
})
